import {
  isUnsubscribeToken,
  reviewRequestEmail,
  unsubscribeHeaders,
  unsubscribeLinks,
} from './review-messages';

const TOKEN = 'a'.repeat(43);
const business = { name: 'Mobile Tyres Perth', phone: '08 6000 0000' };

describe('review request email (Spam Act 2003)', () => {
  const links = unsubscribeLinks('https://tyres.example/', TOKEN);
  const email = reviewRequestEmail({ jobNumber: 'JOB-000123', customerName: 'Jane Citizen' }, business, {
    reviewUrl: 'https://g.page/r/mobile-tyres/review',
    unsubscribeUrl: links.page,
  });

  it('asks for a review with the business review link (text and a button)', () => {
    expect(email.subject).toBe('How did we go? A quick review for Mobile Tyres Perth');
    expect(email.text).toContain('Hi Jane,');
    expect(email.text).toContain('https://g.page/r/mobile-tyres/review');
    expect(email.html).toContain('href="https://g.page/r/mobile-tyres/review"');
    expect(email.html).toContain('>Leave a review</a>');
  });

  it('identifies the sender and how to reach them', () => {
    expect(email.text).toContain(
      'This email was sent by Mobile Tyres Perth (08 6000 0000) because we completed job JOB-000123 for you.',
    );
    expect(email.text).toContain('call us on 08 6000 0000 or reply to this email');
  });

  it('carries a working unsubscribe link, and says booking messages still come', () => {
    expect(links).toEqual({
      page: `https://tyres.example/unsubscribe/${TOKEN}`,
      oneClick: `https://tyres.example/api/unsubscribe/${TOKEN}`,
    });
    expect(email.text).toContain(links.page);
    expect(email.html).toContain(`<a href="${links.page}">Unsubscribe</a>`);
    expect(email.text).toContain("we'll still send messages about your bookings");
  });

  it('List-Unsubscribe names the one-click address; List-Unsubscribe-Post makes it one click (RFC 8058)', () => {
    expect(unsubscribeHeaders(links)).toEqual({
      'List-Unsubscribe': `<https://tyres.example/api/unsubscribe/${TOKEN}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('escapes what the customer typed', () => {
    const html = reviewRequestEmail({ jobNumber: 'JOB-1', customerName: '<b>Bob</b>' }, business, {
      reviewUrl: 'https://r.example/?a=1&b=2',
      unsubscribeUrl: links.page,
    }).html;
    expect(html).toContain('Hi &lt;b&gt;Bob&lt;/b&gt;,');
    expect(html).toContain('href="https://r.example/?a=1&amp;b=2"');
  });

  it('a token is 43 base64url characters, nothing else', () => {
    expect(isUnsubscribeToken(TOKEN)).toBe(true);
    expect(isUnsubscribeToken('a'.repeat(42))).toBe(false);
    expect(isUnsubscribeToken(`${'a'.repeat(42)}/`)).toBe(false);
    expect(isUnsubscribeToken('')).toBe(false);
  });
});

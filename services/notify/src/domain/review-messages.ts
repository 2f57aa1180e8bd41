/**
 * The review request (issue 18 item 3): a marketing message under the Spam Act 2003, so it identifies the sender,
 * says how to reach them, and carries a working unsubscribe link (also as List-Unsubscribe headers, RFC 2369 and
 * RFC 8058 one-click). Pure functions, unit-tested.
 */
import type { BusinessDetails, EmailContent } from './messages';

/** The purpose in the delivery log; unsubscribes withdraw the ones not sent yet. */
export const REVIEW_REQUEST_PURPOSE = 'review-request';

/** 32 random bytes, base64url (43 characters): nothing else is an unsubscribe token. */
export const UNSUBSCRIBE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const isUnsubscribeToken = (token: string): boolean => UNSUBSCRIBE_TOKEN.test(token);

/** Where the customer unsubscribes: the public page, and the one-click address mail clients POST to. */
export function unsubscribeLinks(siteUrl: string, token: string): { page: string; oneClick: string } {
  const site = siteUrl.replace(/\/+$/, '');
  return { page: `${site}/unsubscribe/${token}`, oneClick: `${site}/api/unsubscribe/${token}` };
}

/** List-Unsubscribe (the one-click address) and List-Unsubscribe-Post, so mail clients offer their own button. */
export function unsubscribeHeaders(links: { oneClick: string }): Record<string, string> {
  return {
    'List-Unsubscribe': `<${links.oneClick}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] || name.trim();
}

export function reviewRequestEmail(
  job: { jobNumber: string; customerName: string },
  business: BusinessDetails,
  links: { reviewUrl: string; unsubscribeUrl: string },
): EmailContent {
  const contact = business.phone
    ? `call us on ${business.phone} or reply to this email`
    : 'reply to this email';
  const subject = `How did we go? A quick review for ${business.name}`;
  const sender =
    `This email was sent by ${business.name}${business.phone ? ` (${business.phone})` : ''} because we ` +
    `completed job ${job.jobNumber} for you.`;
  const unsubscribe =
    "Don't want review requests? Unsubscribe here (we'll still send messages about your bookings):";
  const text = [
    `Hi ${firstName(job.customerName)},`,
    '',
    `Thanks for choosing ${business.name} for job ${job.jobNumber}. We hope everything went well.`,
    '',
    'If you have a minute, a short review helps other drivers across Perth and Peel find us:',
    links.reviewUrl,
    '',
    `Something not right? Please ${contact} and we will make it right.`,
    '',
    `${business.name}${business.phone ? ` - ${business.phone}` : ''}`,
    '',
    sender,
    unsubscribe,
    links.unsubscribeUrl,
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#222;line-height:1.5">',
    `<p>Hi ${escapeHtml(firstName(job.customerName))},</p>`,
    `<p>Thanks for choosing ${escapeHtml(business.name)} for job ${escapeHtml(job.jobNumber)}. ` +
      'We hope everything went well.</p>',
    '<p>If you have a minute, a short review helps other drivers across Perth and Peel find us:</p>',
    `<p><a href="${escapeHtml(links.reviewUrl)}" style="display:inline-block;padding:10px 18px;` +
      'background:#1d4ed8;color:#fff;text-decoration:none;border-radius:6px;font-weight:bold">Leave a review</a></p>',
    `<p>Something not right? Please ${escapeHtml(contact)} and we will make it right.</p>`,
    `<p>${escapeHtml(business.name)}${business.phone ? ` - ${escapeHtml(business.phone)}` : ''}</p>`,
    `<p style="font-size:12px;color:#555">${escapeHtml(sender)}<br>` +
      "Don't want review requests? " +
      `<a href="${escapeHtml(links.unsubscribeUrl)}">Unsubscribe</a> ` +
      "(we'll still send messages about your bookings).</p>",
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

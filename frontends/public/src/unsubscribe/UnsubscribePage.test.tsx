import '../testing/polyfills';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { renderWithSite, stubFetch, type StubAnswer } from '../testing/render';
import UnsubscribePage from './UnsubscribePage';

const TOKEN = 'u'.repeat(43);

function renderPage(answer: StubAnswer) {
  const api = stubFetch({ [`POST /api/unsubscribe/${TOKEN}`]: answer });
  renderWithSite(
    <Routes>
      <Route path="/unsubscribe/:token" element={<UnsubscribePage />} />
    </Routes>,
    { path: `/unsubscribe/${TOKEN}` },
  );
  return { ...api, user: userEvent.setup() };
}

afterEach(() => {
  document.head.querySelectorAll('[data-tyres-meta]').forEach((el) => el.remove());
});

describe('unsubscribe page (/unsubscribe/{token})', () => {
  test('opening the link unsubscribes once and confirms it; booking messages still come', async () => {
    const { calls } = renderPage({ json: { unsubscribed: true, contact: 'j***@example.com' } });
    expect(await screen.findByRole('heading', { name: 'You have been unsubscribed' })).toBeInTheDocument();
    expect(
      screen.getByText('j***@example.com will get no more review requests from Perth Mobile Tyres.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/still send messages about your bookings/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(calls[0]?.path).toBe(`/api/unsubscribe/${TOKEN}`);
  });

  test('the page is never indexed and its token is not in the canonical link', async () => {
    renderPage({ json: { unsubscribed: true, contact: 'j***@example.com' } });
    await screen.findByRole('heading', { name: 'You have been unsubscribed' });
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toMatch(/noindex/);
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).not.toContain(TOKEN);
  });

  test('a link that is not valid says so (and how to reach the business)', async () => {
    renderPage({ status: 404, json: { message: 'This unsubscribe link is not valid' } });
    expect(
      await screen.findByRole('heading', { name: 'This unsubscribe link is not valid' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Call 08 5550 1234/ })).toHaveAttribute(
      'href',
      'tel:+61855501234',
    );
    expect(screen.queryByText('You have been unsubscribed')).not.toBeInTheDocument();
  });

  test('a failure offers to try again, and trying again unsubscribes', async () => {
    let answers = 0;
    const { user } = renderPage(() =>
      ++answers === 1
        ? { status: 503, json: { message: 'Service temporarily unavailable' } }
        : { json: { unsubscribed: true, contact: 'j***@example.com' } },
    );
    expect(
      await screen.findByRole('heading', { name: "We couldn't unsubscribe you just now" }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'You have been unsubscribed' })).toBeInTheDocument();
    expect(answers).toBe(2);
  });
});

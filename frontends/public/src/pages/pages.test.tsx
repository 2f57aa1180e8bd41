import '../testing/polyfills';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { createQueryClient } from '@tyres/platform/query-client';
import { PublicSite } from '../PublicSite';
import { resetSitePrices } from '../site/prices';
import { resetCardSurcharge } from '../site/surcharge';
import { LANDING_SUBURBS } from '../site/suburbs';
import { BUSINESS, stubFetch } from '../testing/render';

const NOT_FOUND_TEXT =
  "Sorry, the page you're looking for doesn't exist or has been moved. Let's get you back on track!";

function renderSite(path: string) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <PublicSite business={BUSINESS} homePath="/" siteUrl="https://www.example.com.au" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  resetSitePrices();
  resetCardSurcharge();
  stubFetch({});
  document.head.innerHTML = '';
});

describe('landing page', () => {
  test('one h1, Book Service Now and a Contact Us call link', () => {
    renderSite('/');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Book Service Now' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', 'tel:+61855501234');
  });

  test('claims of spec section 1: highlights, stats, rating, hours, prepaid saving', () => {
    renderSite('/');
    for (const text of [
      'Same or next day service',
      'We come to you',
      'Professional equipment',
      '12-month warranty',
    ]) {
      expect(screen.getByRole('heading', { name: text })).toBeInTheDocument();
    }
    expect(screen.getAllByText('20+').length).toBeGreaterThan(0);
    expect(screen.getAllByText('350+').length).toBeGreaterThan(0);
    expect(screen.getByText('Rated 4.8 from 150 reviews')).toBeInTheDocument();
    expect(screen.getByText(/Prepay online and save \$30/)).toBeInTheDocument();
  });

  test('four service cards', () => {
    renderSite('/');
    const services = screen.getByRole('region', { name: 'Our services' });
    expect(
      within(services)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['New Tyres', 'Puncture Repair', 'Mobile Battery Service', 'Mobile Tyre Service']);
    expect(within(services).getByText('From $139 per tyre')).toBeInTheDocument();
  });

  test('areas: three regions and the 42 suburb links (lowercased, first space a hyphen)', () => {
    renderSite('/');
    const areas = screen.getByRole('region', { name: 'Areas we service' });
    expect(
      within(areas)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Perth Metro', 'Peel Region', 'Hills & Extended']);
    const links = within(areas).getAllByRole('link');
    expect(links).toHaveLength(42);
    expect(LANDING_SUBURBS).toHaveLength(42);
    expect(within(areas).getByRole('link', { name: 'Canning Vale' })).toHaveAttribute(
      'href',
      '/suburb/canning-vale',
    );
    expect(within(areas).getByRole('link', { name: 'Mount Helena' })).toHaveAttribute(
      'href',
      '/suburb/mount-helena',
    );
    expect(within(areas).getByRole('link', { name: 'Rockingham' })).toHaveAttribute(
      'href',
      '/suburb/rockingham',
    );
    for (const name of ['Book Home Service', 'Get Roadside Help', 'Check Service Availability']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
  });

  test('the booking dialog is loaded on demand when a booking button is pressed', async () => {
    stubFetch({ 'GET /api/time-slots': { json: [] } });
    const user = userEvent.setup();
    renderSite('/');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Check Service Availability' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book a Service' }, { timeout: 10_000 });
    expect(within(dialog).getByText('Step 1 of 7')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close booking' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Book a Service' })).not.toBeInTheDocument(),
    );
  });

  test("the phone's Back button closes the booking dialog instead of leaving the page", async () => {
    stubFetch({ 'GET /api/time-slots': { json: [] } });
    const user = userEvent.setup();
    renderSite('/');
    await user.click(screen.getByRole('button', { name: 'Check Service Availability' }));
    await screen.findByRole('dialog', { name: 'Book a Service' }, { timeout: 10_000 });
    expect((window.history.state as Record<string, unknown>).tyresBookingDialog).toBe(true);
    expect(window.sessionStorage.getItem('tyres.booking.open')).toBe('1');

    window.history.back();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Book a Service' })).not.toBeInTheDocument(),
    );
    expect(window.sessionStorage.getItem('tyres.booking.open')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument(); // still on the landing page
  });

  test('closing the dialog with its button goes back over its history entry', async () => {
    stubFetch({ 'GET /api/time-slots': { json: [] } });
    const user = userEvent.setup();
    renderSite('/');
    await user.click(screen.getByRole('button', { name: 'Check Service Availability' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book a Service' }, { timeout: 10_000 });
    expect((window.history.state as Record<string, unknown>).tyresBookingDialog).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Close booking' }));
    await waitFor(() =>
      expect((window.history.state as Record<string, unknown> | null)?.tyresBookingDialog).toBeUndefined(),
    );
  });

  test('a reload while the dialog was open reopens it with what was entered', async () => {
    stubFetch({ 'GET /api/time-slots': { json: [] } });
    window.sessionStorage.setItem('tyres.booking.open', '1');
    window.sessionStorage.setItem(
      'tyres.booking.draft',
      JSON.stringify({
        v: 1,
        step: 2,
        photoCount: 0,
        values: { date: '2099-01-05', timeSlot: '12-2 PM', serviceType: 'puncture-repair' },
      }),
    );
    renderSite('/');
    const dialog = await screen.findByRole('dialog', { name: 'Book a Service' }, { timeout: 10_000 });
    expect(within(dialog).getByText('Step 2 of 7')).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /Puncture Repair/ })).toBeChecked();
  });

  test('metadata: title, description, canonical and LocalBusiness structured data', async () => {
    renderSite('/');
    await waitFor(() => expect(document.title).toMatch(/^Mobile Tyres Perth & Peel/));
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(
      /Perth and Peel/,
    );
    expect(document.head.querySelector('meta[name="keywords"]')).not.toBeNull();
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      'https://www.example.com.au/',
    );
    expect(document.head.querySelector('meta[property="og:title"]')).not.toBeNull();
    expect(document.head.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe('summary');
    const data = JSON.parse(
      document.head.querySelector('script[type="application/ld+json"]')?.textContent ?? '{}',
    );
    expect(data['@type']).toBe('LocalBusiness');
    expect(data.areaServed.map((a: { name: string }) => a.name)).toEqual([
      'Perth',
      'Mandurah',
      'Rockingham',
      'Fremantle',
    ]);
    expect(data.aggregateRating).toMatchObject({ ratingValue: '4.8', reviewCount: '150' });
    expect(data.telephone).toBe('+61855501234');
  });

  test('after a card payment the landing page shows the booking confirmed', async () => {
    stubFetch({
      'GET /api/booking-token/*': {
        json: {
          amount: '258.80',
          serviceType: 'new-tyres',
          customer: { name: 'Sam', email: 's@example.com', phone: '0412345678' },
          job: {
            scheduledDate: '2026-11-24',
            timeSlot: '12-2 PM',
            address: '1 Beach Rd',
            suburb: 'Rockingham',
            postcode: '6168',
          },
          vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: '1ABC234' },
        },
      },
    });
    window.history.replaceState(null, '', '/?payment=success&booking=tok_abc');
    renderSite('/?payment=success&booking=tok_abc');
    expect(
      await screen.findByRole('heading', { name: 'Payment successful – your booking is confirmed' }),
    ).toBeInTheDocument();
    expect(await screen.findByText(/New Tyres on Tuesday 24 November 2026, 12-2 PM/)).toBeInTheDocument();
    window.history.replaceState(null, '', '/');
  });
});

describe('navigation and footer', () => {
  test('links: logo, Services, Areas, About; Book Now opens the dialog', () => {
    renderSite('/about');
    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0]!;
    expect(within(nav).getByRole('link', { name: 'Services' })).toHaveAttribute('href', '/#services');
    expect(within(nav).getByRole('link', { name: 'Areas' })).toHaveAttribute('href', '/#areas');
    expect(within(nav).getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    expect(screen.getByRole('link', { name: 'Perth Mobile Tyres' })).toHaveAttribute('href', '/');
    expect(screen.getAllByRole('button', { name: 'Book Now' }).length).toBeGreaterThan(0);
  });

  test('the small-screen menu opens, has Call Now, and closes when a link is used', async () => {
    const user = userEvent.setup();
    renderSite('/about');
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    expect(within(menu).getByRole('link', { name: 'Call Now' })).toHaveAttribute('href', 'tel:+61855501234');
    await user.click(within(menu).getByRole('link', { name: 'Areas' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('floating call button and footer: legal links, payments, contact, ABN', () => {
    renderSite('/');
    expect(screen.getByRole('link', { name: 'Call now on 08 5550 1234' })).toHaveClass('pub-fab');
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(within(footer).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    const payments = within(footer).getByRole('list', { name: 'Accepted payment methods' });
    expect(
      within(payments)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Visa', 'Mastercard', 'Amex', 'EFTPOS', 'PayID', 'Cash', 'Zip', 'Klarna']);
    expect(within(footer).getByText('Pay in 4 with Zip and Klarna.')).toBeInTheDocument();
    expect(within(footer).getByText('ABN 12 345 678 901')).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: '08 5550 1234' })).toHaveAttribute(
      'href',
      'tel:+61855501234',
    );
  });

  test('without a configured phone there are no call links', () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/']}>
          <PublicSite
            business={{ name: 'Perth Mobile Tyres', phone: null, phoneDisplay: null }}
            homePath="/"
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.queryByRole('link', { name: /Call|Contact Us/ })).not.toBeInTheDocument();
  });
});

describe('other pages', () => {
  test('404 with the exact text, Back to Home, a call link and the hours', () => {
    renderSite('/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText(NOT_FOUND_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Call 08 5550 1234' })).toHaveAttribute(
      'href',
      'tel:+61855501234',
    );
    expect(screen.getByText('Open Monday to Friday, 8am–4pm')).toBeInTheDocument();
  });

  test('about: story, the four values, booking buttons, contact', () => {
    renderSite('/about');
    for (const value of ['Customer First', 'Quality Guaranteed', 'Convenience', 'Professional Service']) {
      expect(screen.getByRole('heading', { name: value })).toBeInTheDocument();
    }
    expect(screen.getByRole('heading', { name: 'Our story' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Home service' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Emergency roadside' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'What we do' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Book a Service' })).toBeInTheDocument();
  });

  test('terms: static text of spec section 1, last updated October 2024', async () => {
    renderSite('/terms');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument();
    expect(screen.getByText('Last updated: October 2024')).toBeInTheDocument();
    expect(
      screen.getByText(/platform that connects customers with independent service providers/),
    ).toBeInTheDocument();
    expect(
      screen.getByText('These terms are governed by the laws of Western Australia.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Quotes are valid for 7 days.')).toBeInTheDocument();
    expect(screen.getByText('All prices are in Australian dollars and include GST.')).toBeInTheDocument();
    expect(screen.getByText('Cancel 24 hours or more before your booking: full refund.')).toBeInTheDocument();
    expect(
      screen.getByText('Cancel between 12 and 24 hours before your booking: 50% refund.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Cancel less than 12 hours before your booking: no refund.')).toBeInTheDocument();
    expect(screen.getByText(/a no-show\), the booking is charged in full/)).toBeInTheDocument();
    expect(
      screen.getByText('Prepaid bookings are non-refundable once the work has been completed.'),
    ).toBeInTheDocument();
  });

  test('privacy: static text, last updated November 2026 (issue 18: erasure, retention)', async () => {
    renderSite('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    expect(screen.getByText('Last updated: November 2026')).toBeInTheDocument();
    const erasure = screen.getByRole('region', { name: 'Erasing your information' });
    expect(erasure).toHaveTextContent('ask us to erase your personal information');
    expect(erasure).toHaveTextContent('We keep your invoices for five years');
    expect(erasure).toHaveTextContent('"Erased customer"');
    expect(
      screen.getByText(/Photos you upload are deleted 12 months after the job is paid/),
    ).toBeInTheDocument();
  });

  test.each(['/suburb/rockingham', '/mobile-tyres-rockingham'])(
    '%s: services, coverage with postcode, region and response time, FAQ, payments',
    (path) => {
      renderSite(path);
      expect(screen.getByRole('heading', { level: 1, name: 'Mobile Tyres Rockingham' })).toBeInTheDocument();
      const coverage = screen.getByRole('region', { name: 'Coverage' });
      expect(within(coverage).getByText('6168')).toBeInTheDocument();
      expect(within(coverage).getByText('Perth Metro')).toBeInTheDocument();
      expect(within(coverage).getByText('30-60 mins')).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Frequently asked questions' })).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Payment methods' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Book in Rockingham' })).toBeInTheDocument();
    },
  );

  test('a suburb that is not prerendered is looked up; unknown ones say "Service Area Not Found"', async () => {
    const { calls } = stubFetch({
      'GET /api/suburbs/mobile-tyres-kwinana': {
        json: {
          suburb: 'Kwinana',
          postcode: '6167',
          region: 'Perth Metro',
          metaTitle: 'Mobile Tyres Kwinana',
        },
      },
    });
    const { unmount } = renderSite('/mobile-tyres-kwinana');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Mobile Tyres Kwinana' }),
    ).toBeInTheDocument();
    unmount();

    renderSite('/suburb/atlantis');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Service Area Not Found' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check Service Availability' })).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toContain('/api/suburbs/mobile-tyres-atlantis');
  });
});

describe('prices in the copy follow the price list in force (issue 19: GET /api/pricing)', () => {
  test('about and landing pages show the fees an admin set, after the prerendered ones', async () => {
    stubFetch({
      'GET /api/pricing': {
        json: { calloutFee: '99.80', punctureRepair: '45.00', prepaidDiscount: '20.00' },
      },
    });
    const { unmount } = renderSite('/about');
    expect(await screen.findByText(/Emergency roadside callouts \(\$99\.80\)/)).toBeInTheDocument();
    expect(screen.getByText(/Puncture repairs \(\$45\)/)).toBeInTheDocument();
    expect(
      screen.getByText('All prices include GST. Prepay online when you book and save $20.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/pay online \(and save \$20\)/)).toBeInTheDocument();
    expect(screen.queryByText(/\$89\.80|save \$30/)).toBeNull();
    unmount();
    renderSite('/');
    expect(await screen.findByText(/Prepay online and save \$20\./)).toBeInTheDocument();
  });

  test('when the price list cannot be read the prerendered (code) prices stay', async () => {
    const { calls } = stubFetch({ 'GET /api/pricing': { status: 503, json: { message: 'down' } } });
    renderSite('/about');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/pricing')).toBe(true));
    expect(screen.getByText(/Emergency roadside callouts \(\$89\.80\)/)).toBeInTheDocument();
    expect(
      screen.getByText('All prices include GST. Prepay online when you book and save $30.'),
    ).toBeInTheDocument();
  });
});

describe('the card surcharge in the terms is the rate in force (issue 19: GET /api/payments/config)', () => {
  const payment = (text: string) =>
    screen.getByText((_, el) => el?.tagName === 'P' && el.textContent === text);
  const sentence = (rate: string) =>
    `You can prepay online by card when you book, or pay on site. A card surcharge of ${rate} applies to card ` +
    'payments made online. Card payments are processed by our payment provider; we never see or store your full ' +
    'card number.';

  test("first the build's rate (what the prerendered page says), then the rate billing charges now", async () => {
    stubFetch({
      'GET /api/payments/config': { json: { mode: 'test', testMode: true, surchargeRate: '0.0125' } },
    });
    renderSite('/terms');
    expect(payment(sentence('1.7%'))).toBeInTheDocument();
    await waitFor(() => expect(payment(sentence('1.25%'))).toBeInTheDocument());
    expect(screen.queryByText(/1\.7%/)).toBeNull();
  });

  test('when billing cannot be asked the prerendered rate stays', async () => {
    const { calls } = stubFetch({ 'GET /api/payments/config': { status: 503, json: { message: 'down' } } });
    renderSite('/terms');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/payments/config')).toBe(true));
    expect(payment(sentence('1.7%'))).toBeInTheDocument();
  });
});

import { startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;

beforeAll(async () => {
  app = await startTestBooking('booking-catalogue');
});
afterAll(async () => {
  await app?.stop();
});

describe('tyre pricing', () => {
  it('GET /api/tyre-pricing/{size}: the price of a size (URL-encoded or not)', async () => {
    for (const path of [
      '/api/tyre-pricing/205%2F55R16',
      '/api/tyre-pricing/205/55R16',
      '/api/tyre-pricing/205%2F55%20R16',
    ]) {
      const res = await app.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ price: '159.00' });
    }
    expect((await app.request('GET', '/api/tyre-pricing/175%2F65R14')).body.price).toBe('139.00');
    expect((await app.request('GET', '/api/tyre-pricing/205%2F55R16?brand=michelin')).body).toMatchObject({
      price: '239.00',
      brand: 'Michelin',
    });
  });

  it('an unknown size is 404 with the callback error object', async () => {
    for (const path of ['/api/tyre-pricing/123%2F45R67', '/api/tyre-pricing/not-a-size']) {
      const res = await app.request('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: 'Custom quote needed',
        message: 'Please call for a quote on this tyre size',
        callbackRequired: true,
      });
    }
  });

  it('the seeded catalogue has 30+ sizes and several brands', async () => {
    const { rows } = await app.pg.query(
      `SELECT count(DISTINCT size)::int AS sizes, count(DISTINCT brand)::int AS brands, min(retail_price)::text AS cheapest FROM booking.tyre_stock_pricing WHERE is_active`,
    );
    expect(rows[0].sizes).toBeGreaterThanOrEqual(30);
    expect(rows[0].brands).toBeGreaterThanOrEqual(5);
    expect(rows[0].cheapest).toBe('139.00');
  });
});

describe('POST /api/pricing/quote (every service, both payment methods)', () => {
  // Prices include GST: each quote's gst is its total ÷ 11, half-up to the cent (issue 12; was 10% of the total).
  const quote = (body: object) => app.request('POST', '/api/pricing/quote', body);

  it.each([
    [
      { serviceType: 'new-tyres', tyreSize: '205/55R16', quantity: 4, prepaid: false },
      { subtotal: '885.80', discount: '0.00', total: '885.80', gst: '80.53' },
    ],
    [
      { serviceType: 'new-tyres', tyreSize: '205/55R16', quantity: 4, prepaid: true },
      { subtotal: '885.80', discount: '30.00', total: '855.80', gst: '77.80' },
    ],
    [
      { serviceType: 'new-tyres', tyreSize: '265/70R16', quantity: 1, prepaid: false },
      { subtotal: '404.80', total: '404.80', gst: '36.80' },
    ],
    [
      { serviceType: 'puncture-repair', prepaid: false },
      { subtotal: '129.80', discount: '0.00', total: '129.80', gst: '11.80' },
    ],
    [
      { serviceType: 'puncture-repair', prepaid: true },
      { subtotal: '129.80', discount: '30.00', total: '99.80', gst: '9.07' },
    ],
    [
      { serviceType: 'emergency-callout', prepaid: false },
      { subtotal: '89.80', total: '89.80', gst: '8.16' },
    ],
    [
      { serviceType: 'emergency-callout', prepaid: true },
      { subtotal: '89.80', discount: '30.00', total: '59.80', gst: '5.44' },
    ],
    [
      { serviceType: 'battery-service', prepaid: false },
      { subtotal: '0.00', discount: '0.00', total: '0.00', gst: '0.00' },
    ],
    [
      { serviceType: 'battery-service', prepaid: true },
      { subtotal: '0.00', discount: '0.00', total: '0.00', gst: '0.00' },
    ],
  ])('%j', async (body, expected) => {
    const res = await quote(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...expected, callbackRequired: false });
  });

  it('battery service is one line "Battery Service (Quote on site)" at 0', async () => {
    expect((await quote({ serviceType: 'battery-service' })).body.items).toEqual([
      { description: 'Battery Service (Quote on site)', price: '0.00' },
    ]);
  });

  it('an unknown tyre size needs a callback: everything zero', async () => {
    for (const body of [
      { serviceType: 'new-tyres', tyreSize: '123/45R67', quantity: 2, prepaid: true },
      { serviceType: 'new-tyres', quantity: 2 },
    ]) {
      expect((await quote(body)).body).toEqual({
        items: [],
        subtotal: '0.00',
        discount: '0.00',
        gst: '0.00',
        total: '0.00',
        callbackRequired: true,
        message: 'Please call for a quote on this tyre size',
      });
    }
  });

  it('validates its input', async () => {
    expect(await quote({ serviceType: 'tow-truck' })).toMatchObject({
      status: 400,
      body: { message: 'Please select a service' },
    });
    expect(await quote({ serviceType: 'new-tyres', tyreSize: '205/55R16', quantity: 7 })).toMatchObject({
      status: 400,
      body: { message: 'Quantity must be between 1 and 4' },
    });
  });

  it('GET /api/pricing lists the business constants', async () => {
    expect((await app.request('GET', '/api/pricing')).body).toMatchObject({
      calloutFee: '89.80',
      punctureRepair: '40.00',
      prepaidDiscount: '30.00',
      fittingPerTyre: '25.00',
      balancingPerTyre: '15.00',
      newTyresBasePrice: '139.00',
      gstPercent: 10,
    });
  });
});

describe('suburbs', () => {
  it('GET /api/suburbs: the 42 landing suburbs grouped by region', async () => {
    const res = await app.request('GET', '/api/suburbs');
    const groups = res.body as unknown as {
      region: string;
      suburbs: { suburb: string; postcode: string; slug: string }[];
    }[];
    expect(groups.map((g) => g.region)).toEqual(['Perth Metro', 'Peel Region', 'Hills & Extended']);
    expect(groups.reduce((n, g) => n + g.suburbs.length, 0)).toBe(42);
    expect(groups[1]!.suburbs[0]).toEqual({
      suburb: 'Mandurah',
      postcode: '6210',
      region: 'Peel Region',
      slug: 'mobile-tyres-mandurah',
    });
  });

  it('GET /api/suburbs/mobile-tyres-{suburb}: page data; unknown 404 "Service Area Not Found"', async () => {
    const page = await app.request('GET', '/api/suburbs/mobile-tyres-halls-head');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      suburb: 'Halls Head',
      postcode: '6210',
      region: 'Peel Region',
      slug: 'mobile-tyres-halls-head',
      metaTitle: expect.stringContaining('Halls Head'),
      metaDescription: expect.any(String),
      content: expect.any(String),
      responseTime: '30-60 mins',
    });
    expect((await app.request('GET', '/api/suburbs/mobile-tyres-Halls%20Head')).body.suburb).toBe(
      'Halls Head',
    );
    // A served suburb without a seeded landing page still gets a page.
    expect((await app.request('GET', '/api/suburbs/mobile-tyres-secret-harbour')).body).toMatchObject({
      postcode: '6173',
      region: 'Perth Metro',
    });
    const missing = await app.request('GET', '/api/suburbs/mobile-tyres-sydney');
    expect(missing).toMatchObject({ status: 404, body: { message: 'Service Area Not Found' } });
    expect((await app.request('GET', '/api/suburbs/halls-head')).status).toBe(404);
  });

  it('the gazetteer holds 350+ suburbs; search finds them by name or postcode', async () => {
    const { rows } = await app.pg.query(`SELECT count(*)::int AS n FROM booking.suburbs`);
    expect(rows[0].n).toBeGreaterThanOrEqual(350);
    expect((await app.request('GET', '/api/suburbs/search?q=6171')).body).toEqual([
      { name: 'Baldivis', postcode: '6171', region: 'Perth Metro' },
    ]);
    expect(
      ((await app.request('GET', '/api/suburbs/search?q=rocking')).body as { name: string }[]).map(
        (s) => s.name,
      ),
    ).toEqual(['Rockingham', 'East Rockingham']);
  });
});

describe('address suggestions (offline provider: no Google key in tests)', () => {
  it('3+ characters, at most 5, { streetAddress, fullAddress, suburb, postcode }', async () => {
    expect((await app.request('GET', '/api/addresses/suggestions?q=12')).body).toEqual([]);
    const res = await app.request(
      'GET',
      `/api/addresses/suggestions?q=${encodeURIComponent('12 Smith St, Mandurah')}`,
    );
    expect(res.body).toEqual([
      {
        streetAddress: '12 Smith St',
        fullAddress: '12 Smith St, Mandurah WA 6210',
        suburb: 'Mandurah',
        postcode: '6210',
      },
    ]);
    const many = await app.request(
      'GET',
      `/api/addresses/suggestions?q=${encodeURIComponent('1 Main Rd, 6210')}`,
    );
    expect(many.body).toHaveLength(5);
  });
});

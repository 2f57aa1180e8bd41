import { ADMIN, startHarness, type Harness } from './helpers';
import { addDays } from '@tyres/kernel';

jest.setTimeout(60_000);

describe('jobs: lists, filters, pagination and line items', () => {
  let h: Harness;
  let admin: string;
  const ids: string[] = []; // oldest first
  const dates: string[] = []; // each job's scheduled date, same order
  let techToken: string;

  beforeAll(async () => {
    h = await startHarness('jobs-lists');
    admin = h.token(ADMIN);
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < 7; i++) {
      const job = await h.createJob({ createdAt: new Date(base + i * 60_000).toISOString() });
      ids.push(job.jobId);
      dates.push(job.scheduledDate);
    }
    const tech = await h.createTechnician('tess');
    techToken = h.token(tech);
    const patch = (id: string, path: string, body: object) =>
      h.http.patch(`/api/dashboard/jobs/${id}/${path}`).set('x-identity-token', admin).send(body);
    // ids[0] completed, ids[1] in-progress (assigned), ids[2] assigned (confirmed), ids[3] paid, ids[4] cancelled.
    await patch(ids[0]!, 'status', { status: 'in-progress' });
    await patch(ids[0]!, 'status', { status: 'completed' });
    await patch(ids[1]!, 'assign', { technicianId: tech.id });
    await patch(ids[1]!, 'status', { status: 'in-progress' });
    await patch(ids[2]!, 'assign', { technicianId: tech.id });
    for (const status of ['in-progress', 'completed', 'invoiced', 'paid'])
      await patch(ids[3]!, 'status', { status });
    await patch(ids[4]!, 'status', { status: 'cancelled' });
  });
  afterAll(async () => {
    await h?.close();
  });

  const list = (query = '', path = '/api/dashboard/jobs-with-details') =>
    h.http.get(`${path}${query}`).set('x-identity-token', admin);
  const idsOf = (body: { id: string }[]) => body.map((j) => j.id);

  it('lists newest first with pagination headers', async () => {
    const all = await list();
    expect(all.status).toBe(200);
    expect(idsOf(all.body)).toEqual([...ids].reverse());
    expect(all.headers['x-total-count']).toBe('7');

    const page1 = await list('?pageSize=3');
    const page3 = await list('?pageSize=3&page=3');
    expect(idsOf(page1.body)).toEqual([ids[6], ids[5], ids[4]]);
    expect(idsOf(page3.body)).toEqual([ids[0]]);
    expect(page1.headers).toMatchObject({
      'x-total-count': '7',
      'x-page': '1',
      'x-page-size': '3',
      'x-total-pages': '3',
    });
    expect(page1.headers.link).toBe('</api/dashboard/jobs-with-details?pageSize=3&page=2>; rel="next"');
    expect(page3.headers.link).toContain('rel="prev"');
    expect((await list('?page=9')).body).toEqual([]);
    // Far past the end is still an empty page, not an error (OFFSET is a bigint).
    const far = await list('?page=1000000&pageSize=100');
    expect([far.status, far.body, far.headers['x-total-count']]).toEqual([200, [], '7']);
    expect(far.headers.link).toContain('rel="prev"');
  });

  it('filters by dashboard status', async () => {
    expect(idsOf((await list('?status=completed')).body)).toEqual([ids[0]]);
    expect(idsOf((await list('?status=in-progress')).body)).toEqual([ids[1]]);
    expect(idsOf((await list('?status=in_progress')).body)).toEqual([ids[1]]);
    expect(idsOf((await list('?status=paid', '/api/dashboard/jobs')).body)).toEqual([ids[3]]);
    expect(idsOf((await list('?status=cancelled')).body)).toEqual([ids[4]]);
    expect((await list('?status=all')).body).toHaveLength(7);
    const fresh = await list('?status=new');
    expect(idsOf(fresh.body)).toEqual([ids[6], ids[5], ids[2]]);
    expect(fresh.headers['x-total-count']).toBe('3');
  });

  it('filters by the schedule vocabulary', async () => {
    const q = async (s: string) => idsOf((await list(`?scheduleStatus=${s}`)).body);
    expect(await q('pending')).toEqual([ids[6], ids[5]]);
    expect(await q('confirmed')).toEqual([ids[2]]);
    expect(await q('in_progress')).toEqual([ids[1]]);
    expect(await q('completed')).toEqual([ids[3], ids[0]]);
    expect(await q('cancelled')).toEqual([ids[4]]);
    const detailed = (await list('?scheduleStatus=confirmed')).body[0];
    expect(detailed).toMatchObject({ scheduleStatus: 'confirmed', assignedTechnician: { username: 'tess' } });
  });

  it('list items and the job detail agree, and large pages are gzip-compressed for clients that accept it', async () => {
    const item = (await list('?scheduleStatus=confirmed')).body[0];
    const detail = (await h.http.get(`/api/dashboard/jobs/${ids[2]}`).set('x-identity-token', admin)).body;
    const { lineItems, ...withoutItems } = detail;
    expect(lineItems).toEqual([]);
    expect(item).toEqual(withoutItems);
    const plain = (await list('', '/api/dashboard/jobs')).body[0];
    expect(Object.keys(plain).every((k) => k in item)).toBe(true);

    const gz = await list('?pageSize=100').set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toContain('Accept-Encoding');
    expect(gz.body).toHaveLength(7);
    const identity = await list('?pageSize=100').set('Accept-Encoding', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toEqual(gz.body);
  });

  it('refuses bad list queries with 400', async () => {
    for (const query of [
      '?status=done',
      '?page=0',
      '?page=1000001',
      '?page=1e30',
      '?page=1.5',
      '?pageSize=500',
      '?pageSize=abc',
      '?scheduleStatus=late',
      '?status=new&scheduleStatus=pending',
      '?scheduledFrom=2026-12-01',
      '?scheduledTo=2026-12-01',
      '?scheduledFrom=2026-02-30&scheduledTo=2026-03-01',
      '?scheduledFrom=1/12/2026&scheduledTo=2026-12-07',
      '?scheduledFrom=2026-12-08&scheduledTo=2026-12-07',
      '?scheduledFrom=2026-12-01&scheduledTo=2027-02-01',
    ]) {
      const res = await list(query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });

  it('filters by scheduled date range (Perth dates, inclusive); technicians still see only their own', async () => {
    const first = dates[0]!;
    const last = dates[6]!;
    const expectIn = (from: string, to: string) =>
      ids.filter((_, i) => dates[i]! >= from && dates[i]! <= to).reverse();
    const range = (from: string, to: string, extra = '') =>
      `?scheduledFrom=${from}&scheduledTo=${to}${extra}`;
    expect(first < last).toBe(true); // the seeded jobs span more than one day

    const day = await list(range(first, first));
    expect(day.status).toBe(200);
    expect(idsOf(day.body)).toEqual(expectIn(first, first));
    expect(idsOf(day.body).length).toBeGreaterThan(0);
    expect(idsOf(day.body).length).toBeLessThan(7);
    expect(day.headers['x-total-count']).toBe(String(expectIn(first, first).length));
    expect((day.body as { scheduledDate: string }[]).every((j) => j.scheduledDate === first)).toBe(true);

    // Both ends inclusive; 62 days is the longest range; outside it nothing.
    expect(idsOf((await list(range(first, last))).body)).toEqual([...ids].reverse());
    expect((await list(range(addDays(last, -61), last))).status).toBe(200);
    const after = await list(range(addDays(last, 1), addDays(last, 7)));
    expect([after.status, after.body, after.headers['x-total-count']]).toEqual([200, [], '0']);

    // Paged within the range, with the other filters, on both list routes.
    const paged = await list(range(first, last, '&pageSize=2&page=2'));
    expect(idsOf(paged.body)).toEqual([ids[4], ids[3]]);
    expect(paged.headers['x-total-count']).toBe('7');
    expect(paged.headers.link).toContain(`scheduledFrom=${first}`);
    expect(idsOf((await list(range(first, last, '&status=cancelled'), '/api/dashboard/jobs')).body)).toEqual([
      ids[4],
    ]);

    // A technician gets only the jobs assigned to them (ids[1], ids[2]) in the range, never the others.
    const mine = await h.http
      .get(`/api/dashboard/jobs-with-details${range(first, last)}`)
      .set('x-identity-token', techToken);
    expect(mine.status).toBe(200);
    expect(idsOf(mine.body)).toEqual([ids[2], ids[1]]);
    expect(mine.headers['x-total-count']).toBe('2');
    const badTech = await h.http
      .get('/api/dashboard/jobs-with-details?scheduledFrom=2026-12-08&scheduledTo=2026-12-01')
      .set('x-identity-token', techToken);
    expect([badTech.status, badTech.body.message]).toEqual([
      400,
      'scheduledTo must not be before scheduledFrom',
    ]);
    // Unauthenticated: 401 whatever the query.
    expect((await h.http.get(`/api/dashboard/jobs-with-details${range(first, last)}`)).status).toBe(401);
  });

  it('stores job line items with exact totals and profit margin', async () => {
    const jobId = ids[6]!;
    const add = (body: object) =>
      h.http.post(`/api/dashboard/jobs/${jobId}/line-items`).set('x-identity-token', admin).send(body);
    const tyre = await add({
      type: 'product',
      category: 'tyre',
      description: 'Michelin 205/55R16',
      quantity: 4,
      unitCost: '89.95',
      unitPrice: 139,
    });
    expect(tyre.status).toBe(201);
    expect(tyre.body).toMatchObject({
      jobId,
      type: 'product',
      category: 'tyre',
      quantity: 4,
      unitCost: '89.95',
      totalCost: '359.80',
      unitPrice: '139.00',
      totalPrice: '556.00',
      profitMargin: '35.29',
    });
    const callout = await add({ description: 'Callout', category: 'callout', unitPrice: '89.80' });
    expect(callout.body).toMatchObject({
      type: 'item',
      quantity: 1,
      unitCost: '0.00',
      totalPrice: '89.80',
      profitMargin: '100.00',
    });
    const note = await add({ description: 'Note only', category: 'note', unitPrice: '0' });
    expect(note.body.profitMargin).toBeNull();

    const patched = await h.http
      .patch(`/api/dashboard/jobs/${jobId}/line-items/${tyre.body.id}`)
      .set('x-identity-token', admin)
      .send({ quantity: 2, unitCost: '150.00' });
    expect(patched.body).toMatchObject({ totalCost: '300.00', totalPrice: '278.00', profitMargin: '-7.91' });

    const detail = await h.http.get(`/api/dashboard/jobs/${jobId}`).set('x-identity-token', admin);
    expect(detail.body.lineItems.map((i: { description: string }) => i.description)).toEqual([
      'Michelin 205/55R16',
      'Callout',
      'Note only',
    ]);

    for (const [body, message] of [
      [{ description: '', unitPrice: '1.00' }, 'Please enter a description for the line item.'],
      [{ description: 'x', unitPrice: '1.005' }, 'Must be a valid decimal amount'],
      [{ description: 'x', unitPrice: 'abc' }, 'Must be a valid decimal amount'],
      [{ description: 'x', unitPrice: '1.00', quantity: 0 }, 'Quantity must be a whole number of at least 1'],
      [
        { description: 'x', unitPrice: '1.00', category: 'misc' },
        'Category must be one of callout, tyre, labour, battery, note',
      ],
    ] as const) {
      const res = await add(body);
      expect([res.status, res.body.message]).toEqual([400, message]);
    }

    const removed = await h.http
      .delete(`/api/dashboard/jobs/${jobId}/line-items/${note.body.id}`)
      .set('x-identity-token', admin);
    expect(removed.status).toBe(200);
    expect(
      (await h.http.get(`/api/dashboard/jobs/${jobId}/line-items`).set('x-identity-token', admin)).body,
    ).toHaveLength(2);
    const [stored] = await h.sql<{ profit_margin: string }>(
      'SELECT profit_margin::text FROM jobs.job_line_items WHERE id = $1',
      [tyre.body.id],
    );
    expect(stored?.profit_margin).toBe('-7.91');
  });

  it('the stored list documents and counts match the jobs (the triggers covered every change above)', async () => {
    expect(await h.runtime.repositories.jobs.staleDocuments()).toBe(0);
    expect(await h.runtime.repositories.jobs.wrongCounts()).toBe(0);
  });
});

import { randomUUID } from 'node:crypto';
import { BookingPhotoAdded } from '@tyres/events';
import { signIdentity, type Identity } from '@tyres/service-kit';
import { waitFor } from '@tyres/testkit';
import { ADMIN, identityKeys, nextFreeSlot, startHarness, type Harness } from './helpers';

jest.setTimeout(60_000);

/** Technicians see and change only the jobs assigned to them, on every route; everything else is 404. */
describe('jobs: technician scoping', () => {
  let h: Harness;
  let admin: string;
  let tina: Identity;
  let tom: Identity;
  let mine: string; // assigned to tina
  let theirs: string; // assigned to tom
  let unassigned: string;
  let theirsItem: string;

  beforeAll(async () => {
    h = await startHarness('jobs-scoping');
    admin = h.token(ADMIN);
    tina = await h.createTechnician('tina');
    tom = await h.createTechnician('tom');
    const assign = (jobId: string, technicianId: string) =>
      h.http
        .patch(`/api/dashboard/jobs/${jobId}/assign`)
        .set('x-identity-token', admin)
        .send({ technicianId });
    mine = (await h.createJob()).jobId;
    theirs = (await h.createJob()).jobId;
    unassigned = (await h.createJob()).jobId;
    expect((await assign(mine, tina.id)).status).toBe(200);
    expect((await assign(theirs, tom.id)).status).toBe(200);
    for (const jobId of [mine, theirs]) {
      const photoId = randomUUID();
      await h.publish(BookingPhotoAdded, {
        jobId,
        photoId,
        type: 'tyre-condition',
        filename: `${photoId}.jpg`,
        originalName: `${jobId === mine ? 'mine' : 'theirs'}.jpg`,
        mimeType: 'image/jpeg',
        size: 100,
        uploadedAt: new Date().toISOString(),
      });
    }
    await waitFor(async () => (await h.sql('SELECT 1 FROM jobs.job_photos')).length === 2, {
      timeoutMs: 10_000,
    });
    const item = await h.http
      .post(`/api/dashboard/jobs/${theirs}/line-items`)
      .set('x-identity-token', admin)
      .send({ description: 'Tyre', category: 'tyre', quantity: 2, unitCost: '80.00', unitPrice: '139.00' });
    expect(item.status).toBe(201);
    theirsItem = item.body.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (identity: Identity) => h.token(identity);

  /** Every route of the service, aimed at one job. */
  const routes = (jobId: string, itemId: string = randomUUID()) => [
    {
      name: 'GET job',
      send: (t: string) => h.http.get(`/api/dashboard/jobs/${jobId}`).set('x-identity-token', t),
    },
    {
      name: 'PATCH status',
      send: (t: string) =>
        h.http
          .patch(`/api/dashboard/jobs/${jobId}/status`)
          .set('x-identity-token', t)
          .send({ status: 'in-progress' }),
    },
    {
      name: 'PATCH status cancelled',
      send: (t: string) =>
        h.http
          .patch(`/api/dashboard/jobs/${jobId}/status`)
          .set('x-identity-token', t)
          .send({ status: 'cancelled' }),
    },
    {
      name: 'PATCH assign',
      send: (t: string) =>
        h.http
          .patch(`/api/dashboard/jobs/${jobId}/assign`)
          .set('x-identity-token', t)
          .send({ technicianId: tina.id }),
    },
    {
      name: 'PUT reschedule',
      send: (t: string) =>
        h.http.put(`/api/dashboard/jobs/${jobId}/reschedule`).set('x-identity-token', t).send(nextFreeSlot()),
    },
    {
      name: 'DELETE job',
      send: (t: string) => h.http.delete(`/api/dashboard/jobs/${jobId}`).set('x-identity-token', t),
    },
    {
      name: 'GET line items',
      send: (t: string) => h.http.get(`/api/dashboard/jobs/${jobId}/line-items`).set('x-identity-token', t),
    },
    {
      name: 'POST line item',
      send: (t: string) =>
        h.http
          .post(`/api/dashboard/jobs/${jobId}/line-items`)
          .set('x-identity-token', t)
          .send({ description: 'x', unitPrice: '1.00' }),
    },
    {
      name: 'PATCH line item',
      send: (t: string) =>
        h.http
          .patch(`/api/dashboard/jobs/${jobId}/line-items/${itemId}`)
          .set('x-identity-token', t)
          .send({ description: 'y' }),
    },
    {
      name: 'DELETE line item',
      send: (t: string) =>
        h.http.delete(`/api/dashboard/jobs/${jobId}/line-items/${itemId}`).set('x-identity-token', t),
    },
  ];

  it.each([
    ['assigned to someone else', () => theirs],
    ['unassigned', () => unassigned],
    ['that does not exist', () => randomUUID()],
  ])('a technician gets 404 on every route for a job %s, and nothing changes', async (_label, pick) => {
    const jobId = pick();
    const callsBefore = h.booking.calls.length;
    const outboxBefore = await h.outboxTypes();
    for (const route of routes(jobId, theirsItem)) {
      const res = await route.send(as(tina));
      expect([route.name, res.status, res.body.message]).toEqual([route.name, 404, 'Job not found']);
    }
    expect(h.booking.calls.length).toBe(callsBefore);
    expect(await h.outboxTypes()).toEqual(outboxBefore);
    if (jobId === theirs) {
      const stored = (await h.http.get(`/api/dashboard/jobs/${theirs}`).set('x-identity-token', admin)).body;
      expect(stored).toMatchObject({ status: 'new', assignedTechnicianId: tom.id });
      expect(stored.lineItems).toHaveLength(1);
    }
  });

  it('a technician works their own job but cannot assign, reschedule, cancel, delete or edit line items (403)', async () => {
    const t = as(tina);
    const own = routes(mine);
    const byName = Object.fromEntries(own.map((r) => [r.name, r.send]));
    const detail = await byName['GET job']!(t);
    expect(detail.status).toBe(200);
    expect(detail.body.photos).toEqual([
      { id: expect.any(String), type: 'tyre-condition', originalName: 'mine.jpg' },
    ]);
    expect((await byName['GET line items']!(t)).status).toBe(200);
    for (const name of [
      'PATCH assign',
      'PUT reschedule',
      'PATCH status cancelled',
      'DELETE job',
      'POST line item',
      'PATCH line item',
      'DELETE line item',
    ]) {
      const res = await byName[name]!(t);
      expect([name, res.status]).toEqual([name, 403]);
    }
    const started = await byName['PATCH status']!(t);
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('in-progress');
  });

  it('lists only their own jobs, whatever the filters say', async () => {
    for (const path of [
      '/api/dashboard/jobs',
      '/api/dashboard/jobs-with-details',
      '/api/dashboard/jobs?status=new',
      '/api/dashboard/jobs-with-details?scheduleStatus=pending',
      '/api/dashboard/jobs-with-details?pageSize=100&page=1',
    ]) {
      const res = await h.http.get(path).set('x-identity-token', as(tina));
      expect(res.status).toBe(200);
      for (const job of res.body as {
        id: string;
        assignedTechnicianId: string;
        photos: { originalName: string }[];
      }[]) {
        expect([path, job.assignedTechnicianId]).toEqual([path, tina.id]);
        expect(job.photos.map((p) => p.originalName)).not.toContain('theirs.jpg');
      }
      expect(res.body.map((j: { id: string }) => j.id)).not.toContain(theirs);
      expect(res.body.map((j: { id: string }) => j.id)).not.toContain(unassigned);
    }
    const all = await h.http.get('/api/dashboard/jobs-with-details').set('x-identity-token', as(tina));
    expect(all.body.map((j: { id: string }) => j.id)).toEqual([mine]);
    expect(all.headers['x-total-count']).toBe('1');

    // The admin sees everything.
    const adminList = await h.http.get('/api/dashboard/jobs').set('x-identity-token', admin);
    expect(adminList.body.map((j: { id: string }) => j.id)).toEqual(
      expect.arrayContaining([mine, theirs, unassigned]),
    );
  });

  it('technician job lists: their own only', async () => {
    const own = await h.http
      .get(`/api/dashboard/technicians/${tina.id}/jobs`)
      .set('x-identity-token', as(tina));
    expect(own.status).toBe(200);
    expect(own.body.map((j: { id: string }) => j.id)).toEqual([mine]);
    const other = await h.http
      .get(`/api/dashboard/technicians/${tom.id}/jobs`)
      .set('x-identity-token', as(tina));
    expect(other.status).toBe(404);
    const byAdmin = await h.http
      .get(`/api/dashboard/technicians/${tom.id}/jobs`)
      .set('x-identity-token', admin);
    expect(byAdmin.body.map((j: { id: string }) => j.id)).toEqual([theirs]);
    const directory = await h.http.get('/api/dashboard/technicians').set('x-identity-token', as(tina));
    expect(directory.body.map((t: { id: string }) => t.id)).toEqual([tina.id]);
  });

  it('needs a gateway-signed identity', async () => {
    expect((await h.http.get('/api/dashboard/jobs')).status).toBe(401);
    expect((await h.http.get(`/api/dashboard/jobs/${mine}`)).status).toBe(401);
    const forged = signIdentity(identityKeys().privateKey, { ...tina, role: 'admin' });
    expect((await h.http.get('/api/dashboard/jobs').set('x-identity-token', forged)).status).toBe(401);
    expect((await h.http.get('/api/dashboard/technicians').set('x-identity-token', 'garbage')).status).toBe(
      401,
    );
  });

  it('the stored list documents and counts match the jobs (the triggers covered every change above)', async () => {
    expect(await h.runtime.repositories.jobs.staleDocuments()).toBe(0);
    expect(await h.runtime.repositories.jobs.wrongCounts()).toBe(0);
  });
});

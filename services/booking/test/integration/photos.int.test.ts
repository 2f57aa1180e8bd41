import { randomUUID } from 'node:crypto';
import { JobAssigned, PaymentSucceeded } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-08-04');
const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'];
let used = 0;
let day = '';
/** Every booking of this suite gets its own (date, slot). */
const nextSlot = () => {
  if (used % SLOTS.length === 0) day = nextDay();
  return { date: day, slot: SLOTS[used++ % SLOTS.length]! };
};

beforeAll(async () => {
  app = await startTestBooking('booking-photos');
});
afterAll(async () => {
  await app?.stop();
});
afterEach(() => app.clock.reset());

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(200, 7),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 1)]);
const WEBP = Buffer.concat([Buffer.from('RIFF\x00\x01\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(100, 2)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(100, 3)]);

async function book(over: Parameters<typeof bookingBody>[2] = {}, path = '/api/bookings') {
  const s = nextSlot();
  const res = await app.request('POST', path, bookingBody(s.date, s.slot, over));
  expect(res.status).toBe(201);
  return res.body as unknown as { jobId: string; jobNumber: string; quoteId?: string; amount?: string };
}

async function upload(
  jobId: string,
  files: { data: Buffer; name: string; type?: string }[],
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const f of files)
    form.append(
      'photos',
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }),
      f.name,
    );
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${app.url}/api/bookings/${jobId}/photos`, { method: 'POST', body: form });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { photos?: { id: string; mimeType: string }[] },
  };
}

const photoCount = async (jobId: string) =>
  (await app.pg.query(`SELECT count(*)::int AS n FROM booking.job_photos WHERE job_id = $1`, [jobId])).rows[0]
    .n as number;

describe('POST /api/bookings/{jobId}/photos', () => {
  it('stores jpeg, png and webp (type decided by content) and emits BookingPhotoAdded with metadata only', async () => {
    const { jobId } = await book();
    const res = await upload(
      jobId,
      [
        { data: JPEG, name: 'front-left.jpg', type: 'image/jpeg' },
        { data: PNG, name: 'tread.txt', type: 'text/plain' },
        { data: WEBP, name: 'sidewall', type: 'image/webp' },
      ],
      { type: 'tyre-condition' },
    );
    expect(res.status).toBe(201);
    expect(res.body.photos!.map((p) => p.mimeType)).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    expect(res.body.photos![1]).toMatchObject({
      type: 'tyre-condition',
      originalName: 'tread.txt',
      size: PNG.length,
      jobId,
    });
    const event = await app.events.waitFor(
      'booking.photo-added.v1',
      (d: { photoId: string }) => d.photoId === res.body.photos![1]!.id,
    );
    expect(event.data).toEqual({
      jobId,
      photoId: res.body.photos![1]!.id,
      type: 'tyre-condition',
      filename: `${res.body.photos![1]!.id}.png`,
      originalName: 'tread.txt',
      mimeType: 'image/png',
      size: PNG.length,
      uploadedAt: expect.any(String),
    });
  });

  it('rejects other types by content whatever the name or Content-Type says', async () => {
    const { jobId } = await book();
    const res = await upload(jobId, [{ data: GIF, name: 'tyre.jpg', type: 'image/jpeg' }]);
    expect(res).toEqual({
      status: 400,
      body: {
        error: 'Invalid file type',
        message: 'Please upload jpeg, png, webp files only.',
        code: 'invalid_file_type',
      },
    });
    const svg = await upload(jobId, [
      { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), name: 'x.png', type: 'image/png' },
    ]);
    expect(svg.status).toBe(400);
    const empty = await upload(jobId, [{ data: Buffer.alloc(0), name: 'empty.jpg', type: 'image/jpeg' }]);
    expect(empty.status).toBe(400);
    // A bad file fails the batch: nothing of it is stored.
    const mixed = await upload(jobId, [
      { data: PNG, name: 'ok.png' },
      { data: GIF, name: 'bad.gif' },
    ]);
    expect(mixed.status).toBe(400);
    expect(await photoCount(jobId)).toBe(0);
  });

  it('rejects a file over 5 MB while it streams, accepts exactly 5 MB', async () => {
    const { jobId } = await book();
    const big = Buffer.concat([JPEG.subarray(0, 4), Buffer.alloc(5 * 1024 * 1024 + 1 - 4, 9)]);
    const res = await upload(jobId, [{ data: big, name: 'big.jpg', type: 'image/jpeg' }]);
    expect(res).toEqual({
      status: 400,
      body: { error: 'File too large', message: 'File size must be less than 5MB.', code: 'file_too_large' },
    });
    const edge = await upload(jobId, [{ data: big.subarray(0, 5 * 1024 * 1024), name: 'edge.jpg' }]);
    expect(edge.status).toBe(201);
  });

  it('allows 5 photos per booking (3 when the tyre size is unknown); a batch over the limit is refused whole', async () => {
    const { jobId } = await book();
    const six = Array.from({ length: 6 }, (_, i) => ({ data: PNG, name: `p${i}.png` }));
    expect(await upload(jobId, six)).toEqual({
      status: 400,
      body: { error: 'Too many files', message: 'Maximum 5 files allowed.', code: 'too_many_files' },
    });
    expect((await upload(jobId, six.slice(0, 3))).status).toBe(201);
    expect((await upload(jobId, six.slice(0, 3))).body.message).toBe('Maximum 5 files allowed.');
    expect(await photoCount(jobId)).toBe(3);
    expect((await upload(jobId, six.slice(0, 2))).status).toBe(201);
    expect((await upload(jobId, six.slice(0, 1))).body.message).toBe('Maximum 5 files allowed.');

    const unknownSize = await book({ job: { serviceType: 'puncture-repair' } });
    expect((await upload(unknownSize.jobId, six.slice(0, 4))).body.message).toBe('Maximum 3 files allowed.');
    expect((await upload(unknownSize.jobId, six.slice(0, 3))).status).toBe(201);
  });

  it('only within an hour of the booking, only for known bookings, only tyre-condition photos', async () => {
    const { jobId } = await book();
    expect((await upload(jobId, [{ data: PNG, name: 'a.png' }], { type: 'selfie' })).status).toBe(400);
    expect((await upload(jobId, [])).body.message).toBe('Please choose at least one photo to upload.');
    app.clock.advance(61 * 60_000);
    const late = await upload(jobId, [{ data: PNG, name: 'a.png' }]);
    expect(late.status).toBe(403);
    expect((await upload(randomUUID(), [{ data: PNG, name: 'a.png' }])).status).toBe(404);
    expect((await upload('not-a-uuid', [{ data: PNG, name: 'a.png' }])).status).toBe(404);
    // A prepaid quote whose 30-minute hold ran out takes no photos (its checkout is gone too).
    app.clock.reset();
    const quote = await book({ job: { paymentMethod: 'prepaid' } }, '/api/bookings/quote');
    app.clock.advance(31 * 60_000);
    expect((await upload(quote.jobId, [{ data: PNG, name: 'a.png' }])).status).toBe(404);
    const notMultipart = await app.request('POST', `/api/bookings/${jobId}/photos`, { photos: [] });
    expect(notMultipart.status).toBeGreaterThanOrEqual(400);
    expect(notMultipart.status).toBeLessThan(500);
  });

  it('a prepaid quote takes photos; BookingPhotoAdded follows BookingCreated once paid', async () => {
    const q = await book({ job: { paymentMethod: 'prepaid' } }, '/api/bookings/quote');
    const res = await upload(q.jobId, [{ data: PNG, name: 'a.png' }]);
    expect(res.status).toBe(201);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      app.events.of('booking.photo-added.v1', (d: { jobId: string }) => d.jobId === q.jobId),
    ).toHaveLength(0);
    await app.publish(PaymentSucceeded, {
      paymentId: randomUUID(),
      paymentIntentId: 'pi_test_1',
      quoteId: q.quoteId!,
      jobId: null,
      originalAmount: q.amount!,
      surchargeAmount: '0.00',
      amount: q.amount!,
      currency: 'AUD',
      mode: 'test',
      succeededAt: new Date().toISOString(),
    });
    await app.events.waitFor('booking.photo-added.v1', (d: { jobId: string }) => d.jobId === q.jobId);
    const types = app.events.seen
      .filter((e) => (e.data as { jobId?: string }).jobId === q.jobId)
      .map((e) => e.type);
    expect(types.indexOf('booking.created.v1')).toBeLessThan(types.indexOf('booking.photo-added.v1'));
  });
});

describe('GET /api/dashboard/jobs/{jobId}/photos/{photoId}', () => {
  it('streams the image to admins and to the assigned technician only', async () => {
    const { jobId } = await book();
    const up = await upload(jobId, [{ data: PNG, name: 'a.png' }]);
    const photoId = up.body.photos![0]!.id;
    const path = `/api/dashboard/jobs/${jobId}/photos/${photoId}`;

    const asAdmin = await fetch(app.url + path, { headers: app.identity('admin') });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await asAdmin.arrayBuffer()).equals(PNG)).toBe(true);

    const tech = randomUUID();
    const other = randomUUID();
    expect((await app.request('GET', path, undefined, app.identity('technician', tech))).status).toBe(404);
    await app.publish(JobAssigned, {
      jobId,
      jobNumber: 'JOB-000001',
      technicianId: tech,
      previousTechnicianId: null,
      scheduledDate: '2031-08-04',
      timeSlot: '8-10 AM',
      assignedBy: randomUUID(),
      assignedAt: new Date().toISOString(),
    });
    await waitFor(
      async () => (await fetch(app.url + path, { headers: app.identity('technician', tech) })).status === 200,
    );
    expect((await app.request('GET', path, undefined, app.identity('technician', other))).status).toBe(404);
    // An older assignment arriving late does not take the job away.
    await app.publish(JobAssigned, {
      jobId,
      jobNumber: 'JOB-000001',
      technicianId: other,
      previousTechnicianId: null,
      scheduledDate: '2031-08-04',
      timeSlot: '8-10 AM',
      assignedBy: randomUUID(),
      assignedAt: new Date(Date.now() - 3600_000).toISOString(),
    });
    await waitFor(
      async () =>
        (
          await app.pg.query(
            `SELECT count(*)::int AS n FROM booking.inbox_events WHERE handler = 'booking.recordJobAssignment'`,
          )
        ).rows[0].n === 2,
    );
    expect((await fetch(app.url + path, { headers: app.identity('technician', tech) })).status).toBe(200);

    expect((await app.request('GET', path)).status).toBe(401);
    expect(
      (
        await app.request(
          'GET',
          `/api/dashboard/jobs/${jobId}/photos/${randomUUID()}`,
          undefined,
          app.identity('admin'),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await app.request(
          'GET',
          `/api/dashboard/jobs/${randomUUID()}/photos/${photoId}`,
          undefined,
          app.identity('admin'),
        )
      ).status,
    ).toBe(404);
  });
});

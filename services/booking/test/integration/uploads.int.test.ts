/**
 * Issue 14 items 1 and 2 against the real service (Postgres storage, real sockets, and the real gateway in front):
 * photos go to storage in chunks and come back byte for byte; refused uploads are answered 400 after their body,
 * so nothing in between resets (10 concurrent 20 MB uploads: no 502); a body cut short or a client that hangs up
 * mid-file never takes booking down or leaves part of a photo behind.
 */
import http from 'node:http';
import { pgExecutor } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { startTestGateway, type GatewayUnderTest } from '../../../gateway/test/integration/harness';
import { PhotoChunks, PHOTO_CHUNK_BYTES } from '../../src/db/photo-chunks';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(120_000);

const MB = 1024 * 1024;
const nextDay = businessDays('2031-11-03');
const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'];
let used = 0;
let day = '';

let app: BookingUnderTest;
beforeAll(async () => {
  app = await startTestBooking('booking-uploads');
});
afterAll(async () => {
  await app?.stop();
});

async function book(): Promise<string> {
  if (used % SLOTS.length === 0) day = nextDay();
  const res = await app.request('POST', '/api/bookings', bookingBody(day, SLOTS[used++ % SLOTS.length]!));
  expect(res.status).toBe(201);
  return (res.body as unknown as { jobId: string }).jobId;
}

/** A jpeg of `size` bytes whose content identifies it. */
const jpeg = (size: number, seed: number) => {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) data.writeUInt32BE((i * 2654435761 + seed) >>> 0, Math.min(i, size - 4));
  data.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return data;
};

function multipart(files: Buffer[], boundary = `----upload${Date.now()}`) {
  const parts: Buffer[] = [];
  files.forEach((data, i) =>
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="tyre-${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      data,
      Buffer.from('\r\n'),
    ),
  );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Sent {
  status?: number;
  body?: Record<string, unknown> & { photos?: { id: string; size: number }[] };
  error?: string;
}

/** Sends the whole body as a proxy piping an upload does (whatever is answered meanwhile), then reads the answer. */
function post(
  base: string,
  path: string,
  body: Buffer,
  contentType: string,
  opts: { agent?: http.Agent; hangUpAfter?: number } = {},
): Promise<Sent> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const out: Sent = {};
    const req = http.request({
      hostname: url.hostname,
      port: url.port,
      method: 'POST',
      path,
      agent: opts.agent ?? false,
      headers: { 'content-type': contentType, 'content-length': String(body.length) },
    });
    req.on('error', (err) => resolve({ ...out, error: (err as NodeJS.ErrnoException).code ?? err.message }));
    req.on('response', (res) => {
      out.status = res.statusCode;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          out.body = JSON.parse(text) as Sent['body'];
        } catch {
          out.body = { text };
        }
        resolve(out);
      });
    });
    const end = opts.hangUpAfter ?? body.length;
    let at = 0;
    const pump = () => {
      while (at < end) {
        const next = body.subarray(at, Math.min(end, at + 64 * 1024));
        at += next.length;
        if (!req.write(next)) return void req.once('drain', pump);
      }
      if (opts.hangUpAfter === undefined) req.end();
      else setTimeout(() => req.destroy(), 200);
    };
    pump();
  });
}

const count = async (sql: string, params: unknown[] = []) =>
  (await app.pg.query(sql, params)).rows[0].n as number;
const photosOf = (jobId: string) =>
  count(`SELECT count(*)::int AS n FROM booking.job_photos WHERE job_id = $1`, [jobId]);
/** Chunks and upload markers that belong to no accepted photo. */
const leftovers = async () =>
  (await count(`SELECT count(*)::int AS n FROM booking.photo_uploads`)) +
  (await count(
    `SELECT count(*)::int AS n FROM booking.photo_chunks c
      WHERE NOT EXISTS (SELECT 1 FROM booking.job_photos p WHERE p.id = c.photo_id)`,
  ));
const bookingAnswers = async () => (await app.request('GET', '/api/pricing')).status === 200;

describe('photos are stored in chunks and read back the same way', () => {
  it('5 photos of 5 MB, in chunks, and the dashboard gets every byte back', async () => {
    const jobId = await book();
    const files = [0, 1, 2, 3, 4].map((seed) => jpeg(5 * MB, seed));
    const { body, contentType } = multipart(files);
    const res = await post(app.url, `/api/bookings/${jobId}/photos`, body, contentType);
    expect(res.status).toBe(201);
    expect(res.body!.photos!.map((p) => p.size)).toEqual(Array(5).fill(5 * MB));
    for (const [i, photo] of res.body!.photos!.entries()) {
      expect(
        await count(`SELECT count(*)::int AS n FROM booking.photo_chunks WHERE photo_id = $1`, [photo.id]),
      ).toBe((5 * MB) / PHOTO_CHUNK_BYTES);
      const download = await fetch(`${app.url}/api/dashboard/jobs/${jobId}/photos/${photo.id}`, {
        headers: app.identity('admin'),
      });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-length')).toBe(String(5 * MB));
      expect(Buffer.from(await download.arrayBuffer()).equals(files[i]!)).toBe(true);
    }
    expect(await leftovers()).toBe(0);
  });
});

describe('uploads that stop half-way (the fuzz suite took booking down with these)', () => {
  it('a multipart body cut short in a file is a 400; booking keeps answering; nothing is kept', async () => {
    const jobId = await book();
    const boundary = '----fuzz1';
    const full = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ntyre-condition\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="tyre.png"\r\nContent-Type: image/png\r\n\r\n` +
        `not an image at all\r\n--${boundary}--\r\n`,
    );
    const truncated = await post(
      app.url,
      `/api/bookings/${jobId}/photos`,
      full.subarray(0, full.length - 20),
      `multipart/form-data; boundary=${boundary}`,
    );
    expect(truncated.status).toBe(400);
    // A valid photo cut short after 2 MB of its 5.
    const { body, contentType } = multipart([jpeg(5 * MB, 7)]);
    const cut = await post(app.url, `/api/bookings/${jobId}/photos`, body.subarray(0, 2 * MB), contentType);
    expect(cut.body).toEqual({
      message: 'The upload was malformed or interrupted. Please try again.',
      code: 'malformed_upload',
    });
    expect(await bookingAnswers()).toBe(true);
    expect(await photosOf(jobId)).toBe(0);
    expect(await leftovers()).toBe(0);
  });

  it('a client that hangs up in the middle of a file: booking keeps answering, no half-written photo', async () => {
    const jobId = await book();
    const { body, contentType } = multipart([jpeg(5 * MB, 1), jpeg(5 * MB, 2)]);
    const gone = await post(app.url, `/api/bookings/${jobId}/photos`, body, contentType, {
      hangUpAfter: 7 * MB,
    });
    expect(gone.status).toBeUndefined();
    expect(await bookingAnswers()).toBe(true);
    await waitFor(async () => (await leftovers()) === 0, { timeoutMs: 10_000, message: 'upload discarded' });
    expect(await photosOf(jobId)).toBe(0);
    // The booking still takes its photos afterwards.
    const again = multipart([jpeg(100_000, 3)]);
    expect((await post(app.url, `/api/bookings/${jobId}/photos`, again.body, again.contentType)).status).toBe(
      201,
    );
  });

  it('uploads a crashed process left half-received are purged after an hour; accepted photos never', async () => {
    const jobId = await book();
    const ok = multipart([jpeg(300_000, 9)]);
    const kept = await post(app.url, `/api/bookings/${jobId}/photos`, ok.body, ok.contentType);
    const keptId = kept.body!.photos![0]!.id;
    const orphan = '0b7f2a9e-8c1d-4e57-9a3b-6f0d2c4e8a11';
    const fresh = '1c8e3b0f-9d2e-4f68-8b4c-7a1e3d5f9b22';
    await app.pg.query(
      `INSERT INTO booking.photo_uploads (photo_id, started_at) VALUES ($1, now() - interval '2 hours'), ($2, now())`,
      [orphan, fresh],
    );
    await app.pg.query(
      `INSERT INTO booking.photo_chunks (photo_id, seq, data) VALUES ($1, 0, '\\x00'), ($2, 0, '\\x00')`,
      [orphan, fresh],
    );
    const chunks = new PhotoChunks(pgExecutor(app.pg), 1);
    expect(await chunks.purgeAbandoned(new Date(Date.now() - 3600_000))).toBe(1);
    const left = await app.pg.query(`SELECT DISTINCT photo_id::text AS id FROM booking.photo_chunks`);
    const ids = left.rows.map((r: { id: string }) => r.id);
    expect(ids).toContain(keptId);
    expect(ids).toContain(fresh);
    expect(ids).not.toContain(orphan);
    await chunks.discard([fresh, keptId]);
    expect(
      await count(`SELECT count(*)::int AS n FROM booking.photo_chunks WHERE photo_id = $1`, [keptId]),
    ).toBe(Math.ceil(300_000 / PHOTO_CHUNK_BYTES));
    expect(await leftovers()).toBe(0);
  });
});

describe('oversized uploads answer 400 "File too large", never a reset', () => {
  const tooLarge = {
    error: 'File too large',
    message: 'File size must be less than 5MB.',
    code: 'file_too_large',
  };

  it('10 concurrent 20 MB uploads straight to booking, over kept-alive connections', async () => {
    const jobId = await book();
    const { body, contentType } = multipart([jpeg(20 * MB, 5)]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(app.url, `/api/bookings/${jobId}/photos`, body, contentType, { agent }),
      ),
    );
    agent.destroy();
    expect(results.map((r) => r.error ?? r.status)).toEqual(Array(10).fill(400));
    expect(results.map((r) => r.body)).toEqual(Array(10).fill(tooLarge));
    expect(await leftovers()).toBe(0);
  });

  describe('through the gateway', () => {
    let gateway: GatewayUnderTest;
    beforeAll(async () => {
      gateway = await startTestGateway('booking-uploads-gw', { BOOKING_URL: app.url });
    });
    afterAll(async () => {
      await gateway?.stop();
    });

    it('10 concurrent 20 MB uploads, three times: 30 × 400 "File too large", no 502', async () => {
      const jobId = await book();
      const { body, contentType } = multipart([jpeg(20 * MB, 6)]);
      const statuses: (number | string)[] = [];
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(
          Array.from({ length: 10 }, () =>
            post(gateway.baseUrl, `/api/bookings/${jobId}/photos`, body, contentType),
          ),
        );
        statuses.push(...results.map((r) => r.error ?? r.status!));
        expect(results.every((r) => r.body?.error === 'File too large')).toBe(true);
      }
      expect(statuses).toEqual(Array(30).fill(400));
      expect(await leftovers()).toBe(0);
    });

    it('a maximum upload (5 × 5 MB) goes through whole', async () => {
      const jobId = await book();
      const { body, contentType } = multipart([0, 1, 2, 3, 4].map((seed) => jpeg(5 * MB, 20 + seed)));
      const res = await post(gateway.baseUrl, `/api/bookings/${jobId}/photos`, body, contentType);
      expect(res.status).toBe(201);
      expect(await photosOf(jobId)).toBe(5);
    });
  });
});

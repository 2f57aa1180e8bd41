/**
 * The upload parser over real sockets, with an in-memory storage that can be slow: bounded memory whatever the file
 * size, checks as the bytes arrive, answers only after the body (no reset under a proxy that is still sending), and
 * a client that goes away or a body cut short never crashes anything or leaves a file behind.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError } from '@tyres/service-kit';
import { PHOTO_MAX_BYTES } from '../domain/constants';
import {
  finishBody,
  receivePhotoUpload,
  type PhotoStorage,
  type PhotoWriter,
  type UploadGuard,
} from './multipart';

const MB = 1024 * 1024;
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const GIF_HEAD = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00', 'latin1');

/** A file of `size` bytes starting with `head`. */
const file = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length, 0x5a)]);

/** Storage in memory; each write takes `delayMs` (a slow database). Counts what it holds. */
class MemoryStorage implements PhotoStorage {
  readonly files = new Map<string, Buffer[]>();
  stored = 0;
  discarded = 0;
  constructor(private readonly delayMs = 0) {}
  begin(): PhotoWriter {
    const id = randomUUID();
    const parts: Buffer[] = [];
    this.files.set(id, parts);
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const storage = this;
    return {
      id,
      size: 0,
      async write(bytes: Buffer) {
        await new Promise((r) => setTimeout(r, storage.delayMs));
        parts.push(Buffer.from(bytes));
        this.size += bytes.length;
        storage.stored += bytes.length;
      },
      async finish() {},
      async discard() {
        if (storage.files.delete(id)) storage.discarded += parts.reduce((n, p) => n + p.length, 0);
      },
    } as PhotoWriter & { size: number };
  }
  bytesOf(id: string) {
    return Buffer.concat(this.files.get(id) ?? []);
  }
}

interface Served {
  url: URL;
  storage: MemoryStorage;
  /** Largest (bytes read off the socket − bytes stored or discarded) seen during a request. */
  maxInFlight: number;
  /** Errors the process would have crashed on. */
  uncaught: unknown[];
  answers: { status: number; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

const GUARD: UploadGuard = { maxBodyBytes: 32 * MB, drainTimeoutMs: 5_000 };

/** The route's shape: receive, or on a refusal read the rest of the body, then answer. */
async function serve(
  storage = new MemoryStorage(),
  guard: UploadGuard = GUARD,
  limits = { remaining: 5, max: 5 },
): Promise<Served> {
  const uncaught: unknown[] = [];
  const answers: Served['answers'] = [];
  const served = { storage, maxInFlight: 0, uncaught, answers } as unknown as Served;
  const server = http.createServer((req, res) => {
    let read = 0;
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      served.maxInFlight = Math.max(served.maxInFlight, read - storage.stored - storage.discarded);
    });
    const answer = (status: number, body: Record<string, unknown>) => {
      answers.push({ status, body });
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    receivePhotoUpload(req, limits, storage, guard)
      .then((upload) => answer(201, { files: upload.files, fields: upload.fields }))
      .catch(async (err: unknown) => {
        await finishBody(req, res, guard);
        const e = err as HttpError;
        answer(e.status ?? 500, { message: e.message, code: e.code, ...e.extra });
      })
      .catch((err: unknown) => uncaught.push(err));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served.url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  served.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return served;
}

/** A multipart body: `type` field then the files. */
function multipart(files: { data: Buffer; name: string }[], boundary = `----b${randomUUID()}`) {
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ntyre-condition\r\n`,
      'latin1',
    ),
  ];
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="${f.name}"\r\nContent-Type: image/jpeg\r\n\r\n`,
        'latin1',
      ),
      f.data,
      Buffer.from('\r\n', 'latin1'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Sent {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: Record<string, unknown>;
  /** An error while sending or reading (EPIPE, ECONNRESET): what a proxy turns into a 502. */
  error?: string;
}

/**
 * Sends the whole body whatever the server does meanwhile, as a proxy piping a client's upload does, then reads
 * the answer. `agent` to reuse connections.
 */
function send(
  url: URL,
  body: Buffer,
  contentType: string,
  opts: { agent?: http.Agent; stopAfter?: number; declaredLength?: number } = {},
): Promise<Sent> {
  return new Promise((resolve) => {
    const out: Sent = {};
    const req = http.request({
      hostname: url.hostname,
      port: url.port,
      method: 'POST',
      path: '/upload',
      agent: opts.agent ?? false,
      headers: {
        'content-type': contentType,
        'content-length': String(opts.declaredLength ?? body.length),
      },
    });
    req.on('error', (err) => {
      out.error = (err as NodeJS.ErrnoException).code ?? err.message;
      resolve(out);
    });
    req.on('response', (res) => {
      out.status = res.statusCode;
      out.headers = res.headers;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        out.body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        resolve(out);
      });
      res.on('error', (err) => {
        out.error = err.message;
        resolve(out);
      });
    });
    const end = opts.stopAfter ?? body.length;
    // 64 KiB writes, each after the previous one was taken (a proxy's pipe).
    let at = 0;
    const pump = () => {
      while (at < end) {
        const next = body.subarray(at, Math.min(end, at + 64 * 1024));
        at += next.length;
        if (!req.write(next)) return void req.once('drain', pump);
      }
      if (opts.stopAfter === undefined) req.end();
      else setTimeout(() => req.destroy(), 50);
    };
    pump();
  });
}

const settle = () => new Promise((r) => setTimeout(r, 100));

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  expect(served?.uncaught ?? []).toEqual([]);
  served = undefined;
});

describe('photo uploads are streamed', () => {
  it('stores every file as it arrives, the type from its first bytes; the answer lists them', async () => {
    served = await serve();
    const jpeg = file(JPEG_HEAD, 300_000);
    const png = file(PNG_HEAD, 20);
    const { body, contentType } = multipart([
      { data: jpeg, name: 'front.png' },
      { data: png, name: '../../etc/rear.jpg' },
    ]);
    const res = await send(served.url, body, contentType);
    expect(res.status).toBe(201);
    const files = res.body!.files as { id: string; size: number; mimeType: string; originalName: string }[];
    expect(files.map((f) => [f.mimeType, f.size, f.originalName])).toEqual([
      ['image/jpeg', jpeg.length, 'front.png'],
      ['image/png', png.length, 'rear.jpg'],
    ]);
    expect(served.storage.bytesOf(files[0]!.id).equals(jpeg)).toBe(true);
    expect(served.storage.bytesOf(files[1]!.id).equals(png)).toBe(true);
    expect(res.body!.fields).toEqual({ type: 'tyre-condition' });
  });

  it('holds a small constant in memory, not the files: 5 × 5 MB into slow storage', async () => {
    served = await serve(new MemoryStorage(2));
    const five = Array.from({ length: 5 }, (_, i) => ({
      data: file(JPEG_HEAD, PHOTO_MAX_BYTES),
      name: `${i}.jpg`,
    }));
    const { body, contentType } = multipart(five);
    const res = await send(served.url, body, contentType);
    expect(res.status).toBe(201);
    expect(served.storage.stored).toBe(5 * PHOTO_MAX_BYTES);
    // Socket and stream buffers only (a few 64 KiB pieces); buffering a file would show megabytes.
    expect(served.maxInFlight).toBeLessThan(1 * MB);
  });
});

describe('refusals are decided as the bytes arrive and answered after the body', () => {
  it('a GIF named .jpg is "Invalid file type"; nothing of the batch is kept', async () => {
    served = await serve();
    const { body, contentType } = multipart([
      { data: file(JPEG_HEAD, 100_000), name: 'ok.jpg' },
      { data: file(GIF_HEAD, 100_000), name: 'tyre.jpg' },
    ]);
    const res = await send(served.url, body, contentType);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        error: 'Invalid file type',
        message: 'Please upload jpeg, png, webp files only.',
        code: 'invalid_file_type',
      },
    });
    // What had been stored of the jpeg went again; nothing of the GIF was stored (refused on its first bytes).
    expect(served.storage.files.size).toBe(0);
    expect(served.storage.discarded).toBe(served.storage.stored);
    expect(served.storage.stored).toBeLessThanOrEqual(100_000);
  });

  it('5 MB is accepted, one byte more is "File too large"', async () => {
    served = await serve();
    const edge = multipart([{ data: file(JPEG_HEAD, PHOTO_MAX_BYTES), name: 'edge.jpg' }]);
    expect((await send(served.url, edge.body, edge.contentType)).status).toBe(201);
    const over = multipart([{ data: file(JPEG_HEAD, PHOTO_MAX_BYTES + 1), name: 'big.jpg' }]);
    const res = await send(served.url, over.body, over.contentType);
    expect(res.body).toEqual({
      error: 'File too large',
      message: 'File size must be less than 5MB.',
      code: 'file_too_large',
    });
    expect(served.storage.files.size).toBe(1);
  });

  it('a file past the allowance is "Too many files"', async () => {
    served = await serve(new MemoryStorage(), GUARD, { remaining: 2, max: 3 });
    const three = Array.from({ length: 3 }, (_, i) => ({ data: file(PNG_HEAD, 1000), name: `${i}.png` }));
    const { body, contentType } = multipart(three);
    const res = await send(served.url, body, contentType);
    expect(res.body).toEqual({
      error: 'Too many files',
      message: 'Maximum 3 files allowed.',
      code: 'too_many_files',
    });
    expect(served.storage.files.size).toBe(0);
  });

  it('10 concurrent 20 MB uploads sent in full (as the gateway does) all get 400 "File too large", no reset', async () => {
    served = await serve();
    const { body, contentType } = multipart([{ data: file(JPEG_HEAD, 20 * MB), name: 'huge.jpg' }]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => send(served!.url, body, contentType, { agent })),
    );
    expect(results.map((r) => r.error ?? r.status)).toEqual(Array(10).fill(400));
    expect(results.every((r) => r.body?.error === 'File too large')).toBe(true);
    // Read to the end: the connection stays open for the next request.
    expect(results.every((r) => r.headers?.connection !== 'close')).toBe(true);
    const again = await send(served.url, body, contentType, { agent });
    expect(again.status).toBe(400);
    agent.destroy();
    expect(served.storage.files.size).toBe(0);
  });

  it('a body past the cap is answered, then the connection is closed', async () => {
    served = await serve(new MemoryStorage(), { maxBodyBytes: 6 * MB, drainTimeoutMs: 5_000 });
    // Junk after the closing boundary: no file is too large, the request is.
    const ok = multipart([{ data: file(PNG_HEAD, 1000), name: 'a.png' }]);
    const body = Buffer.concat([ok.body, Buffer.alloc(8 * MB, 0x20)]);
    const res = await send(served.url, body, ok.contentType);
    if (res.error === undefined) {
      expect(res.status).toBe(400);
      expect(res.headers?.connection).toBe('close');
    }
    await settle();
    expect(served.answers).toEqual([
      { status: 400, body: expect.objectContaining({ error: 'File too large' }) as unknown },
    ]);
    expect(served.storage.files.size).toBe(0);
  });

  it('a refused upload whose client stalls is answered at the time limit', async () => {
    served = await serve(new MemoryStorage(), { maxBodyBytes: 32 * MB, drainTimeoutMs: 300 });
    const { body, contentType } = multipart([{ data: file(GIF_HEAD, 200_000), name: 'x.gif' }]);
    const started = Date.now();
    // Declares more than it sends, and keeps the connection open without sending the rest.
    const res = await new Promise<Sent>((resolve) => {
      const req = http.request({
        hostname: served!.url.hostname,
        port: served!.url.port,
        method: 'POST',
        path: '/upload',
        agent: false,
        headers: { 'content-type': contentType, 'content-length': String(body.length + 1000) },
      });
      req.on('response', (r) => {
        r.resume();
        resolve({ status: r.statusCode, headers: r.headers });
        req.destroy();
      });
      req.on('error', (err) => resolve({ error: err.message }));
      req.write(body);
    });
    expect(res.status).toBe(400);
    expect(res.headers?.connection).toBe('close');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});

describe('uploads that stop half-way', () => {
  it('a body cut short inside a file: 400, nothing kept, nothing thrown', async () => {
    served = await serve();
    const { body, contentType } = multipart([{ data: Buffer.from('not an image at all'), name: 't.png' }]);
    const res = await send(served.url, body.subarray(0, body.length - 20), contentType);
    expect(res.status).toBe(400);
    const valid = multipart([{ data: file(JPEG_HEAD, 500_000), name: 't.jpg' }]);
    const cut = await send(served.url, valid.body.subarray(0, 300_000), valid.contentType);
    expect(cut.body).toEqual({
      message: 'The upload was malformed or interrupted. Please try again.',
      code: 'malformed_upload',
    });
    expect(served.storage.files.size).toBe(0);
  });

  it('a client that hangs up in the middle of a file: nothing kept, nothing thrown, the server answers the next', async () => {
    served = await serve(new MemoryStorage(1));
    const { body, contentType } = multipart([{ data: file(JPEG_HEAD, 3 * MB), name: 'a.jpg' }]);
    const gone = await send(served.url, body, contentType, { stopAfter: MB, declaredLength: body.length });
    expect(gone.status).toBeUndefined();
    await settle();
    expect(served.storage.stored).toBeGreaterThan(0);
    expect(served.storage.files.size).toBe(0);
    expect(served.storage.discarded).toBe(served.storage.stored);
    const next = multipart([{ data: file(PNG_HEAD, 100), name: 'b.png' }]);
    expect((await send(served.url, next.body, next.contentType)).status).toBe(201);
  });

  it('not multipart at all: 400 after the body', async () => {
    served = await serve();
    const res = await send(served.url, Buffer.from('{"photos":[]}'), 'application/json');
    expect(res.body).toEqual({
      message: 'Upload the photos as multipart/form-data in the "photos" field.',
      code: 'not_multipart',
    });
    const noBoundary = await send(served.url, multipart([]).body, 'multipart/form-data');
    expect(noBoundary.status).toBe(400);
  });
});

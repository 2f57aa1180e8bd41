/**
 * Photo uploads, streamed (issue 14 items 1 and 2). busboy parses the multipart body as it arrives; each file's
 * first bytes decide its type (magic numbers), busboy's fileSize limit stops it one byte past 5 MB, the file count is
 * checked as each file starts, and the bytes go to storage in 64 KiB chunks (db/photo-chunks.ts) with
 * backpressure: nothing waits in memory for a slow database, whatever the file's size.
 *
 * A refusal is answered only once the rest of the body has been read and discarded (finishBody): a proxy that is
 * still sending (the gateway) must never find the connection closed under it, or the customer gets its 502 instead
 * of our 400. Only a body past PHOTO_UPLOAD_MAX_BODY_BYTES, or one still arriving after
 * PHOTO_UPLOAD_DRAIN_TIMEOUT_MS, is cut off: answered, then the connection closed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { PHOTO_MAX_BYTES, type PhotoMimeType } from '../domain/constants';
import {
  interruptedUploadError,
  malformedUploadError,
  notMultipartError,
  photoCountError,
  photoSizeError,
  photoTypeError,
} from '../app/errors';
import { sanitizeOriginalName, sniffImageType, SNIFF_BYTES, type ReceivedPhoto } from '../domain/photos';

export interface UploadGuard {
  /** The most a whole upload request may carry (PHOTO_UPLOAD_MAX_BODY_BYTES). */
  maxBodyBytes: number;
  /** How long the rest of a refused upload is read before answering anyway (PHOTO_UPLOAD_DRAIN_TIMEOUT_MS). */
  drainTimeoutMs: number;
}

/** Where received files go (db/photo-chunks.ts: PhotoChunks). */
export interface PhotoStorage {
  begin(): PhotoWriter;
}
export interface PhotoWriter {
  readonly id: string;
  /** Bytes written so far. */
  readonly size: number;
  /** Resolves once the bytes are stored or buffered within a small bound: await it before reading more. */
  write(bytes: Buffer): Promise<void>;
  finish(): Promise<void>;
  /** Deletes what was written. */
  discard(): Promise<void>;
}

export interface ReceivedUpload {
  files: ReceivedPhoto[];
  fields: Record<string, string>;
}

// ------------------------------------------------------------------------------------------- the body's bytes

interface Meter {
  bytes: number;
}
const meters = new WeakMap<IncomingMessage, Meter>();
const meterOf = (req: IncomingMessage): Meter => {
  let meter = meters.get(req);
  if (!meter) meters.set(req, (meter = { bytes: 0 }));
  return meter;
};

const finishing = new WeakMap<IncomingMessage, Promise<boolean>>();

/**
 * Reads and discards what is left of the request body, so the answer can follow on an intact connection. Resolves
 * true once the body has ended (or had already), false when it was cut off: past the cap, still arriving at the
 * time limit, or the client gone. When cut off the answer says `Connection: close` and the socket is closed after
 * it. The same promise for every caller of one request.
 */
export function finishBody(req: IncomingMessage, res: ServerResponse, guard: UploadGuard): Promise<boolean> {
  let done = finishing.get(req);
  if (done) return done;
  const meter = meterOf(req);
  done = new Promise<boolean>((resolve) => {
    if (req.complete) return resolve(true);
    if (req.destroyed || meter.bytes > guard.maxBodyBytes) return resolve(false);
    const settle = (ended: boolean) => {
      clearTimeout(timer);
      req.off('data', count);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(ended);
    };
    const count = (chunk: Buffer) => {
      meter.bytes += chunk.length;
      if (meter.bytes > guard.maxBodyBytes) settle(false);
    };
    const onEnd = () => settle(true);
    const onClose = () => settle(req.complete);
    const timer = setTimeout(() => settle(false), guard.drainTimeoutMs);
    timer.unref();
    req.on('data', count);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.resume();
  }).then((ended) => {
    if (!ended) {
      req.pause();
      if (!res.headersSent) res.setHeader('Connection', 'close');
      // Whatever the client still sends is not read: close once the answer is out.
      res.once('finish', () => req.socket?.destroySoon());
    }
    return ended;
  });
  finishing.set(req, done);
  return done;
}

// ------------------------------------------------------------------------------------------------ the parser

/**
 * Receives the photos of one request into storage. Resolves once the whole body has been read and every file is
 * stored (unattached). Rejects with the answer to give (the spec's photo errors, or malformed/interrupted) after
 * deleting whatever it had stored; the caller then awaits finishBody before answering.
 */
export function receivePhotoUpload(
  req: IncomingMessage,
  limits: { remaining: number; max: number },
  storage: PhotoStorage,
  guard: UploadGuard,
): Promise<ReceivedUpload> {
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: req.headers,
      // busboy signals 'limit' when a file reaches fileSize: one byte over the maximum is the first refused size.
      limits: {
        fileSize: PHOTO_MAX_BYTES + 1,
        files: limits.remaining + 1,
        fields: 20,
        fieldSize: 1024,
        parts: 40,
        headerPairs: 200,
      },
    });
  } catch {
    return Promise.reject(notMultipartError());
  }

  return new Promise<ReceivedUpload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const writers: PhotoWriter[] = [];
    const received: ReceivedPhoto[] = [];
    const files: Promise<void>[] = [];
    /** The first reason to stop: one of the answers above, or a storage error (503 from the error handler). */
    let failure: unknown;
    let started = 0;
    let parsed = false;
    let settled = false;
    const meter = meterOf(req);

    const detach = () => {
      req.off('data', count);
      req.off('aborted', onAborted);
      req.off('close', onClose);
    };

    /**
     * The answer is decided: no more bytes to busboy now; destroying it (which ends the file in progress, so its
     * reader stops) waits for the next turn of the event loop, because busboy still uses its file stream after
     * emitting 'limit' and would throw if destroyed inside its own callback.
     */
    const fail = (err: unknown) => {
      if (failure !== undefined) return;
      failure = err ?? new Error('upload failed');
      req.unpipe(bb);
      setImmediate(() => bb.destroy());
      void settle();
    };

    const settle = async () => {
      if (settled || (failure === undefined && !parsed)) return;
      settled = true;
      detach();
      // Every file's reader has stopped (or finished) before anything is deleted or handed on.
      await Promise.allSettled(files);
      if (failure !== undefined) {
        await Promise.allSettled(writers.map((w) => w.discard()));
        reject(failure);
      } else resolve({ files: received.filter(Boolean), fields });
    };

    async function receiveFile(stream: Readable & { truncated?: boolean }, index: number, name: string) {
      let limited = false;
      stream.on('limit', () => {
        limited = true;
        fail(photoSizeError());
      });
      let head: Buffer[] = [];
      let headBytes = 0;
      let writer: PhotoWriter | undefined;
      let type: PhotoMimeType | undefined;
      /** The type from the first bytes; only then does anything go to storage. */
      const open = async () => {
        const first = Buffer.concat(head, headBytes);
        head = [];
        type = sniffImageType(first);
        if (!type) return fail(photoTypeError());
        writer = storage.begin();
        writers.push(writer);
        await writer.write(first);
      };
      // for await reads one chunk at a time: the next is not read until this one is stored (backpressure).
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (failure) return;
        if (writer) {
          await writer.write(chunk);
          continue;
        }
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= SNIFF_BYTES) await open();
      }
      if (failure) return;
      if (limited || stream.truncated) return fail(photoSizeError());
      if (!writer) await open();
      if (failure || !writer || !type) return;
      await writer.finish();
      received[index] = { id: writer.id, size: writer.size, mimeType: type, originalName: name };
    }

    bb.on('file', (_field, stream, info) => {
      // busboy ends a file cut short with an error on its stream: handled here, never an uncaught exception.
      stream.on('error', () => undefined);
      started += 1;
      if (failure) return void stream.resume();
      if (started > limits.remaining) {
        fail(photoCountError(limits.max));
        return void stream.resume();
      }
      files.push(receiveFile(stream, started - 1, sanitizeOriginalName(info.filename)).catch(fail));
    });
    bb.on('field', (name, value) => {
      if (!failure) fields[name] = value;
    });
    bb.on('filesLimit', () => fail(photoCountError(limits.max)));
    bb.on('error', () => fail(malformedUploadError()));
    bb.on('close', () => {
      parsed = true;
      void settle();
    });

    const count = (chunk: Buffer) => {
      meter.bytes += chunk.length;
      if (meter.bytes > guard.maxBodyBytes) fail(photoSizeError());
    };
    const onAborted = () => fail(interruptedUploadError());
    const onClose = () => {
      if (!req.complete) fail(interruptedUploadError());
    };
    req.on('data', count);
    req.once('aborted', onAborted);
    req.once('close', onClose);
    req.pipe(bb);
  });
}

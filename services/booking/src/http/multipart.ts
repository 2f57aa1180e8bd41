/**
 * Streaming multipart parser for photo uploads (busboy). Every file is checked while it streams: its first bytes
 * decide the type (magic numbers), busboy's fileSize limit stops it at 5 MB, and the file count is checked as each
 * file starts. A failure answers at once; the rest of the request is drained and discarded (never buffered).
 */
import busboy from 'busboy';
import type { Request } from 'express';
import { badRequest, HttpError } from '@tyres/service-kit';
import { PHOTO_MAX_BYTES } from '../domain/constants';
import { photoCountError, photoSizeError, photoTypeError } from '../domain/errors';
import { sanitizeOriginalName, sniffImageType, SNIFF_BYTES } from '../domain/photos';
import type { IncomingPhoto } from '../db/photos';

export interface ParsedUpload {
  files: IncomingPhoto[];
  fields: Record<string, string>;
}

export function parsePhotoUpload(
  req: Request,
  limits: { remaining: number; max: number },
): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
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
      reject(
        badRequest(
          'Upload the photos as multipart/form-data in the "photos" field.',
          undefined,
          'not_multipart',
        ),
      );
      req.resume();
      return;
    }
    const files: IncomingPhoto[] = [];
    const fields: Record<string, string> = {};
    let failed: HttpError | undefined;
    let started = 0;

    const fail = (err: HttpError) => {
      if (failed) return;
      failed = err;
      files.length = 0; // let the buffers go now
      reject(err);
    };

    bb.on('file', (_name, stream, info) => {
      started += 1;
      if (failed) return void stream.resume();
      if (started > limits.remaining) {
        fail(photoCountError(limits.max));
        return void stream.resume();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let type: ReturnType<typeof sniffImageType>;
      let checked = false;
      const check = () => {
        checked = true;
        type = sniffImageType(Buffer.concat(chunks, size));
        if (!type) fail(photoTypeError());
      };
      stream.on('data', (chunk: Buffer) => {
        if (failed) return;
        chunks.push(chunk);
        size += chunk.length;
        if (!checked && size >= SNIFF_BYTES) check();
      });
      stream.on('limit', () => fail(photoSizeError()));
      stream.on('end', () => {
        if (failed) return;
        if (!checked) check();
        if (failed || !type) return;
        files.push({
          data: Buffer.concat(chunks, size),
          mimeType: type,
          originalName: sanitizeOriginalName(info.filename),
        });
      });
    });
    bb.on('field', (name, value) => {
      if (!failed) fields[name] = value;
    });
    bb.on('filesLimit', () => fail(photoCountError(limits.max)));
    bb.on('error', () => {
      fail(
        badRequest(
          'The upload was malformed or interrupted. Please try again.',
          undefined,
          'malformed_upload',
        ),
      );
      req.unpipe(bb);
      req.resume();
    });
    bb.on('close', () => {
      if (!failed) resolve({ files, fields });
    });
    req.on('aborted', () =>
      fail(badRequest('The upload was interrupted. Please try again.', undefined, 'upload_aborted')),
    );
    req.pipe(bb);
  });
}

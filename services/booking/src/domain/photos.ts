/**
 * Photo checks (spec section 5). The type is decided by the file's first bytes (magic numbers), never by its name
 * or the Content-Type the client sent. Only the three accepted formats are recognised: an allow-list, not a
 * general detector (file-type 21 is ESM-only and cannot load under the CommonJS test runner; these three
 * signatures are short and fixed).
 */
import { PHOTO_MAX_FILES, PHOTO_MAX_FILES_UNKNOWN_SIZE, type PhotoMimeType } from './constants';

/** Bytes needed to recognise every accepted format (WebP: "RIFF" size "WEBP"). */
export const SNIFF_BYTES = 12;

const startsWith = (buf: Uint8Array, bytes: number[], offset = 0) =>
  bytes.every((b, i) => buf[offset + i] === b);

export function sniffImageType(head: Uint8Array): PhotoMimeType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  return undefined;
}

export const EXTENSION: Record<PhotoMimeType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/** 5 photos, or 3 when the booking has no tyre size (spec section 5). */
export const maxPhotos = (tyreSize: string | null) =>
  tyreSize ? PHOTO_MAX_FILES : PHOTO_MAX_FILES_UNKNOWN_SIZE;

/** The client's file name, kept only for display: no path, no control characters, at most 255 characters. */
export function sanitizeOriginalName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'photo').slice(0, 255);
}

/** A file received in full and written to storage, not yet attached to its booking (Photos.store does that). */
export interface ReceivedPhoto {
  id: string;
  size: number;
  mimeType: PhotoMimeType;
  originalName: string;
}

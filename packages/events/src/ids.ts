import { randomBytes } from 'node:crypto';

/**
 * Time-ordered event ids (UUID version 7, monotonic within this process).
 *
 * Why: the outbox relay publishes pending rows ORDER BY created_at, id, and created_at is the transaction's start
 * time, so several events written in one transaction (BookingCreated, then its BookingPhotoAdded; a job's
 * JobStatusChanged, then JobCompleted) would otherwise go out in the random order of v4 ids. v7 ids compare (as
 * Postgres uuids, byte by byte) in creation order. createEvent uses them by default, in every service.
 */
let lastMs = 0;
let counter = 0;

export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = randomBytes(2).readUInt16BE(0) & 0x7ff; // leave room to count up within the millisecond
  } else {
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
  }
  const bytes = randomBytes(16);
  const ms = BigInt(lastMs);
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

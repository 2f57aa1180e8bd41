/**
 * Photo bytes in Postgres, streamed in and out in chunks (booking.photo_chunks), so the memory an upload or a
 * download needs is a small constant, whatever the file's size (issue 14 item 1).
 *
 * An upload writes its chunks while the request streams in, each chunk in its own short statement (no transaction
 * and no pooled connection held while a slow phone sends), under a booking.photo_uploads row that marks it as still
 * arriving. Accepting the upload (Photos.store) deletes that row in the transaction that creates the job_photos row;
 * refusing it, or a client that goes away, deletes the chunks at once; a process that dies mid-upload leaves a
 * photo_uploads row that purgeAbandoned removes with its chunks an hour later. No photo is ever half there.
 */
import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@tyres/events';

/**
 * The size of the chunks written (readers take each chunk as it is: the migration cut older photos in 256 KiB).
 * 64 KiB measured best with bench:uploads (20 concurrent 5 × 5 MB uploads): booking's peak RSS 282 MB against
 * 275-305 MB with 256 KiB chunks (fewer, larger Buffers pile up further before V8 collects them), at 71 against
 * 100 MB/s, far above what phones send.
 */
export const PHOTO_CHUNK_BYTES = 64 * 1024;
/** Uploads interrupted by a crash are purged after this long (Node's request timeout is five minutes). */
export const ABANDONED_UPLOAD_MS = 3600_000;

/** Limits how many chunk writes run at once, so uploads never take more than their share of the pool. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

/** One file being received: bytes in, chunks out; nothing belongs to a booking until Photos.store. */
export class PhotoWriter {
  readonly id = randomUUID();
  size = 0;
  private seq = 0;
  /** The chunk being filled: one buffer for the whole file, so receiving makes no garbage of its own. */
  private buffer: Buffer | undefined;
  private filled = 0;
  private started = false;
  private discarded = false;

  constructor(
    private readonly sql: SqlExecutor,
    private readonly gate: Gate,
  ) {}

  /** Takes the next bytes; resolves once they are buffered or written (await it before reading more). */
  async write(bytes: Buffer): Promise<void> {
    if (this.discarded) throw new Error('photo upload already discarded');
    this.size += bytes.length;
    for (let at = 0; at < bytes.length;) {
      this.buffer ??= Buffer.allocUnsafe(PHOTO_CHUNK_BYTES);
      const copied = bytes.copy(this.buffer, this.filled, at);
      this.filled += copied;
      at += copied;
      if (this.filled === PHOTO_CHUNK_BYTES) await this.flush();
    }
  }

  /** Writes what is left; the file is complete in storage (still unattached). */
  async finish(): Promise<void> {
    if (this.filled > 0) await this.flush();
    this.buffer = undefined;
  }

  /** Deletes whatever was written. Safe to call twice, and while a write is in flight (its rows go too). */
  async discard(): Promise<void> {
    this.discarded = true;
    this.buffer = undefined;
    this.filled = 0;
    if (this.started) await discardUploads(this.sql, [this.id]);
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer!.subarray(0, this.filled);
    const seq = this.seq++;
    await this.gate.run(async () => {
      if (this.discarded) return;
      if (!this.started) {
        this.started = true;
        // First the marker: chunks never exist without a photo_uploads or job_photos row naming them.
        await this.sql.$executeRawUnsafe(
          `INSERT INTO booking.photo_uploads (photo_id) VALUES ($1::uuid)`,
          this.id,
        );
      }
      // The driver copies the bytes into its message when the statement is sent: the buffer is free again after.
      await this.sql.$executeRawUnsafe(
        `INSERT INTO booking.photo_chunks (photo_id, seq, data) VALUES ($1::uuid, $2, $3)`,
        this.id,
        seq,
        chunk,
      );
    });
    this.filled = 0;
    if (this.discarded) await discardUploads(this.sql, [this.id]);
  }
}

/** Deletes unaccepted uploads and their chunks; an accepted photo (a job_photos row) is never touched. */
export async function discardUploads(sql: SqlExecutor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql.$executeRawUnsafe(
    `WITH gone AS (DELETE FROM booking.photo_uploads WHERE photo_id = ANY($1::uuid[]))
     DELETE FROM booking.photo_chunks c
      WHERE c.photo_id = ANY($1::uuid[])
        AND NOT EXISTS (SELECT 1 FROM booking.job_photos p WHERE p.id = c.photo_id)`,
    ids,
  );
}

export class PhotoChunks {
  private readonly gate: Gate;

  constructor(
    private readonly sql: SqlExecutor,
    /** Chunk writes at once across all uploads: leave the rest of the pool to bookings and slot lists. */
    concurrentWrites: number,
  ) {
    this.gate = new Gate(Math.max(1, concurrentWrites));
  }

  begin(): PhotoWriter {
    return new PhotoWriter(this.sql, this.gate);
  }

  discard(ids: string[]): Promise<void> {
    return discardUploads(this.sql, ids);
  }

  /**
   * A stored photo's bytes, chunk by chunk (one query each, so a download holds one chunk at a time). The first
   * chunk is read before anything is yielded, so a database failure can still be answered with a status.
   */
  async open(photoId: string): Promise<AsyncIterable<Buffer>> {
    const read = async (seq: number) =>
      (
        await this.sql.$queryRawUnsafe<{ data: Buffer }[]>(
          `SELECT data FROM booking.photo_chunks WHERE photo_id = $1::uuid AND seq = $2`,
          photoId,
          seq,
        )
      )[0]?.data;
    const first = await read(0);
    return (async function* () {
      let chunk = first;
      for (let seq = 1; chunk; seq++) {
        yield chunk;
        chunk = await read(seq);
      }
    })();
  }

  /** Removes uploads a crashed process left behind (started before `before`); returns how many. */
  async purgeAbandoned(before: Date): Promise<number> {
    const rows = await this.sql.$queryRawUnsafe<{ n: number }[]>(
      `WITH gone AS (DELETE FROM booking.photo_uploads WHERE started_at < $1::timestamptz RETURNING photo_id),
            chunks AS (DELETE FROM booking.photo_chunks WHERE photo_id IN (SELECT photo_id FROM gone))
       SELECT count(*)::int AS n FROM gone`,
      before.toISOString(),
    );
    return rows[0]?.n ?? 0;
  }
}

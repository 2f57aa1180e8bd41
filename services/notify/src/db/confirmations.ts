import type { BookingCreatedV1Data } from '@tyres/events';
import type pg from 'pg';
import { poolOf, type Db } from './client';

/** The two halves of a booking's confirmation as they stand (either may still be missing). */
export interface ConfirmationParts {
  jobId: string;
  booking: BookingCreatedV1Data | null;
  manageUrl: string | null;
}

interface Row {
  job_id: string;
  booking: BookingCreatedV1Data | null;
  manage_url: string | null;
}

const fromRow = (r: Row): ConfirmationParts => ({
  jobId: r.job_id,
  booking: r.booking,
  manageUrl: r.manage_url,
});

/**
 * notify.confirmations (queries only). Each half is written with one INSERT ... ON CONFLICT DO UPDATE, which
 * returns the row as it stands after the write: of two halves arriving at the same moment on two replicas, the
 * second to commit waits for the first and sees both, so one of them always completes the confirmation.
 */
export class ConfirmationRepository {
  private readonly pool: Pick<pg.Pool, 'query'>;

  /** On the pg driver under `db` (a statement per half, on the durable queue's hot path). */
  constructor(db: Db, pool?: Pick<pg.Pool, 'query'>) {
    this.pool = pool ?? poolOf(db);
  }

  async addBooking(booking: BookingCreatedV1Data): Promise<ConfirmationParts> {
    const { rows } = await this.pool.query<Row>(
      `INSERT INTO "notify"."confirmations" AS c ("job_id", "booking") VALUES ($1::uuid, $2::jsonb)
       ON CONFLICT ("job_id") DO UPDATE
         SET "booking" = COALESCE(c."booking", EXCLUDED."booking"), "updated_at" = now()
       RETURNING "job_id", "booking", "manage_url"`,
      [booking.jobId, JSON.stringify(booking)],
    );
    return fromRow(rows[0]!);
  }

  /** The first link received wins (booking sends the same link by email and SMS). */
  async addManageUrl(jobId: string, url: string): Promise<ConfirmationParts> {
    const { rows } = await this.pool.query<Row>(
      `INSERT INTO "notify"."confirmations" AS c ("job_id", "manage_url") VALUES ($1::uuid, $2)
       ON CONFLICT ("job_id") DO UPDATE
         SET "manage_url" = COALESCE(c."manage_url", EXCLUDED."manage_url"), "updated_at" = now()
       RETURNING "job_id", "booking", "manage_url"`,
      [jobId, url],
    );
    return fromRow(rows[0]!);
  }

  async get(jobId: string): Promise<ConfirmationParts | null> {
    const { rows } = await this.pool.query<Row>(
      'SELECT "job_id", "booking", "manage_url" FROM "notify"."confirmations" WHERE "job_id" = $1::uuid',
      [jobId],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }
}

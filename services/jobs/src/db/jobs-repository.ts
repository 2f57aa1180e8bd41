import type { SqlExecutor } from '@tyres/events';
import { dateToDb } from '@tyres/kernel';
import type { DetailedJob, JobRow, JobShape, JsonPage } from '../domain/job-view';
import type { StatusSelection } from '../domain/schedule';
import type { JobStatus, StatusTimestampField } from '../domain/status';
import type { Db, Executor, Tx } from './client';
import type { Prisma } from './generated/client';
import { jobJson } from './job-json';

/**
 * The jobs table and what hangs off it (photos, payments). Queries only: the use cases (src/app) decide what to
 * write; these methods write it. Reads use hand-written SQL: the lists are the hot path
 * (GET /api/dashboard/jobs-with-details at 20 connections): one statement per page over the stored list documents
 * (./job-json.ts). Writes use Prisma's typed API inside the use case's transaction, which locks the job row first.
 * Every statement names the schema ("jobs".…): the adapter does not set search_path.
 */

const JOB_COLUMNS = `
  j."id", j."job_number" AS "jobNumber", j."customer_id" AS "customerId", j."vehicle_id" AS "vehicleId",
  j."customer_name" AS "customerName", j."customer_email" AS "customerEmail", j."customer_phone" AS "customerPhone",
  j."vehicle_make" AS "vehicleMake", j."vehicle_model" AS "vehicleModel", j."vehicle_year" AS "vehicleYear",
  j."vehicle_color" AS "vehicleColor", j."vehicle_registration" AS "vehicleRegistration",
  j."assigned_technician_id" AS "assignedTechnicianId", j."service_type" AS "serviceType", j."status",
  to_char(j."scheduled_date", 'YYYY-MM-DD') AS "scheduledDate", j."scheduled_day" AS "scheduledDay",
  j."time_slot" AS "timeSlot", j."address", j."suburb", j."postcode", j."tyre_size" AS "tyreSize",
  j."tyre_quantity" AS "tyreQuantity", j."tyre_brand" AS "tyreBrand", j."notes",
  j."customer_value"::text AS "customerValue", j."purchase_cost"::text AS "purchaseCost",
  j."purchase_invoice" AS "purchaseInvoice", j."payment_method" AS "paymentMethod",
  j."payment_status" AS "paymentStatus", j."stripe_payment_intent_id" AS "stripePaymentIntentId", j."channel",
  j."created_at" AS "createdAt", j."updated_at" AS "updatedAt", j."in_progress_at" AS "inProgressAt",
  j."completed_at" AS "completedAt", j."invoiced_at" AS "invoicedAt", j."paid_at" AS "paidAt",
  j."cancelled_at" AS "cancelledAt", j."cancelled_by" AS "cancelledBy",
  j."cancellation_reason" AS "cancellationReason", j."slot_changed_at" AS "slotChangedAt", j."deleted_at" AS "deletedAt",
  j."deleted_by" AS "deletedBy"`;

export interface ListQuery {
  selection?: StatusSelection;
  /** Only jobs assigned to this technician (technician callers, and /technicians/{id}/jobs). */
  technicianId?: string;
  /** Only jobs scheduled from `from` to `to` (`YYYY-MM-DD`, inclusive; the route caps the range at 62 days). */
  scheduled?: { from: string; to: string };
  limit: number;
  offset: number;
}

/** WHERE clause + parameters for a list; `deleted_at IS NULL` first so the partial indexes apply. */
function listWhere(query: ListQuery): { sql: string; params: unknown[] } {
  return filterSql(query, {
    live: 'j."deleted_at" IS NULL',
    status: 'j."status"',
    technician: 'j."assigned_technician_id"',
    unassigned: 'IS NULL',
  });
}

/**
 * The same filter over jobs.job_counts and jobs.job_count_deltas (live jobs per status and technician, and the
 * changes not folded in yet; nil UUID = unassigned).
 */
function countWhere(query: ListQuery): { sql: string; params: unknown[] } {
  return filterSql(query, {
    live: 'TRUE',
    status: 'c."status"',
    technician: 'c."technician_id"',
    unassigned: `= '${NIL_UUID}'::uuid`,
  });
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

function filterSql(
  query: ListQuery,
  cols: { live: string; status: string; technician: string; unassigned: string },
): { sql: string; params: unknown[] } {
  const clauses = [cols.live];
  const params: unknown[] = [];
  if (query.technicianId) {
    params.push(query.technicianId);
    clauses.push(`${cols.technician} = $${params.length}::uuid`);
  }
  const sel = query.selection;
  if (sel) {
    if (sel.statuses.length === 1) {
      params.push(sel.statuses[0]);
      clauses.push(`${cols.status} = $${params.length}`);
    } else {
      params.push(sel.statuses);
      clauses.push(`${cols.status} = ANY($${params.length}::text[])`);
    }
    if (sel.assigned === true) clauses.push(`NOT (${cols.technician} ${cols.unassigned})`);
    if (sel.assigned === false) clauses.push(`${cols.technician} ${cols.unassigned}`);
  }
  return { sql: clauses.join(' AND '), params };
}

/**
 * The list statement (exported for the plan test in test/integration/lists.int.test.ts): the page's stored documents
 * joined into one JSON array text in page order, and the total from job_counts and its pending deltas (a handful
 * of rows, not count(*)).
 * Whatever the table size, the page is an index range scan on a partial list index (migration *_jobs_core):
 *
 *   - first page (the dashboard's landing view, the benchmark): the index scan reaches the 50 rows directly and
 *     stops after them;
 *   - later pages: the page's ids are found first with an index-only scan (the filters' columns are index keys or
 *     INCLUDE columns, migration *_list_index_only), so OFFSET skips index entries instead of heap rows carrying
 *     ~2 KB of documents each, and a multi-status filter sorts 16-byte keys rather than documents; then the 50
 *     documents are fetched by primary key.
 */
export function listSql(query: ListQuery, shape: JobShape): { sql: string; params: unknown[] } {
  if (query.scheduled) return scheduledListSql(query, query.scheduled, shape);
  const where = listWhere(query);
  const counted = countWhere(query); // same parameters, same order
  const n = where.params.length;
  const doc = shape === 'details' ? '"doc"' : '"doc_dashboard"';
  // job_counts plus the deltas not folded into it yet (migration *_list_count_deltas), read in one snapshot.
  const total = `((SELECT COALESCE(sum(c."n"), 0) FROM "jobs"."job_counts" c WHERE ${counted.sql})
    + (SELECT COALESCE(sum(c."delta"), 0) FROM "jobs"."job_count_deltas" c WHERE ${counted.sql}))::int AS "total"`;
  const order = `ORDER BY j."created_at" DESC, j."id" DESC`;
  if (query.offset === 0) {
    const sql = `
      SELECT ${total},
             COALESCE((SELECT json_agg(page."doc" ORDER BY page."created_at" DESC, page."id" DESC)
                       FROM (SELECT j."created_at", j."id", j.${doc} AS "doc" FROM "jobs"."jobs" j WHERE ${where.sql}
                             ${order} LIMIT $${n + 1}::int) page),
                      '[]'::json)::text AS "body"`;
    return { sql, params: [...where.params, query.limit] };
  }
  const sql = `
    WITH page AS MATERIALIZED (
      SELECT j."id", j."created_at" FROM "jobs"."jobs" j WHERE ${where.sql}
      ${order} LIMIT $${n + 1}::int OFFSET $${n + 2}::bigint)
    SELECT ${total},
           COALESCE((SELECT json_agg(d.${doc} ORDER BY p."created_at" DESC, p."id" DESC)
                     FROM page p JOIN "jobs"."jobs" d ON d."id" = p."id"), '[]'::json)::text AS "body"`;
  return { sql, params: [...where.params, query.limit, query.offset] };
}

/**
 * A list limited to a scheduled-date range (the schedule calendar's week, day or today): the range's live jobs are
 * found first with an index-only scan of jobs_live_schedule_idx ((scheduled_date, time_slot) INCLUDE created_at,
 * id, status, technician; migration *_jobs_scheduled_range), which holds everything the filters and the order need, so the
 * range's rows (bounded: at most 62 days of bookings) are counted and sorted as narrow keys; then the page's
 * documents are fetched by primary key. job_counts cannot count a date range, so the total is count(*) of that
 * same key set. Same order as every list: newest booking first.
 */
function scheduledListSql(
  query: ListQuery,
  range: { from: string; to: string },
  shape: JobShape,
): { sql: string; params: unknown[] } {
  const where = listWhere(query);
  const params = [...where.params, range.from, range.to];
  const n = params.length;
  const doc = shape === 'details' ? '"doc"' : '"doc_dashboard"';
  const sql = `
    WITH hits AS MATERIALIZED (
      SELECT j."id", j."created_at" FROM "jobs"."jobs" j
      WHERE ${where.sql} AND j."scheduled_date" BETWEEN $${n - 1}::date AND $${n}::date),
    page AS MATERIALIZED (
      SELECT h."id", h."created_at" FROM hits h ORDER BY h."created_at" DESC, h."id" DESC
      LIMIT $${n + 1}::int OFFSET $${n + 2}::bigint)
    SELECT (SELECT count(*) FROM hits)::int AS "total",
           COALESCE((SELECT json_agg(d.${doc} ORDER BY p."created_at" DESC, p."id" DESC)
                     FROM page p JOIN "jobs"."jobs" d ON d."id" = p."id"), '[]'::json)::text AS "body"`;
  return { sql, params: [...params, query.limit, query.offset] };
}

/**
 * A job as booking announced it (BookingCreated): the row the jobs service adopts (scheduledDate `YYYY-MM-DD`).
 * What later happens to a job (assignment, status times, purchase cost, cancel, delete) starts empty.
 */
export type NewJob = Omit<
  JobRow,
  | 'assignedTechnicianId'
  | 'purchaseCost'
  | 'purchaseInvoice'
  | 'updatedAt'
  | 'inProgressAt'
  | 'completedAt'
  | 'invoicedAt'
  | 'paidAt'
  | 'cancelledAt'
  | 'cancelledBy'
  | 'cancellationReason'
  | 'slotChangedAt'
  | 'deletedAt'
  | 'deletedBy'
>;

/** What was stored for a job id before its BookingCreated arrived (JobsRepository.insert). */
export interface EarlyArrivals {
  purchaseInvoices: boolean;
  /** The first payment's intent (payments are kept by job id), null when none. */
  firstPaymentIntentId: string | null;
  /** Booking changes kept with outcome `waiting`. */
  waitingChanges: boolean;
}

/** The details a customer may correct (BookingUpdated); absent = unchanged, notes null = cleared. */
export interface DetailChanges {
  phone?: string;
  notes?: string | null;
  vehicle?: { make: string; model: string; year: number; color?: string | null; registration: string };
}

/** A status change as the use case decided it: the status, the time column it sets, and the payment state. */
export interface StatusChange {
  status: JobStatus;
  /** The status's timestamp column and its value (spec: inProgressAt, completedAt, invoicedAt, paidAt). */
  stamp?: { field: StatusTimestampField; at: Date };
  /** Set paymentStatus to paid too. */
  paid?: boolean;
}

/** The column of each status timestamp (`setStatus`). */
const STAMP_COLUMNS: Record<StatusTimestampField, string> = {
  inProgressAt: 'in_progress_at',
  completedAt: 'completed_at',
  invoicedAt: 'invoiced_at',
  paidAt: 'paid_at',
  cancelledAt: 'cancelled_at',
};

export class JobsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Newest first (booking time, then id), one page, as the JSON array text the route sends: the stored documents
   * (`doc` / `doc_dashboard`, kept current by triggers, see ./job-json.ts) joined in order, plus the total.
   * One statement; see `listSql` for its plan.
   */
  async list(query: ListQuery, shape: JobShape): Promise<JsonPage> {
    const { sql, params } = listSql(query, shape);
    const rows = await this.db.$queryRawUnsafe<JsonPage[]>(sql, ...params);
    return rows[0] ?? { body: '[]', total: 0 };
  }

  /** One live job in the detail shape, or undefined; with `tech`, only if it is assigned to that technician. */
  async findVisible(
    id: string,
    tech: string | undefined,
    db: Executor = this.db,
  ): Promise<DetailedJob | undefined> {
    const rows = await db.$queryRawUnsafe<{ doc: string }[]>(
      `SELECT j."doc"::text AS "doc" FROM "jobs"."jobs" j
       WHERE j."id" = $1::uuid AND j."deleted_at" IS NULL ${tech ? 'AND j."assigned_technician_id" = $2::uuid' : ''}`,
      ...(tech ? [id, tech] : [id]),
    );
    const row = rows[0];
    return row ? (JSON.parse(row.doc) as DetailedJob) : undefined;
  }

  /**
   * (status, technician) keys whose kept count (job_counts plus pending deltas) differs from counting the jobs
   * (0 = consistent). For tests and health checks.
   */
  async wrongCounts(): Promise<number> {
    const rows = await this.db.$queryRawUnsafe<{ wrong: number }[]>(
      `SELECT count(*)::int AS "wrong" FROM (
         SELECT "status", COALESCE("assigned_technician_id", '${NIL_UUID}'::uuid) AS "technician_id", count(*)::int AS "n"
         FROM "jobs"."jobs" WHERE "deleted_at" IS NULL GROUP BY 1, 2) actual
       FULL JOIN (SELECT "status", "technician_id", sum("n")::int AS "n"
                  FROM (SELECT "status", "technician_id", "n" FROM "jobs"."job_counts"
                        UNION ALL SELECT "status", "technician_id", "delta" FROM "jobs"."job_count_deltas") k
                  GROUP BY 1, 2 HAVING sum("n") <> 0) kept USING ("status", "technician_id")
       WHERE actual."n" IS DISTINCT FROM kept."n"`,
    );
    return rows[0]?.wrong ?? 0;
  }

  /** The stored documents of every job against a fresh build (0 = all current). For tests and health checks. */
  async staleDocuments(): Promise<number> {
    const rows = await this.db.$queryRawUnsafe<{ stale: number }[]>(
      `SELECT count(*)::int AS "stale"
       FROM "jobs"."jobs" j LEFT JOIN "jobs"."staff_directory" s ON s."user_id" = j."assigned_technician_id"
       WHERE j."doc"::text IS DISTINCT FROM (${jobJson('details')})::text
          OR j."doc_dashboard"::text IS DISTINCT FROM (${jobJson('dashboard')})::text`,
    );
    return rows[0]?.stale ?? 0;
  }

  /**
   * Locks a live job (`SELECT … FOR UPDATE` inside `tx`), or undefined; with `tech`, only if it is assigned to that
   * technician. Every change to a job goes through this, so concurrent changes to one job run one after the other.
   */
  async lockVisible(tx: Tx, id: string, tech: string | undefined): Promise<JobRow | undefined> {
    const rows = await tx.$queryRawUnsafe<JobRow[]>(
      `SELECT ${JOB_COLUMNS} FROM "jobs"."jobs" j
       WHERE j."id" = $1::uuid AND j."deleted_at" IS NULL ${tech ? 'AND j."assigned_technician_id" = $2::uuid' : ''}
       FOR UPDATE`,
      ...(tech ? [id, tech] : [id]),
    );
    return rows[0];
  }

  /** Locks a job by id whatever its state (event handlers). */
  async lockAny(tx: Tx, id: string): Promise<JobRow | undefined> {
    const rows = await tx.$queryRawUnsafe<JobRow[]>(
      `SELECT ${JOB_COLUMNS} FROM "jobs"."jobs" j WHERE j."id" = $1::uuid FOR UPDATE`,
      id,
    );
    return rows[0];
  }

  /** The row as stored (deleted or not), without a lock: used to check whether a commit went through. */
  async findRow(id: string): Promise<JobRow | undefined> {
    const rows = await this.db.$queryRawUnsafe<JobRow[]>(
      `SELECT ${JOB_COLUMNS} FROM "jobs"."jobs" j WHERE j."id" = $1::uuid`,
      id,
    );
    return rows[0];
  }

  /**
   * Serialises the event handlers that touch one job id, even before the job row exists (a transaction-scoped
   * advisory lock): a payment or purchase invoice handled at the same moment as its BookingCreated must not miss it.
   */
  async lockJobId(tx: Tx, jobId: string): Promise<void> {
    await tx.$executeRawUnsafe(`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended($1, 4242))`, jobId);
  }

  /** `lockJobId` for several ids in one statement, in id order (each once). */
  async lockJobIds(tx: SqlExecutor, jobIds: readonly string[]): Promise<void> {
    const ids = [...new Set(jobIds)].sort();
    await tx.$executeRawUnsafe(
      `SELECT count(pg_advisory_xact_lock(hashtextextended(id, 4242)))
         FROM (SELECT id FROM unnest($1::text[]) AS id ORDER BY id) ids`,
      ids,
    );
  }

  /**
   * Inserts the job; null when a job with this id or job number exists already (nothing written). Otherwise what
   * arrived for this job id before it existed, read in the same statement (RETURNING): whether purchase invoices are
   * stored, the first payment's intent, and whether booking changes wait. One round trip instead of four (the
   * BookingCreated handler runs once per booking; bench:scale).
   */
  async insert(tx: SqlExecutor, job: NewJob): Promise<EarlyArrivals | null> {
    const rows = await tx.$queryRawUnsafe<
      { purchase_invoices: boolean; payment_intent_id: string | null; waiting_changes: boolean }[]
    >(
      `INSERT INTO "jobs"."jobs" (
         "id", "job_number", "customer_id", "vehicle_id", "customer_name", "customer_email", "customer_phone",
         "vehicle_make", "vehicle_model", "vehicle_year", "vehicle_color", "vehicle_registration", "service_type",
         "status", "scheduled_date", "scheduled_day", "time_slot", "address", "suburb", "postcode", "tyre_size",
         "tyre_quantity", "tyre_brand", "notes", "customer_value", "payment_method", "payment_status",
         "stripe_payment_intent_id", "channel", "created_at", "updated_at")
       VALUES ($1::uuid, $2, $3::uuid, $4::uuid, $5, $6, $7, $8, $9, $10::int, $11, $12, $13, $14, $15::date, $16,
               $17, $18, $19, $20, $21, $22::int, $23, $24, $25::numeric, $26, $27, $28, $29, $30::timestamptz, now())
       ON CONFLICT DO NOTHING
       RETURNING
         EXISTS (SELECT 1 FROM "jobs"."job_purchase_invoices" WHERE "job_id" = $1::uuid) AS purchase_invoices,
         (SELECT "payment_intent_id" FROM "jobs"."job_payments" WHERE "job_id" = $1::uuid
           ORDER BY "succeeded_at" LIMIT 1) AS payment_intent_id,
         EXISTS (SELECT 1 FROM "jobs"."job_booking_changes" WHERE "job_id" = $1::uuid AND "outcome" = 'waiting')
           AS waiting_changes`,
      job.id,
      job.jobNumber,
      job.customerId,
      job.vehicleId,
      job.customerName,
      job.customerEmail,
      job.customerPhone,
      job.vehicleMake,
      job.vehicleModel,
      job.vehicleYear,
      job.vehicleColor,
      job.vehicleRegistration,
      job.serviceType,
      job.status,
      job.scheduledDate,
      job.scheduledDay,
      job.timeSlot,
      job.address,
      job.suburb,
      job.postcode,
      job.tyreSize,
      job.tyreQuantity,
      job.tyreBrand,
      job.notes,
      job.customerValue,
      job.paymentMethod,
      job.paymentStatus,
      job.stripePaymentIntentId,
      job.channel,
      job.createdAt,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      purchaseInvoices: row.purchase_invoices,
      firstPaymentIntentId: row.payment_intent_id,
      waitingChanges: row.waiting_changes,
    };
  }

  async exists(tx: Tx, id: string): Promise<boolean> {
    return !!(await tx.job.findUnique({ where: { id }, select: { id: true } }));
  }

  /**
   * Raw, like `assign`: Prisma's `update` compiled the query each time and read the whole updated row back (its two
   * list documents included) for callers that re-read the job anyway.
   */
  async setStatus(tx: Tx, id: string, change: StatusChange): Promise<void> {
    const stamp = change.stamp ? `, "${STAMP_COLUMNS[change.stamp.field]}" = $3::timestamptz` : '';
    const paid = change.paid ? `, "payment_status" = 'paid'` : '';
    await tx.$executeRawUnsafe(
      `UPDATE "jobs"."jobs" SET "status" = $2${stamp}${paid}, "updated_at" = now() WHERE "id" = $1::uuid`,
      id,
      change.status,
      ...(change.stamp ? [change.stamp.at] : []),
    );
  }

  /** Status cancelled; `by` is the staff member (null: the customer), `reason` as booking recorded it. */
  async cancel(tx: Tx, id: string, by: string | null, at: Date, reason: string | null = null): Promise<void> {
    await tx.job.update({
      where: { id },
      data: { status: 'cancelled', cancelledAt: at, cancelledBy: by, cancellationReason: reason },
    });
  }

  /** The reason of a cancellation booking announced for a job that was cancelled here already without one. */
  async setCancellationReason(tx: Tx, id: string, reason: string): Promise<void> {
    await tx.job.update({ where: { id }, data: { cancellationReason: reason } });
  }

  /** The customer's corrections (BookingUpdated): only the fields given. */
  async updateDetails(tx: Tx, id: string, changes: DetailChanges): Promise<void> {
    const v = changes.vehicle;
    await tx.job.update({
      where: { id },
      data: {
        ...(changes.phone !== undefined ? { customerPhone: changes.phone } : {}),
        ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
        ...(v
          ? {
              vehicleMake: v.make,
              vehicleModel: v.model,
              vehicleYear: v.year,
              vehicleColor: v.color ?? null,
              vehicleRegistration: v.registration,
            }
          : {}),
      },
    });
  }

  /** Soft delete: the row stays for the accounts (who and when); every list and read leaves it out. */
  async softDelete(tx: Tx, id: string, by: string, at: Date): Promise<void> {
    await tx.job.update({ where: { id }, data: { deletedAt: at, deletedBy: by } });
  }

  async assign(tx: Tx, id: string, technicianId: string | null): Promise<void> {
    await tx.$executeRawUnsafe(
      `UPDATE "jobs"."jobs" SET "assigned_technician_id" = $2::uuid, "updated_at" = now() WHERE "id" = $1::uuid`,
      id,
      technicianId,
    );
  }

  async moveSlot(
    tx: Tx,
    id: string,
    slot: { scheduledDate: string; scheduledDay: string; timeSlot: string },
    changedAt: Date,
  ): Promise<void> {
    await tx.job.update({
      where: { id },
      data: {
        scheduledDate: dateToDb(slot.scheduledDate),
        scheduledDay: slot.scheduledDay,
        timeSlot: slot.timeSlot,
        slotChangedAt: changedAt,
      },
    });
  }

  /** Photo metadata (BookingPhotoAdded); a photo already stored is left as it is. */
  async addPhoto(tx: Tx, photo: Prisma.JobPhotoCreateManyInput): Promise<void> {
    await tx.jobPhoto.createMany({ skipDuplicates: true, data: [photo] });
  }

  /** A payment for the job (PaymentSucceeded), kept even when the job is not here yet; a repeat is ignored. */
  async addPayment(tx: Tx, payment: Prisma.JobPaymentCreateManyInput): Promise<void> {
    await tx.jobPayment.createMany({ skipDuplicates: true, data: [payment] });
  }

  /** paymentStatus paid with the given payment intent (a payment that arrived before its BookingCreated). */
  async setPaid(tx: Tx, id: string, paymentIntentId: string): Promise<void> {
    await tx.job.update({
      where: { id },
      data: { paymentStatus: 'paid', stripePaymentIntentId: paymentIntentId },
    });
  }

  /** paymentStatus paid unless it is already; the payment intent only where none is stored. */
  async markPaidByPayment(tx: Tx, id: string, paymentIntentId: string): Promise<void> {
    await tx.$executeRawUnsafe(
      `UPDATE "jobs"."jobs"
       SET "payment_status" = 'paid', "stripe_payment_intent_id" = COALESCE("stripe_payment_intent_id", $2), "updated_at" = now()
       WHERE "id" = $1::uuid AND "payment_status" <> 'paid'`,
      id,
      paymentIntentId,
    );
  }
}

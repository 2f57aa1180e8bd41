import type { Identity } from '@tyres/service-kit';
import type { DetailedJob, JobRow, LineItemView } from '../domain/job-view';
import type { StatusSelection } from '../domain/schedule';
import type { Db, Tx } from './client';
import { jobJson, type JobShape } from './job-json';

/**
 * Reads use hand-written SQL: the lists are the hot path (GET /api/dashboard/jobs-with-details at 20 connections):
 * one statement per page over the stored list documents (./job-json.ts). Writes use Prisma's typed API inside
 * transactions that lock the job row first. Every statement names the schema ("jobs".…): the adapter does not set
 * search_path.
 */
type Executor = Pick<Db, '$queryRawUnsafe' | '$executeRawUnsafe'> | Tx;

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
  j."cancelled_at" AS "cancelledAt", j."cancelled_by" AS "cancelledBy", j."deleted_at" AS "deletedAt",
  j."deleted_by" AS "deletedBy"`;

export interface ListQuery {
  selection?: StatusSelection;
  /** Only jobs assigned to this technician (technician callers, and /technicians/{id}/jobs). */
  technicianId?: string;
  limit: number;
  offset: number;
}

/** One page of a list: the JSON array text as Postgres built it, and the total for the pagination headers. */
export interface JsonPage {
  body: string;
  total: number;
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

/** The same filter over jobs.job_counts (live jobs per status and technician; nil UUID = unassigned). */
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
 * joined into one JSON array text in page order, and the total from job_counts (a handful of rows, not count(*)).
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
  const where = listWhere(query);
  const counted = countWhere(query); // same parameters, same order
  const n = where.params.length;
  const doc = shape === 'details' ? '"doc"' : '"doc_dashboard"';
  const total = `(SELECT COALESCE(sum(c."n"), 0)::int FROM "jobs"."job_counts" c WHERE ${counted.sql}) AS "total"`;
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

/** Scope for one caller: technicians only ever see jobs assigned to them. */
export function technicianScope(identity: Identity): string | undefined {
  return identity.role === 'technician' ? identity.id : undefined;
}

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

  /** One live job in the detail shape, or undefined (also when a technician asks for someone else's job). */
  async findVisible(
    id: string,
    identity: Identity,
    db: Executor = this.db,
  ): Promise<DetailedJob | undefined> {
    const tech = technicianScope(identity);
    const rows = await db.$queryRawUnsafe<{ doc: string }[]>(
      `SELECT j."doc"::text AS "doc" FROM "jobs"."jobs" j
       WHERE j."id" = $1::uuid AND j."deleted_at" IS NULL ${tech ? 'AND j."assigned_technician_id" = $2::uuid' : ''}`,
      ...(tech ? [id, tech] : [id]),
    );
    const row = rows[0];
    return row ? (JSON.parse(row.doc) as DetailedJob) : undefined;
  }

  /** Rows of job_counts that differ from counting the jobs (0 = consistent). For tests and health checks. */
  async wrongCounts(): Promise<number> {
    const rows = await this.db.$queryRawUnsafe<{ wrong: number }[]>(
      `SELECT count(*)::int AS "wrong" FROM (
         SELECT "status", COALESCE("assigned_technician_id", '${NIL_UUID}'::uuid) AS "technician_id", count(*)::int AS "n"
         FROM "jobs"."jobs" WHERE "deleted_at" IS NULL GROUP BY 1, 2) actual
       FULL JOIN (SELECT * FROM "jobs"."job_counts" WHERE "n" > 0) kept USING ("status", "technician_id")
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
   * Locks a live job the caller may see (`SELECT … FOR UPDATE` inside `tx`), or undefined. Every change to a job
   * goes through this, so concurrent changes to one job run one after the other.
   */
  async lockVisible(tx: Tx, id: string, identity: Identity): Promise<JobRow | undefined> {
    const tech = technicianScope(identity);
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

  async hasCustomerInvoice(tx: Executor, jobId: string): Promise<{ invoiceNumber: string } | undefined> {
    const rows = await tx.$queryRawUnsafe<{ invoiceNumber: string }[]>(
      `SELECT "invoice_number" AS "invoiceNumber" FROM "jobs"."job_customer_invoices"
       WHERE "job_id" = $1::uuid AND "deleted_at" IS NULL ORDER BY "invoice_number" LIMIT 1`,
      jobId,
    );
    return rows[0];
  }

  async lineItems(jobId: string, db: Executor = this.db): Promise<LineItemView[]> {
    return db.$queryRawUnsafe<LineItemView[]>(
      `SELECT "id", "job_id" AS "jobId", "type", "category", "description", "quantity",
              "unit_cost"::text AS "unitCost", "total_cost"::text AS "totalCost",
              "unit_price"::text AS "unitPrice", "total_price"::text AS "totalPrice",
              "profit_margin"::text AS "profitMargin",
              to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
       FROM "jobs"."job_line_items" WHERE "job_id" = $1::uuid ORDER BY "created_at", "id"`,
      jobId,
    );
  }
}

import { randomUUID } from 'node:crypto';
import type { Db, Tx } from './client';
import type { CustomerInvoice, CustomerInvoiceItem, JobSnapshot, Prisma } from './generated/client';

/** Customer invoice queries. The rules (numbering, totals, who may do what, events) are src/app's. */

export type InvoiceWithJobAndItems = CustomerInvoice & { job: JobSnapshot; items: CustomerInvoiceItem[] };

export const INVOICE_NUMBER_SERIES = 'customer_invoice';

const WITH_JOB_AND_ITEMS = {
  job: true,
  items: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] },
} satisfies Prisma.CustomerInvoiceInclude;

export interface InvoiceListFilters {
  status?: string;
  search?: string;
  jobId?: string;
  limit: number;
  offset: number;
}

/**
 * One page of the invoice management list (newest first) as the JSON array the API answers, plus the number of
 * matches. Built by Postgres in one round trip (json_build_object, the same fields and rules as http/serialize's
 * `invoiceDto`; a test keeps the two identical): every open dashboard polls the list every 30 s, and mapping 100 rows
 * × 50 columns through the ORM costs several times the CPU. `today` is the Perth date "overdue" is judged against.
 */
export async function invoiceListPage(
  db: Db,
  filters: InvoiceListFilters,
  today: string,
): Promise<{ json: string; total: number }> {
  const params: unknown[] = [today];
  const todaySql = '$1::date';
  const param = (value: unknown, cast = '') => {
    params.push(value);
    return `$${params.length}${cast}`;
  };
  const overdue = `(i."status" = 'overdue' OR (i."status" IN ('draft', 'sent') AND i."due_date" < ${todaySql}))`;
  const where: string[] = [];
  if (filters.jobId) where.push(`i."job_id" = ${param(filters.jobId, '::uuid')}`);
  if (filters.status === 'overdue') where.push(overdue);
  else if (filters.status) where.push(`i."status" = ${param(filters.status)} AND NOT ${overdue}`);
  const search = filters.search?.trim();
  let matches = '';
  let source = `"billing"."customer_invoices" i`;
  if (search) {
    // Invoice number, job number or customer name contains the text (case-insensitive, wildcards literal). Written
    // as a union of per-table matches so each side uses its trigram index (pg_trgm GIN, migration
    // invoice_search_trigram_indexes): an OR across the join scans and joins every invoice. The matching jobs'
    // invoices come from customer_invoices_job_id_idx (job_id = ANY(ARRAY(...))): as a join, a common name
    // fragment (2% of 100,000 invoices) made the planner hash-join a sequential scan of every invoice. Each match
    // carries the columns the filters and the order read, so the count and the page never look a match up again
    // (a broad fragment matches thousands). The second half leaves out what the first found, so each invoice is
    // there once without de-duplicating thousands of rows. Computed once (CTE) for both.
    const like = param(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const columns = `s."id", s."job_id", s."status", s."due_date", s."created_at"`;
    matches = `WITH "matches" AS MATERIALIZED (
      SELECT ${columns} FROM "billing"."customer_invoices" s WHERE s."invoice_number" ILIKE ${like}
      UNION ALL
      SELECT ${columns} FROM "billing"."customer_invoices" s
      WHERE s."job_id" = ANY (ARRAY(SELECT sj."job_id" FROM "billing"."job_snapshots" sj
                                    WHERE sj."job_number" ILIKE ${like} OR sj."customer_name" ILIKE ${like}))
        AND (s."invoice_number" ILIKE ${like}) IS NOT TRUE)`;
    source = `"matches" i`;
  }
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  // The page's invoices are chosen (filtered, ordered, limited) before their rows and jobs are read: every invoice
  // has its job (foreign key), so the rows are the same, and only the page's 50 are fetched and joined.
  const page = `FROM (SELECT i."id" FROM ${source} ${whereSql}
                      ORDER BY i."created_at" DESC, i."id" DESC
                      LIMIT ${param(filters.limit, '::int')} OFFSET ${param(filters.offset, '::int')}) "chosen"
                JOIN "billing"."customer_invoices" i ON i."id" = "chosen"."id"
                JOIN "billing"."job_snapshots" j ON j."job_id" = i."job_id"`;
  // Every invoice has its job (foreign key): the count does not need the join.
  const countFrom = `FROM ${source} ${whereSql}`;
  const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const sql = `${matches}
    SELECT (SELECT count(*)::int ${countFrom}) AS "total",
           (SELECT coalesce(json_agg(p."dto" ORDER BY p."created_at" DESC, p."id" DESC), '[]'::json)::text FROM (
              SELECT i."created_at", i."id", json_build_object(
                'id', i."id", 'jobId', i."job_id", 'invoiceNumber', i."invoice_number",
                'status', CASE WHEN ${overdue} THEN 'overdue' ELSE i."status" END,
                'isOverdue', ${overdue},
                'daysUntilDue', i."due_date" - ${todaySql},
                'invoiceDate', to_char(i."invoice_date", 'YYYY-MM-DD'),
                'dueDate', to_char(i."due_date", 'YYYY-MM-DD'),
                'subtotalAmount', i."subtotal_amount"::text, 'gstAmount', i."gst_amount"::text,
                'totalAmount', i."total_amount"::text, 'amountType', i."amount_type",
                'paymentIntentId', i."payment_intent_id", 'pdfPath', i."pdf_path",
                'sentAt', ${iso('i."sent_at"')}, 'paidAt', ${iso('i."paid_at"')},
                'createdAt', ${iso('i."created_at"')}, 'updatedAt', ${iso('i."updated_at"')},
                'jobNumber', j."job_number", 'customerName', j."customer_name",
                'job', json_build_object(
                  'id', j."job_id", 'jobNumber', j."job_number", 'status', j."status", 'serviceType', j."service_type",
                  'scheduledDate', to_char(j."scheduled_date", 'YYYY-MM-DD'), 'timeSlot', j."time_slot",
                  'address', j."address", 'suburb', j."suburb", 'postcode', j."postcode",
                  'customerValue', j."customer_value"::text, 'assignedTechnicianId', j."assigned_technician_id",
                  'customer', json_build_object('name', j."customer_name", 'email', j."customer_email", 'phone', j."customer_phone"),
                  'vehicle', json_build_object('make', j."vehicle_make", 'model', j."vehicle_model", 'year', j."vehicle_year",
                                               'color', j."vehicle_color", 'registration', j."vehicle_registration"))
              ) AS "dto"
              ${page}
           ) p) AS "json"`;
  const [row] = await db.$queryRawUnsafe<{ total: number; json: string }[]>(sql, ...params);
  return { json: row?.json ?? '[]', total: Number(row?.total ?? 0) };
}

export async function findInvoice(db: Db | Tx, id: string): Promise<InvoiceWithJobAndItems | undefined> {
  return (await db.customerInvoice.findUnique({ where: { id }, include: WITH_JOB_AND_ITEMS })) ?? undefined;
}

/** The invoices of a job, newest first. */
export function invoicesOfJob(db: Db | Tx, jobId: string): Promise<InvoiceWithJobAndItems[]> {
  return db.customerInvoice.findMany({
    where: { jobId },
    include: WITH_JOB_AND_ITEMS,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** Locks the invoice row for the rest of the transaction (item changes and totals never interleave). */
export async function lockInvoice(tx: Tx, id: string): Promise<InvoiceWithJobAndItems | undefined> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "billing"."customer_invoices" WHERE "id" = ${id}::uuid FOR UPDATE`;
  if (locked.length === 0) return undefined;
  return findInvoice(tx, id);
}

/** Locks the job's row for the rest of the transaction: invoice creation for one job happens one at a time. */
export async function lockJob(tx: Tx, jobId: string): Promise<JobSnapshot | undefined> {
  const rows = await tx.$queryRaw<{ job_id: string }[]>`
    SELECT "job_id" FROM "billing"."job_snapshots" WHERE "job_id" = ${jobId}::uuid FOR UPDATE`;
  if (rows.length === 0) return undefined;
  return (await tx.jobSnapshot.findUnique({ where: { jobId } })) ?? undefined;
}

/** The job's oldest active (not cancelled) invoice other than `except`. */
export async function findActiveInvoice(
  tx: Tx,
  jobId: string,
  except?: string,
): Promise<{ id: string; invoiceNumber: string } | undefined> {
  return (
    (await tx.customerInvoice.findFirst({
      where: { jobId, status: { not: 'cancelled' }, ...(except ? { id: { not: except } } : {}) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, invoiceNumber: true },
    })) ?? undefined
  );
}

export async function findInvoiceOfPayment(
  tx: Tx,
  paymentIntentId: string,
): Promise<{ invoiceNumber: string } | undefined> {
  return (
    (await tx.customerInvoice.findUnique({
      where: { paymentIntentId },
      select: { invoiceNumber: true },
    })) ?? undefined
  );
}

/** The id and status of the invoice a card payment paid at booking. */
export async function invoiceOfPayment(
  tx: Tx,
  paymentIntentId: string,
): Promise<{ id: string; invoiceNumber: string; status: string } | undefined> {
  return (
    (await tx.customerInvoice.findUnique({
      where: { paymentIntentId },
      select: { id: true, invoiceNumber: true, status: true },
    })) ?? undefined
  );
}

/** Open (unpaid, not cancelled) invoices of a job, oldest first. */
export async function openInvoiceIds(tx: Tx, jobId: string): Promise<string[]> {
  const rows = await tx.customerInvoice.findMany({
    where: { jobId, status: { in: ['draft', 'sent', 'overdue'] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/**
 * The next value of the gap-free series; the row stays locked until the caller's transaction ends (concurrent
 * creates queue on it; a rolled-back create gives its number back).
 */
export async function nextSeriesValue(tx: Tx, series = INVOICE_NUMBER_SERIES): Promise<bigint> {
  const rows = await tx.$queryRaw<{ last_value: bigint }[]>`
    UPDATE "billing"."number_series" SET "last_value" = "last_value" + 1
    WHERE "name" = ${series} RETURNING "last_value"`;
  const value = rows[0]?.last_value;
  if (value === undefined) throw new Error(`number series ${series} is missing (migrations not applied?)`);
  return value;
}

/**
 * A unique placeholder for the moment between inserting an invoice and numbering it, in the same transaction
 * (never committed: setInvoiceNumber replaces it before the transaction ends).
 */
export const provisionalInvoiceNumber = () => `PENDING-${randomUUID()}`;

/** Gives an invoice inserted with a provisional number its real one. */
export async function setInvoiceNumber(tx: Tx, id: string, invoiceNumber: string): Promise<void> {
  await tx.$executeRaw`UPDATE "billing"."customer_invoices" SET "invoice_number" = ${invoiceNumber} WHERE "id" = ${id}`;
}

export function insertInvoice(
  tx: Tx,
  data: Prisma.CustomerInvoiceUncheckedCreateInput,
): Promise<InvoiceWithJobAndItems> {
  return tx.customerInvoice.create({ data, include: WITH_JOB_AND_ITEMS });
}

/** Saves a change and bumps the revision (a PDF is current when built from the same revision). */
export function updateInvoice(
  tx: Tx,
  id: string,
  data: Prisma.CustomerInvoiceUpdateInput,
): Promise<InvoiceWithJobAndItems> {
  return tx.customerInvoice.update({
    where: { id },
    data: { ...data, revision: { increment: 1 } },
    include: WITH_JOB_AND_ITEMS,
  });
}

export async function deleteInvoice(tx: Tx, id: string): Promise<void> {
  await tx.customerInvoice.delete({ where: { id } });
}

export function itemAmounts(tx: Tx, invoiceId: string) {
  return tx.customerInvoiceItem.findMany({
    where: { customerInvoiceId: invoiceId },
    select: { totalPrice: true, gstFree: true },
  });
}

export function insertItem(tx: Tx, data: Prisma.CustomerInvoiceItemUncheckedCreateInput) {
  return tx.customerInvoiceItem.create({ data });
}

export function updateItem(tx: Tx, id: string, data: Prisma.CustomerInvoiceItemUpdateInput) {
  return tx.customerInvoiceItem.update({ where: { id }, data });
}

export async function deleteItem(tx: Tx, id: string): Promise<void> {
  await tx.customerInvoiceItem.delete({ where: { id } });
}

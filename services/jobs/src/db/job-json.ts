import type { JobShape } from '../domain/job-view';
import { scheduleStatusOf } from '../domain/schedule';
import { JOB_STATUSES } from '../domain/status';

/**
 * The "Job (dashboard)" and detailed job shapes (src/domain/job-view.ts), built by Postgres as JSON.
 *
 * Why in SQL: the lists are the hot path (jobs-with-details at 20 connections). Each job stores its two documents
 * (`jobs.doc`, `jobs.doc_dashboard`), rebuilt by a trigger in the transaction that changes the job, its photos, its
 * invoices or its technician's name (migration *_list_documents). A page is then one statement joining 50 stored
 * texts, which the service sends untouched: no JSON building per request in Postgres, no per-value conversion in the
 * driver or Prisma, no JSON.stringify in Node.
 *
 * The field list below is the one definition of the shapes; the schedule status CASE is generated from the domain
 * function, so the SQL and `scheduleStatusOf` cannot disagree.
 */

/** ISO-8601 like Date.prototype.toISOString (timestamptz(3) → millisecond precision, UTC, "Z"). */
const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function scheduleStatusCase(): string {
  const whens: string[] = [];
  for (const status of JOB_STATUSES) {
    const assigned = scheduleStatusOf({ status, assignedTechnicianId: 'x' });
    const unassigned = scheduleStatusOf({ status, assignedTechnicianId: null });
    if (assigned === unassigned) whens.push(`WHEN '${status}' THEN '${assigned}'`);
    else
      whens.push(
        `WHEN '${status}' THEN CASE WHEN j."assigned_technician_id" IS NULL THEN '${unassigned}' ELSE '${assigned}' END`,
      );
  }
  return `CASE j."status" ${whens.join(' ')} END`;
}

/** [json key, SQL expression over `j` (jobs) and `s` (staff_directory)]: the spec's "Job (dashboard)" fields. */
export const DASHBOARD_FIELDS: readonly (readonly [string, string])[] = [
  ['id', 'j."id"'],
  ['jobNumber', 'j."job_number"'],
  ['status', 'j."status"'],
  ['serviceType', 'j."service_type"'],
  ['tyreSize', 'j."tyre_size"'],
  ['tyreQuantity', 'j."tyre_quantity"'],
  ['address', 'j."address"'],
  ['suburb', 'j."suburb"'],
  ['postcode', 'j."postcode"'],
  ['scheduledDate', `to_char(j."scheduled_date", 'YYYY-MM-DD')`],
  ['timeSlot', 'j."time_slot"'],
  ['customerValue', 'j."customer_value"::text'],
  ['assignedTechnicianId', 'j."assigned_technician_id"'],
  ['createdAt', iso('j."created_at"')],
  ['inProgressAt', iso('j."in_progress_at"')],
  ['completedAt', iso('j."completed_at"')],
  ['invoicedAt', iso('j."invoiced_at"')],
  ['paidAt', iso('j."paid_at"')],
  [
    'customer',
    `json_build_object('name', j."customer_name", 'phone', j."customer_phone", 'email', j."customer_email")`,
  ],
  [
    'vehicle',
    `json_build_object('make', j."vehicle_make", 'model', j."vehicle_model", 'year', j."vehicle_year", 'registration', j."vehicle_registration")`,
  ],
  [
    'photos',
    `COALESCE((SELECT json_agg(json_build_object('id', p."id", 'type', p."type", 'originalName', p."original_name")
                               ORDER BY p."uploaded_at", p."id")
               FROM "jobs"."job_photos" p WHERE p."job_id" = j."id"), '[]'::json)`,
  ],
];

/** What jobs-with-details and the job detail add (DetailedJob). */
export const DETAIL_FIELDS: readonly (readonly [string, string])[] = [
  ...DASHBOARD_FIELDS,
  ['scheduledDay', 'j."scheduled_day"'],
  ['scheduleStatus', scheduleStatusCase()],
  [
    'assignedTechnician',
    `CASE WHEN j."assigned_technician_id" IS NULL THEN NULL
          ELSE json_build_object('id', j."assigned_technician_id", 'username', COALESCE(s."username", 'Unknown technician')) END`,
  ],
  ['paymentMethod', 'j."payment_method"'],
  ['paymentStatus', 'j."payment_status"'],
  ['tyreBrand', 'j."tyre_brand"'],
  ['notes', 'j."notes"'],
  ['purchaseCost', 'j."purchase_cost"::text'],
  [
    'hasCustomerInvoice',
    `EXISTS (SELECT 1 FROM "jobs"."job_customer_invoices" ci WHERE ci."job_id" = j."id" AND ci."deleted_at" IS NULL)`,
  ],
  ['cancelledAt', iso('j."cancelled_at"')],
  ['updatedAt', iso('j."updated_at"')],
];

const build = (fields: readonly (readonly [string, string])[]) =>
  `json_build_object(${fields.map(([key, expr]) => `'${key}', ${expr}`).join(',\n    ')})`;
const JSON_SQL: Record<JobShape, string> = {
  dashboard: build(DASHBOARD_FIELDS),
  details: build(DETAIL_FIELDS),
};

/** `json_build_object(...)` of one job row `j` (joined to `s`). */
export function jobJson(shape: JobShape): string {
  return JSON_SQL[shape];
}

/**
 * The trigger function that keeps `jobs.doc` / `jobs.doc_dashboard` current, as written in the migration
 * `*_list_documents` (a unit test checks the migration holds exactly this text, so the shapes above and the stored
 * documents cannot drift apart: change a field here → write a new migration that replaces the function and refreshes
 * the documents with `UPDATE "jobs"."jobs" SET "doc" = NULL`).
 */
export function documentFunctionSql(): string {
  return `CREATE OR REPLACE FUNCTION "jobs"."jobs_build_documents"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  SELECT ${jobJson('details')},
  ${jobJson('dashboard')}
  INTO NEW."doc", NEW."doc_dashboard"
  FROM (SELECT NEW.*) j LEFT JOIN "jobs"."staff_directory" s ON s."user_id" = j."assigned_technician_id";
  RETURN NEW;
END
$fn$;`;
}

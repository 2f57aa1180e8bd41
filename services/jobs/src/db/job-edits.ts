/**
 * Issue 19: queries of an admin's edits of a job (jobs.job_edits, the history) and the write of the edited fields.
 * Rules (what differs, when a price may change) are src/domain/job-edits.ts's. Writes go through the jobs table's
 * triggers (list documents, customer erasure) like every other write.
 */
import type { Executor, Tx } from './client';
import type { Prisma } from './generated/client';
import type { EditableField, EditableValues, FieldChange } from '../domain/job-edits';

export interface JobEditRow {
  id: string;
  jobId: string;
  version: number;
  editedBy: string;
  editedByName: string;
  editedAt: Date;
  reason: string;
  changes: FieldChange[];
}

export class JobEdits {
  /** The job's edit version: how many edits it has had (0 = never edited). */
  async version(db: Executor, jobId: string): Promise<number> {
    const rows = await db.$queryRawUnsafe<{ v: number }[]>(
      `SELECT coalesce(max("version"), 0)::int AS "v" FROM "jobs"."job_edits" WHERE "job_id" = $1::uuid`,
      jobId,
    );
    return rows[0]?.v ?? 0;
  }

  /** The job's edits, newest first. */
  async history(db: Tx | Executor, jobId: string): Promise<JobEditRow[]> {
    const rows = await db.$queryRawUnsafe<JobEditRow[]>(
      `SELECT "id"::text AS "id", "job_id"::text AS "jobId", "version", "edited_by"::text AS "editedBy",
              "edited_by_name" AS "editedByName", "edited_at" AS "editedAt", "reason", "changes"
         FROM "jobs"."job_edits" WHERE "job_id" = $1::uuid ORDER BY "version" DESC`,
      jobId,
    );
    return rows;
  }

  async record(tx: Tx, row: JobEditRow): Promise<void> {
    await tx.jobEdit.create({
      data: {
        id: row.id,
        jobId: row.jobId,
        version: row.version,
        editedBy: row.editedBy,
        editedByName: row.editedByName,
        editedAt: row.editedAt,
        reason: row.reason,
        changes: row.changes as unknown as Prisma.InputJsonValue,
      },
    });
  }

  /** The number of the job's customer invoice that is neither cancelled nor deleted (billing's last word), if any. */
  async activeInvoiceNumber(db: Executor, jobId: string): Promise<string | undefined> {
    const rows = await db.$queryRawUnsafe<{ invoice_number: string }[]>(
      `SELECT "invoice_number" FROM "jobs"."job_customer_invoices"
        WHERE "job_id" = $1::uuid AND "deleted_at" IS NULL AND "status" <> 'cancelled'
        ORDER BY "invoice_number" LIMIT 1`,
      jobId,
    );
    return rows[0]?.invoice_number;
  }

  /** Writes the job's editable fields. */
  async writeValues(tx: Tx, jobId: string, v: EditableValues): Promise<void> {
    await tx.job.update({
      where: { id: jobId },
      data: {
        customerValue: v.customerValue,
        address: v.address,
        suburb: v.suburb,
        postcode: v.postcode,
        vehicleMake: v.vehicle.make,
        vehicleModel: v.vehicle.model,
        vehicleYear: v.vehicle.year,
        vehicleColor: v.vehicle.color,
        vehicleRegistration: v.vehicle.registration,
        notes: v.notes,
        tyreSize: v.tyreSize,
        tyreQuantity: v.tyreQuantity,
        tyreBrand: v.tyreBrand,
      },
    });
  }

  /**
   * Whether an admin edited `field` of the job after `at`: a customer's correction (BookingUpdated) that happened
   * before it must not overwrite it (last writer wins, per field).
   */
  async editedSince(tx: Tx, jobId: string, field: EditableField, at: Date): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<{ found: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM "jobs"."job_edits"
                      WHERE "job_id" = $1::uuid AND "edited_at" > $2
                        AND "changes" @> jsonb_build_array(jsonb_build_object('field', $3::text))) AS "found"`,
      jobId,
      at,
      field,
    );
    return rows[0]?.found ?? false;
  }
}

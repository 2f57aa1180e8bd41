/**
 * An admin's edit of the job (jobs' job.updated.v1) on the booking's copy (events/handlers.ts runs it in the inbox
 * transaction). The rules (docs/decisions.md, "Job edits reach booking"):
 *  - the fields only staff change after booking (price, address, suburb, postcode, tyre size/quantity/brand): the
 *    newest edit version wins, and since each version carries every field, an older version delivered late is
 *    ignored whole (job_edit_version keeps the highest applied);
 *  - the fields the customer may also correct on the manage page (notes, vehicle): last writer per field by time,
 *    like the jobs service: a staff edit sets the fields it `changed` unless the customer's correction of that field
 *    is later (notes_set_at / vehicle_set_at say when the value shown was written).
 * One statement: every SET expression reads the row as it was, so the conditions agree. The row goes through the
 * erasure trigger (bookings_keep_erased), so an erased customer's booking stays blank whatever the edit says.
 */
import type { JobUpdatedV1Data } from '@tyres/events';
import type { Sql } from './client';

export type JobEditOutcome =
  /** At least the newest version's fields were applied. */
  | 'applied'
  /** An older version (or a replay): only its notes/vehicle could apply, if the customer had not written since. */
  | 'older'
  /** No booking for this job (a job made outside booking). */
  | 'no_booking';

export async function applyJobEdit(tx: Sql, e: JobUpdatedV1Data): Promise<JobEditOutcome> {
  const notesChanged = e.changed.includes('notes');
  const vehicleChanged = e.changed.includes('vehicle');
  const rows = await tx.$queryRawUnsafe<{ newer: boolean }[]>(
    `WITH before AS (
       SELECT id, job_edit_version < $2::int AS newer,
              $3::boolean AND (notes_set_at IS NULL OR notes_set_at < $4::timestamptz) AS take_notes,
              $5::boolean AND (vehicle_set_at IS NULL OR vehicle_set_at < $4::timestamptz) AS take_vehicle
         FROM booking.bookings WHERE job_id = $1::uuid FOR UPDATE
     )
     UPDATE booking.bookings b SET
            edited_total = CASE WHEN x.newer THEN $6::numeric ELSE b.edited_total END,
            address = CASE WHEN x.newer THEN $7 ELSE b.address END,
            suburb = CASE WHEN x.newer THEN $8 ELSE b.suburb END,
            postcode = CASE WHEN x.newer THEN $9 ELSE b.postcode END,
            tyre_size = CASE WHEN x.newer THEN $10 ELSE b.tyre_size END,
            tyre_quantity = CASE WHEN x.newer THEN $11::int ELSE b.tyre_quantity END,
            tyre_brand = CASE WHEN x.newer THEN $12 ELSE b.tyre_brand END,
            notes = CASE WHEN x.take_notes THEN $13 ELSE b.notes END,
            notes_set_at = CASE WHEN x.take_notes THEN $4::timestamptz ELSE b.notes_set_at END,
            vehicle_make = CASE WHEN x.take_vehicle THEN $14 ELSE b.vehicle_make END,
            vehicle_model = CASE WHEN x.take_vehicle THEN $15 ELSE b.vehicle_model END,
            vehicle_year = CASE WHEN x.take_vehicle THEN $16::int ELSE b.vehicle_year END,
            vehicle_color = CASE WHEN x.take_vehicle THEN $17 ELSE b.vehicle_color END,
            vehicle_registration = CASE WHEN x.take_vehicle THEN $18 ELSE b.vehicle_registration END,
            vehicle_set_at = CASE WHEN x.take_vehicle THEN $4::timestamptz ELSE b.vehicle_set_at END,
            job_edit_version = greatest(b.job_edit_version, $2::int),
            updated_at = now()
       FROM before x
      WHERE b.id = x.id
     RETURNING x.newer AS "newer"`,
    e.jobId,
    e.version,
    notesChanged,
    new Date(e.updatedAt).toISOString(),
    vehicleChanged,
    e.customerValue,
    e.address,
    e.suburb,
    e.postcode,
    e.tyreSize,
    e.tyreQuantity,
    e.tyreBrand,
    e.notes,
    e.vehicle.make,
    e.vehicle.model,
    e.vehicle.year,
    e.vehicle.color ?? null,
    e.vehicle.registration,
  );
  if (rows.length === 0) return 'no_booking';
  return rows[0]!.newer ? 'applied' : 'older';
}

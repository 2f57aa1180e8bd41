/**
 * Queries of "manage my booking" (app/manage.ts owns the transactions): the link tokens, the booking as the page
 * shows it (its current slot is the reservation's, which staff moves change too), and the customer's changes.
 */
import { randomUUID } from 'node:crypto';
import type { Sql } from './client';

export interface ManagedBookingRow {
  id: string;
  jobId: string;
  jobNumber: string;
  status: string;
  jobStatus: string | null;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  vehicleMake: string;
  vehicleModel: string;
  vehicleYear: number;
  vehicleColor: string | null;
  vehicleRegistration: string;
  serviceType: string;
  /** The reservation's date and slot (where the booking is now). */
  scheduledDate: string;
  timeSlot: string;
  released: boolean;
  address: string;
  suburb: string;
  postcode: string;
  tyreSize: string | null;
  tyreQuantity: number | null;
  notes: string | null;
  paymentMethod: string;
  paymentStatus: string;
  /** The job's price: the staff-edited price (job.updated.v1) once edited, else the quote's total. */
  total: string;
  amountPaid: string | null;
  stripePaymentIntentId: string | null;
  cancelledAt: Date | null;
  cancelledBy: string | null;
  cancellationReason: string | null;
  cancellationBand: string | null;
  refundPercent: number | null;
  refundAmount: string | null;
  cancellationFee: string | null;
  feeWaived: boolean | null;
  /** cancellation or no_show (null: cancelled before the kind was recorded, a cancellation). */
  cancellationKind: string | null;
  photoCount: number;
}

const SELECT_BOOKING = `
  SELECT b.id::text AS "id", b.job_id::text AS "jobId", b.job_number AS "jobNumber", b.status::text AS "status",
         b.job_status AS "jobStatus", b.customer_name AS "customerName", b.customer_email AS "customerEmail",
         b.customer_phone AS "customerPhone", b.vehicle_make AS "vehicleMake", b.vehicle_model AS "vehicleModel",
         b.vehicle_year AS "vehicleYear", b.vehicle_color AS "vehicleColor",
         b.vehicle_registration AS "vehicleRegistration", b.service_type AS "serviceType",
         to_char(coalesce(r.date, b.scheduled_date), 'YYYY-MM-DD') AS "scheduledDate",
         coalesce(r.time_slot, b.time_slot) AS "timeSlot", (r.released_at IS NOT NULL) AS "released",
         b.address, b.suburb, b.postcode, b.tyre_size AS "tyreSize", b.tyre_quantity AS "tyreQuantity", b.notes,
         b.payment_method AS "paymentMethod", b.payment_status AS "paymentStatus",
         coalesce(b.edited_total, b.total)::text AS "total",
         b.amount_paid::text AS "amountPaid", b.stripe_payment_intent_id AS "stripePaymentIntentId",
         b.cancelled_at AS "cancelledAt", b.cancelled_by AS "cancelledBy",
         b.cancellation_reason AS "cancellationReason", b.cancellation_band AS "cancellationBand",
         b.refund_percent AS "refundPercent", b.refund_amount::text AS "refundAmount",
         b.cancellation_fee::text AS "cancellationFee", b.fee_waived AS "feeWaived",
         b.cancellation_kind AS "cancellationKind",
         (SELECT count(*)::int FROM booking.job_photos p WHERE p.booking_id = b.id) AS "photoCount"
    FROM booking.bookings b LEFT JOIN booking.slot_reservations r ON r.booking_id = b.id`;

const normalise = (row: ManagedBookingRow | undefined): ManagedBookingRow | undefined =>
  row ? { ...row, cancelledAt: row.cancelledAt ? new Date(row.cancelledAt) : null } : undefined;

/**
 * The booking a live manage token opens: the token's hash known, not revoked, not expired at `now`. One answer for
 * every failure (the caller answers 404 without saying which).
 */
export async function bookingByManageToken(
  db: Sql,
  tokenHash: string,
  now: Date,
): Promise<ManagedBookingRow | undefined> {
  const [row] = await db.$queryRawUnsafe<ManagedBookingRow[]>(
    `${SELECT_BOOKING}
      JOIN booking.manage_tokens t ON t.booking_id = b.id
     WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2::timestamptz`,
    tokenHash,
    now.toISOString(),
  );
  return normalise(row);
}

/** A booking by its job (staff: the dashboard acts on jobs), in any status. */
export async function managedBookingOfJob(db: Sql, jobId: string): Promise<ManagedBookingRow | undefined> {
  const [row] = await db.$queryRawUnsafe<ManagedBookingRow[]>(
    `${SELECT_BOOKING} WHERE b.job_id = $1::uuid`,
    jobId,
  );
  return normalise(row);
}

/** The same booking by id, after its rows were locked (lockManaged) or changed in this transaction. */
export async function managedBooking(db: Sql, bookingId: string): Promise<ManagedBookingRow> {
  const [row] = await db.$queryRawUnsafe<ManagedBookingRow[]>(
    `${SELECT_BOOKING} WHERE b.id = $1::uuid`,
    bookingId,
  );
  return normalise(row)!;
}

/**
 * Locks the booking's reservation row, then the booking row (the lock order everywhere: the slot's advisory lock,
 * reservation rows, booking rows), so a staff move or cancel of the same job waits for this transaction.
 */
export async function lockManaged(tx: Sql, bookingId: string): Promise<void> {
  await tx.$queryRawUnsafe(
    `SELECT 1 FROM booking.slot_reservations WHERE booking_id = $1::uuid FOR UPDATE`,
    bookingId,
  );
  await tx.$queryRawUnsafe(`SELECT 1 FROM booking.bookings WHERE id = $1::uuid FOR UPDATE`, bookingId);
}

/** A new link for the booking; its earlier live links are revoked in the same statement (one live link each). */
export async function issueManageToken(
  tx: Sql,
  bookingId: string,
  tokenHash: string,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  await tx.$executeRawUnsafe(
    `WITH revoked AS (
       UPDATE booking.manage_tokens SET revoked_at = $4::timestamptz
        WHERE booking_id = $1::uuid AND revoked_at IS NULL
     )
     INSERT INTO booking.manage_tokens (id, booking_id, token_hash, expires_at, created_at)
     VALUES ($5::uuid, $1::uuid, $2, $3::timestamptz, $4::timestamptz)`,
    bookingId,
    tokenHash,
    expiresAt.toISOString(),
    now.toISOString(),
    randomUUID(),
  );
}

/** Revokes every live link of a booking (a support tool or a new link); returns how many. */
export async function revokeManageTokens(tx: Sql, bookingId: string, now: Date): Promise<number> {
  return tx.$executeRawUnsafe(
    `UPDATE booking.manage_tokens SET revoked_at = $2::timestamptz WHERE booking_id = $1::uuid AND revoked_at IS NULL`,
    bookingId,
    now.toISOString(),
  );
}

/** The booking's live links follow its slot: they expire `expiresAt` (the new slot's end + 7 days). */
export async function moveManageTokenExpiry(tx: Sql, jobId: string, expiresAt: Date): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE booking.manage_tokens t SET expires_at = $2::timestamptz
       FROM booking.bookings b
      WHERE b.id = t.booking_id AND b.job_id = $1::uuid AND t.revoked_at IS NULL`,
    jobId,
    expiresAt.toISOString(),
  );
}

export interface CancellationRecord {
  cancelledAt: Date;
  cancelledBy: 'customer' | 'staff';
  cancelledByUserId: string | null;
  reason: string | null;
  band: string;
  refundPercent: number;
  refund: string;
  fee: string;
  feeWaived: boolean;
  kind: 'cancellation' | 'no_show';
}

/** The booking becomes cancelled with the policy's terms at that moment (its slot is released by the caller). */
export async function markCancelled(tx: Sql, bookingId: string, c: CancellationRecord): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE booking.bookings
        SET status = 'cancelled', cancelled_at = $2::timestamptz, cancelled_by = $3, cancellation_reason = $4,
            cancellation_band = $5, refund_percent = $6::int, refund_amount = $7::numeric,
            cancellation_fee = $8::numeric, fee_waived = $9::boolean, cancelled_by_user_id = $10::uuid,
            cancellation_kind = $11, updated_at = now()
      WHERE id = $1::uuid`,
    bookingId,
    c.cancelledAt.toISOString(),
    c.cancelledBy,
    c.reason,
    c.band,
    c.refundPercent,
    c.refund,
    c.fee,
    c.feeWaived,
    c.cancelledByUserId,
    c.kind,
  );
}

export interface DetailChanges {
  phone?: string;
  notes?: string | null;
  vehicle?: { make: string; model: string; year: number; color: string | null; registration: string };
}

/**
 * The customer's corrections at `at`, on the booking row (what this booking says; the customer record is not
 * touched). The time is kept per field (notes_set_at, vehicle_set_at): a staff edit made before it, delivered
 * later, does not overwrite it (db/job-edits.ts).
 */
export async function updateDetails(tx: Sql, bookingId: string, c: DetailChanges, at: Date): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE booking.bookings
        SET customer_phone = coalesce($2, customer_phone),
            notes = CASE WHEN $3::boolean THEN $4 ELSE notes END,
            notes_set_at = CASE WHEN $3::boolean THEN $10::timestamptz ELSE notes_set_at END,
            vehicle_make = coalesce($5, vehicle_make), vehicle_model = coalesce($6, vehicle_model),
            vehicle_year = coalesce($7::int, vehicle_year),
            vehicle_color = CASE WHEN $5 IS NULL THEN vehicle_color ELSE $8 END,
            vehicle_registration = coalesce($9, vehicle_registration),
            vehicle_set_at = CASE WHEN $5 IS NULL THEN vehicle_set_at ELSE $10::timestamptz END,
            updated_at = now()
      WHERE id = $1::uuid`,
    bookingId,
    c.phone ?? null,
    c.notes !== undefined,
    c.notes ?? null,
    c.vehicle?.make ?? null,
    c.vehicle?.model ?? null,
    c.vehicle?.year ?? null,
    c.vehicle?.color ?? null,
    c.vehicle?.registration ?? null,
    at.toISOString(),
  );
}

/**
 * JobStatusChanged: the job's progress, which decides what the customer may still do. Only ever moves forward
 * (new, in-progress, completed, invoiced, paid; cancelled last), so events delivered out of order cannot put a job
 * under way back to "new" and reopen rescheduling.
 */
export async function recordJobStatus(tx: Sql, jobId: string, status: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE booking.bookings SET job_status = $2, updated_at = now()
      WHERE job_id = $1::uuid
        AND array_position($3::text[], $2) > coalesce(array_position($3::text[], job_status), 0)`,
    jobId,
    status,
    JOB_PROGRESS,
  );
}

/** The order JobStatusChanged can move a job in (the kernel's JOB_STATUSES, with cancelled as the last word). */
const JOB_PROGRESS = ['new', 'in-progress', 'completed', 'invoiced', 'paid', 'cancelled'];

/**
 * Queries on bookings: the row and its reservation written together, reads by token, and the statements the
 * payment confirmation runs (app/bookings.ts owns the transactions and decides what to run).
 */
import { randomUUID } from 'node:crypto';
import { dateFromDb } from '@tyres/kernel';
import type { Quote } from '../domain/pricing';
import type { BookingRow } from '../events/builders';
import type { Db, Prisma, Sql, Tx } from './client';
import type { Booking } from './generated/client';
import { PHOTO_COLUMNS } from './photo-columns';

/** For the Prisma interactive transactions (photos, slot admin): wait and run long enough, never hang. */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

/** A booking by the hash of its token (any status: the caller decides what is still live). */
export async function bookingByTokenHash(db: Db, tokenHash: string): Promise<Booking | undefined> {
  return (await db.booking.findUnique({ where: { bookingTokenHash: tokenHash } })) ?? undefined;
}

/** The quote (or booking) a payment names: by quote id, else by job id. */
export async function bookingForPayment(
  tx: Tx,
  ref: { quoteId?: string | null | undefined; jobId?: string | null | undefined },
): Promise<Booking | undefined> {
  if (!ref.quoteId && !ref.jobId) return undefined;
  return (
    (await tx.booking.findFirst({ where: ref.quoteId ? { id: ref.quoteId } : { jobId: ref.jobId! } })) ??
    undefined
  );
}

/** Where a booking's reservation is (or was), if it has one. */
export async function reservationOfBooking(tx: Tx, bookingId: string) {
  return (await tx.slotReservation.findUnique({ where: { bookingId } })) ?? undefined;
}

/** Locks a booking's reservation row; undefined when it has none, else whether it was released. */
export async function lockReservationOfBooking(
  tx: Tx,
  bookingId: string,
): Promise<{ released: boolean } | undefined> {
  const rows = await tx.$queryRawUnsafe<{ released_at: Date | null }[]>(
    `SELECT released_at FROM booking.slot_reservations WHERE booking_id = $1::uuid FOR UPDATE`,
    bookingId,
  );
  return rows[0] ? { released: rows[0].released_at !== null } : undefined;
}

export async function bookingById(tx: Tx, id: string): Promise<Booking> {
  return tx.booking.findUniqueOrThrow({ where: { id } });
}

export interface PaymentFacts {
  paymentStatus: 'paid';
  /** What the card was charged (PaymentSucceeded.amount). */
  amountPaid: Prisma.Decimal;
  paidAt: Date;
  paymentId: string;
  stripePaymentIntentId: string | null | undefined;
}

/** A paid booking that lost its slot: paid, no slot (staff rebook or refund). */
export async function markPaidConflict(tx: Tx, id: string, paid: PaymentFacts): Promise<void> {
  await tx.booking.update({ where: { id }, data: { ...paid, status: 'conflict' } });
}

/** The paid quote's hold becomes the booking's reservation, and the quote a confirmed booking. */
export async function confirmPaidBooking(
  tx: Tx,
  id: string,
  paid: PaymentFacts,
  confirmedAt: Date,
): Promise<Booking> {
  await tx.$executeRawUnsafe(
    `UPDATE booking.slot_reservations
        SET kind = 'booking', expires_at = NULL, released_at = NULL, release_reason = NULL, updated_at = now()
      WHERE booking_id = $1::uuid`,
    id,
  );
  return tx.booking.update({ where: { id }, data: { ...paid, status: 'confirmed', confirmedAt } });
}

/** A booking's photos, oldest first. */
export async function photosOfBooking(tx: Tx, bookingId: string) {
  return tx.jobPhoto.findMany({
    where: { bookingId },
    orderBy: { uploadedAt: 'asc' },
    select: PHOTO_COLUMNS,
  });
}

/** The booking row and its slot reservation (a hold for a quote), in one statement. */
export async function insertBooking(
  tx: Sql,
  b: BookingRow,
  seq: number,
  status: 'quoted' | 'confirmed',
  quote: Quote,
  tokenHash: string | null,
  clientAddress: string | null = null,
  cardSurchargeRate: string | null = null,
): Promise<void> {
  await tx.$executeRawUnsafe(
    `WITH b AS (
       INSERT INTO booking.bookings (
         id, job_id, job_seq, job_number, status, channel, customer_id, vehicle_id,
         customer_name, customer_email, customer_phone,
         vehicle_make, vehicle_model, vehicle_year, vehicle_color, vehicle_registration,
         service_type, scheduled_date, time_slot, address, suburb, postcode,
         tyre_size, tyre_quantity, tyre_brand, notes, payment_method, payment_status,
         items, subtotal, discount, gst, total, callback_required,
         booking_token_hash, expires_at, confirmed_at, created_at, updated_at, client_address, card_surcharge_rate)
       VALUES ($1::uuid, $2::uuid, $3::int, $4, $5::booking."BookingStatus", $6::booking."BookingChannel", $7::uuid, $8::uuid,
         $9, $10, $11, $12, $13, $14::int, $15, $16,
         $17, $18::date, $19, $20, $21, $22,
         $23, $24::int, $25, $26, $27, $28,
         $29::jsonb, $30::numeric, $31::numeric, $32::numeric, $33::numeric, $34::boolean,
         $35, $36::timestamptz, $37::timestamptz, $38::timestamptz, now(), $41, $42::numeric)
       RETURNING id, job_id
     )
     INSERT INTO booking.slot_reservations (id, job_id, booking_id, date, time_slot, kind, expires_at, created_at, updated_at)
     SELECT $39::uuid, b.job_id, b.id, $18::date, $19, $40::booking."ReservationKind", $36::timestamptz, $38::timestamptz, now() FROM b`,
    b.id,
    b.jobId,
    seq,
    b.jobNumber,
    status,
    b.channel,
    b.customerId,
    b.vehicleId,
    b.customerName,
    b.customerEmail,
    b.customerPhone,
    b.vehicleMake,
    b.vehicleModel,
    b.vehicleYear,
    b.vehicleColor,
    b.vehicleRegistration,
    b.serviceType,
    dateFromDb(b.scheduledDate),
    b.timeSlot,
    b.address,
    b.suburb,
    b.postcode,
    b.tyreSize,
    b.tyreQuantity,
    b.tyreBrand,
    b.notes,
    b.paymentMethod,
    b.paymentStatus,
    JSON.stringify(quote.items),
    quote.subtotal,
    quote.discount,
    quote.gst,
    quote.total,
    quote.callbackRequired,
    tokenHash,
    b.expiresAt ? b.expiresAt.toISOString() : null,
    b.confirmedAt ? b.confirmedAt.toISOString() : null,
    b.createdAt.toISOString(),
    randomUUID(),
    status === 'quoted' ? 'hold' : 'booking',
    clientAddress,
    cardSurchargeRate,
  );
}

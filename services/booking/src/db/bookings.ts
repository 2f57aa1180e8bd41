/**
 * Bookings and prepaid quotes: the one place that turns a validated request into rows, a slot reservation and the
 * events, in one transaction.
 */
import { randomUUID } from 'node:crypto';
import {
  toMoney,
  type EventEnvelope,
  type Outbox,
  type PaymentSucceededV1Data,
  type PgExecutor,
} from '@tyres/events';
import { badRequest, conflict, HttpError, type Logger } from '@tyres/service-kit';
import { dateColumnToString, dateToColumn } from '../domain/dates';
import { MSG } from '../domain/messages';
import { computeQuote, prepaidAllowed, type Quote } from '../domain/pricing';
import type { NormalizedBooking } from '../domain/requests';
import { formatJobNumber, hashToken, newBookingToken } from '../domain/tokens';
import { PHOTO_COLUMNS } from './photo-columns';
import {
  bookingCreatedEvent,
  bookingPhotoAddedEvent,
  bookingQuotedEvent,
  eventMeta,
  paymentConflictEmails,
  type BookingRow,
} from '../events/builders';
import { Prisma, withTxRetry, type Db, type LockedTransaction, type Sql, type Tx } from './client';
import type { Booking } from './generated/client';
import { upsertCustomerAndVehicle } from './customers';
import { claimKey, completeKey, type IdempotencyRequest } from './idempotency';
import { tyrePrice } from './pricing';
import { checkSlot, isSlotTaken, lockSlot, slotLockKey } from './slots';

/** For the Prisma interactive transactions (photos, slot admin): wait and run long enough, never hang. */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

export interface BookingDeps {
  db: Db;
  /** The driver path to the same pool (see client.ts): the booking transaction runs on it. */
  sql: PgExecutor;
  lockedTransaction: LockedTransaction;
  outbox: Outbox;
  /** Nudges the outbox relay after a commit that wrote events. */
  wake: () => void;
  clock: () => Date;
  logger: Logger;
  holdMinutes: number;
  /** Also told when a paid booking lost its slot (see paymentConflictEmails). */
  staffAlertEmail?: string;
  /** Called after a commit that changed a date's slots (drops this replica's cached list at once). */
  onSlotsChanged: (date: string) => void;
}

export interface Replay {
  replay: true;
  statusCode: number;
  body: unknown;
}

export interface BookingAnswer {
  jobId: string;
  jobNumber: string;
  scheduledDate: string;
  timeSlot: string;
  paymentMethod: string;
  paymentStatus: string;
  customerValue: string;
}

export interface QuoteAnswer {
  bookingToken: string;
  amount: string;
  currency: 'AUD';
  scheduledDate: string;
  timeSlot: string;
  expiresAt: string;
  quoteId: string;
  jobId: string;
  jobNumber: string;
}

export class Bookings {
  constructor(private readonly deps: BookingDeps) {}

  /** Server-side price of a booking request (tyre price from the catalogue; the client's numbers are ignored). */
  async price(job: NormalizedBooking['job'], prepaid: boolean): Promise<Quote> {
    const tyre =
      job.serviceType === 'new-tyres' && job.tyreSize
        ? await tyrePrice(this.deps.sql, job.tyreSize, job.tyreBrand)
        : undefined;
    const input = {
      serviceType: job.serviceType,
      tyreSize: job.tyreSize,
      tyrePriceCents: tyre?.cents ?? null,
      quantity: job.tyreQuantity ?? 1,
    };
    const quote = computeQuote({ ...input, prepaid });
    // Prepaid is forced to onsite for battery service and callback quotes (spec section 4): no discount either.
    return prepaid && !prepaidAllowed(job.serviceType, quote)
      ? computeQuote({ ...input, prepaid: false })
      : quote;
  }

  /** POST /api/bookings: an onsite (or staff-recorded) booking, confirmed at once. */
  async book(input: NormalizedBooking, idempotency?: IdempotencyRequest): Promise<BookingAnswer | Replay> {
    const quote = await this.price(input.job, input.job.paymentMethod === 'prepaid');
    const paymentMethod = quote.prepaid ? 'prepaid' : 'onsite';
    const result = await this.create(
      { ...input, job: { ...input.job, paymentMethod } },
      quote,
      'booking',
      idempotency,
    );
    return 'replay' in result ? result : (result.answer as BookingAnswer);
  }

  /** POST /api/bookings/quote: a prepaid quote holding its slot for holdMinutes while the customer pays. */
  async quote(input: NormalizedBooking, idempotency?: IdempotencyRequest): Promise<QuoteAnswer | Replay> {
    const quote = await this.price(input.job, true);
    if (!quote.prepaid) throw badRequest(MSG.prepaidNotAvailable, undefined, 'prepaid_not_available');
    const result = await this.create(
      { ...input, job: { ...input.job, paymentMethod: 'prepaid' } },
      quote,
      'quote',
      idempotency,
    );
    return 'replay' in result ? result : (result.answer as QuoteAnswer);
  }

  private async create(
    input: NormalizedBooking,
    quote: Quote,
    mode: 'booking' | 'quote',
    idempotency?: IdempotencyRequest,
  ): Promise<{ answer: BookingAnswer | QuoteAnswer } | Replay> {
    const { outbox } = this.deps;
    const { job } = input;
    // The hot path, on the driver in 6 round trips: begin + the slot's lock, slot check (and expired holds),
    // customer + vehicle + job number, booking + reservation, outbox, commit (plus 2 with an Idempotency-Key).
    const run = () =>
      this.deps.lockedTransaction(slotLockKey(job.scheduledDate, job.timeSlot), async (tx) => {
        const now = this.deps.clock();
        if (idempotency) {
          const claim = await claimKey(tx, idempotency);
          if (!claim.claimed) {
            if (!claim.sameRequest)
              throw new HttpError(
                422,
                'This Idempotency-Key was already used for a different request',
                'idempotency_key_reused',
              );
            return { replay: true as const, statusCode: claim.statusCode, body: claim.response };
          }
        }
        const outcome = await checkSlot(tx, outbox, job.scheduledDate, job.timeSlot, now);
        if (outcome === 'blocked') throw conflict(MSG.slotNoLongerAvailable, undefined, 'slot_unavailable');
        if (outcome === 'taken') throw conflict(MSG.slotJustBooked, undefined, 'slot_taken');

        const { customerId, vehicleId, jobSeq } = await upsertCustomerAndVehicle(
          tx,
          input.customer,
          input.vehicle,
        );
        const token = mode === 'quote' ? newBookingToken() : undefined;
        const row: BookingRow = {
          id: randomUUID(),
          jobId: randomUUID(),
          jobNumber: formatJobNumber(jobSeq),
          channel: input.channel,
          customerId,
          vehicleId,
          customerName: input.customer.name,
          customerEmail: input.customer.email,
          customerPhone: input.customer.phone,
          vehicleMake: input.vehicle.make,
          vehicleModel: input.vehicle.model,
          vehicleYear: input.vehicle.year,
          vehicleColor: input.vehicle.color,
          vehicleRegistration: input.vehicle.registration,
          serviceType: job.serviceType,
          scheduledDate: dateToColumn(job.scheduledDate),
          timeSlot: job.timeSlot,
          address: job.address,
          suburb: job.suburb,
          postcode: job.postcode,
          tyreSize: job.tyreSize,
          tyreQuantity: job.tyreQuantity,
          tyreBrand: job.tyreBrand,
          notes: job.notes,
          paymentMethod: job.paymentMethod,
          paymentStatus: 'pending',
          total: new Prisma.Decimal(quote.total),
          callbackRequired: quote.callbackRequired,
          stripePaymentIntentId: null,
          expiresAt: mode === 'quote' ? new Date(now.getTime() + this.deps.holdMinutes * 60_000) : null,
          confirmedAt: mode === 'booking' ? now : null,
          createdAt: now,
        };
        await insertBooking(
          tx,
          row,
          jobSeq,
          mode === 'quote' ? 'quoted' : 'confirmed',
          quote,
          token ? hashToken(token) : null,
        );
        let answer: BookingAnswer | QuoteAnswer;
        if (mode === 'quote') {
          await outbox.enqueue(tx, bookingQuotedEvent(row, token!, eventMeta()));
          answer = {
            bookingToken: token!,
            amount: quote.total,
            currency: 'AUD',
            scheduledDate: job.scheduledDate,
            timeSlot: job.timeSlot,
            expiresAt: row.expiresAt!.toISOString(),
            quoteId: row.id,
            jobId: row.jobId,
            jobNumber: row.jobNumber,
          };
        } else {
          await outbox.enqueue(tx, bookingCreatedEvent(row, eventMeta()));
          answer = {
            jobId: row.jobId,
            jobNumber: row.jobNumber,
            scheduledDate: job.scheduledDate,
            timeSlot: job.timeSlot,
            paymentMethod: row.paymentMethod,
            paymentStatus: row.paymentStatus,
            customerValue: quote.total,
          };
        }
        if (idempotency) await completeKey(tx, idempotency, 201, answer);
        return { answer };
      });
    try {
      const result = await withTxRetry(run);
      this.deps.onSlotsChanged(job.scheduledDate);
      this.deps.wake();
      return result;
    } catch (err) {
      // The partial unique index is the last word: a race the checks above did not see is still a 409.
      if (isSlotTaken(err)) throw conflict(MSG.slotJustBooked, undefined, 'slot_taken');
      throw err;
    }
  }

  /** A live (unexpired, not yet expired/conflicted) quote or a confirmed booking by its token. */
  async byToken(token: string): Promise<Booking | undefined> {
    const booking = await this.deps.db.booking.findUnique({ where: { bookingTokenHash: hashToken(token) } });
    if (!booking) return undefined;
    if (booking.status === 'confirmed') return booking;
    if (
      booking.status === 'quoted' &&
      booking.expiresAt &&
      booking.expiresAt.getTime() > this.deps.clock().getTime()
    )
      return booking;
    return undefined;
  }

  /**
   * PaymentSucceeded for a prepaid quote: the quote becomes a booking (BookingCreated, paymentStatus paid), in the
   * inbox transaction `tx`. Idempotent on its own too: a confirmed booking is left alone. A hold that expired is
   * re-taken if the slot is still free; if someone else booked it meanwhile the booking is marked `conflict`
   * (paid, no slot) and logged for staff.
   */
  async confirmPayment(
    tx: Tx,
    event: EventEnvelope<PaymentSucceededV1Data>,
  ): Promise<'confirmed' | 'already' | 'unknown' | 'conflict'> {
    const p = event.data;
    if (!p.quoteId && !p.jobId) return 'unknown';
    const found = await tx.booking.findFirst({ where: p.quoteId ? { id: p.quoteId } : { jobId: p.jobId! } });
    if (!found) return 'unknown';
    if (found.status === 'confirmed' || found.status === 'conflict') return 'already';
    // Billing charges the amount it read from /internal/booking-token; a different amount means the two services
    // disagree about a price. The money is taken either way, so the booking goes ahead and staff are told.
    if (toMoney(p.originalAmount) !== toMoney(found.total))
      this.deps.logger.error(
        {
          quoteId: found.id,
          jobNumber: found.jobNumber,
          quoted: toMoney(found.total),
          paid: p.originalAmount,
        },
        'payment amount differs from the quote: check the booking and the payment',
      );
    const now = this.deps.clock();
    const reservation = await tx.slotReservation.findUnique({ where: { bookingId: found.id } });
    const date = dateColumnToString(reservation?.date ?? found.scheduledDate);
    const slot = reservation?.timeSlot ?? found.timeSlot;
    // Lock order everywhere: the slot's advisory lock, then reservation rows, then booking rows.
    await lockSlot(tx, date, slot);
    const locked = await tx.$queryRawUnsafe<{ released_at: Date | null }[]>(
      `SELECT released_at FROM booking.slot_reservations WHERE booking_id = $1::uuid FOR UPDATE`,
      found.id,
    );
    const current = await tx.booking.findUniqueOrThrow({ where: { id: found.id } });
    if (current.status === 'confirmed' || current.status === 'conflict') return 'already';
    const paid = {
      paymentStatus: 'paid',
      paidAt: new Date(p.succeededAt),
      paymentId: p.paymentId,
      stripePaymentIntentId: p.paymentIntentId,
    };
    const live = locked[0] !== undefined && locked[0].released_at === null;
    if (!live) {
      const outcome = locked[0]
        ? await checkSlot(tx, this.deps.outbox, date, slot, now, found.jobId)
        : 'taken';
      if (outcome !== 'reserved') {
        await tx.booking.update({ where: { id: found.id }, data: { ...paid, status: 'conflict' } });
        // The customer has paid for a time they no longer have: they and the office hear about it now, not
        // when the customer turns up waiting for a technician.
        await this.deps.outbox.enqueue(
          tx,
          paymentConflictEmails(
            found,
            {
              date,
              slot,
              paidAt: new Date(p.succeededAt),
              amountPaid: p.amount,
              staffAlertEmail: this.deps.staffAlertEmail,
            },
            () => eventMeta(event),
          ),
        );
        this.deps.logger.error(
          {
            quoteId: found.id,
            jobId: found.jobId,
            jobNumber: found.jobNumber,
            date,
            slot,
            paymentId: p.paymentId,
          },
          'paid after the hold expired and the slot was taken meanwhile: booking needs staff attention (rebook or refund)',
        );
        return 'conflict';
      }
    }
    await tx.$executeRawUnsafe(
      `UPDATE booking.slot_reservations
          SET kind = 'booking', expires_at = NULL, released_at = NULL, release_reason = NULL, updated_at = now()
        WHERE booking_id = $1::uuid`,
      found.id,
    );
    const confirmed = await tx.booking.update({
      where: { id: found.id },
      data: { ...paid, status: 'confirmed', confirmedAt: now },
    });
    const photos = await tx.jobPhoto.findMany({
      where: { bookingId: found.id },
      orderBy: { uploadedAt: 'asc' },
      select: PHOTO_COLUMNS,
    });
    // One eventMeta per event, in publishing order: BookingCreated first, then the photos the quote already had.
    await this.deps.outbox.enqueue(tx, [
      bookingCreatedEvent(confirmed, eventMeta(event)),
      ...photos.map((ph) => bookingPhotoAddedEvent(ph, eventMeta(event))),
    ]);
    return 'confirmed';
  }
}

/** The booking row and its slot reservation (a hold for a quote), in one statement. */
async function insertBooking(
  tx: Sql,
  b: BookingRow,
  seq: number,
  status: 'quoted' | 'confirmed',
  quote: Quote,
  tokenHash: string | null,
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
         booking_token_hash, expires_at, confirmed_at, created_at, updated_at)
       VALUES ($1::uuid, $2::uuid, $3::int, $4, $5::booking."BookingStatus", $6::booking."BookingChannel", $7::uuid, $8::uuid,
         $9, $10, $11, $12, $13, $14::int, $15, $16,
         $17, $18::date, $19, $20, $21, $22,
         $23, $24::int, $25, $26, $27, $28,
         $29::jsonb, $30::numeric, $31::numeric, $32::numeric, $33::numeric, $34::boolean,
         $35, $36::timestamptz, $37::timestamptz, $38::timestamptz, now())
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
    dateColumnToString(b.scheduledDate),
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
  );
}

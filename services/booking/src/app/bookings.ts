/**
 * Bookings and prepaid quotes: the use cases that turn a validated request into rows, a slot reservation and the
 * events, in one transaction (the Idempotency-Key claimed in it too), and the payment that confirms a quote.
 */
import { randomUUID } from 'node:crypto';
import {
  toMoney,
  type EventEnvelope,
  type Outbox,
  type PaymentSucceededV1Data,
  type PgExecutor,
} from '@tyres/events';
import { dateFromDb, dateToDb, surchargeRateToWire, type SurchargeRate } from '@tyres/kernel';
import {
  badRequest,
  claimIdempotencyKey,
  completeIdempotencyKey,
  conflict,
  tooManyRequests,
  type IdempotencyRequest,
  withSerializationRetry,
  type Logger,
} from '@tyres/service-kit';
import { Prisma, type Db, type LockedTransaction, type Sql, type Tx } from '../db/client';
import {
  bookingById,
  bookingByTokenHash,
  bookingForPayment,
  confirmPaidBooking,
  insertBooking,
  lockReservationOfBooking,
  markPaidConflict,
  photosOfBooking,
  reservationOfBooking,
  type PaymentFacts,
} from '../db/bookings';
import type { Booking } from '../db/generated/client';
import { upsertCustomerAndVehicle } from '../db/customers';
import { lockClientHolds, openHoldsOf } from '../db/holds';
import { quoteFeesAt, tyrePrice } from '../db/pricing';
import { isSlotTaken, lockSlot, slotLockKey } from '../db/slots';
import { DB_SCHEMA } from '../db/client';
import type { NormalizedBooking } from '../domain/booking-input';
import { holdCapRetryAfter } from '../domain/holds';
import { MSG } from '../domain/messages';
import { computeQuote, prepaidAllowed, type Quote } from '../domain/pricing';
import { formatJobNumber, hashToken, newBookingToken } from '../domain/tokens';
import {
  bookingCreatedEvent,
  bookingPhotoAddedEvent,
  bookingQuotedEvent,
  eventMeta,
  paymentConflictEmails,
  type BookingRow,
} from '../events/builders';
import type { BookingWindow } from './booking-window';
import type { ManageLinks } from './manage';
import { checkSlot } from './slots';

export interface BookingDeps {
  db: Db;
  /** The driver path to the same pool (see db/client.ts): the booking transaction runs on it. */
  sql: PgExecutor;
  lockedTransaction: LockedTransaction;
  outbox: Outbox;
  /** Nudges the outbox relay after a commit that wrote events. */
  wake: () => void;
  clock: () => Date;
  logger: Logger;
  /** Business day, slot not started, horizon, vehicle year. */
  window: BookingWindow;
  holdMinutes: number;
  /** Open payment holds one client address may have at once (config MAX_OPEN_HOLDS_PER_CLIENT). */
  maxOpenHoldsPerClient: number;
  /** Also told when a paid booking lost its slot (see paymentConflictEmails). */
  staffAlertEmail?: string | undefined;
  /** Called after a commit that changed a date's slots (drops this replica's cached list at once). */
  onSlotsChanged: (date: string) => void;
  /** Issues the "manage my booking" link sent with every confirmed booking (issue 18). */
  manageLinks: ManageLinks;
}

/** The stored answer of an earlier request with the same Idempotency-Key. */
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
  /** The card surcharge rate this quote is paid at ("1.70" = 1.70%): the rate in force when it was quoted. */
  cardSurchargeRate: string;
}

/** A quote with the card surcharge rate in force when it was priced (basis points). */
export type RatedQuote = Quote & { cardSurchargeRate: SurchargeRate };

/** Booking has always answered a key reused for another request with 422; its clients rely on it. */
const IDEMPOTENCY = { reusedStatus: 422 } as const;

export class BookingUseCases {
  constructor(private readonly deps: BookingDeps) {}

  /** Server-side price of a booking request (tyre price from the catalogue; the client's numbers are ignored). */
  async price(job: NormalizedBooking['job'], prepaid: boolean): Promise<RatedQuote> {
    // The price list in force now (issue 19): a later change never reaches this booking, which stores its price.
    const at = this.deps.clock();
    const [tyre, fees] = await Promise.all([
      job.serviceType === 'new-tyres' && job.tyreSize
        ? tyrePrice(this.deps.sql, job.tyreSize, job.tyreBrand, at)
        : undefined,
      quoteFeesAt(this.deps.sql, at),
    ]);
    const input = {
      serviceType: job.serviceType,
      tyreSize: job.tyreSize,
      tyrePriceCents: tyre?.cents ?? null,
      quantity: job.tyreQuantity ?? 1,
      fees,
    };
    const quote = computeQuote({ ...input, prepaid });
    // Prepaid is forced to onsite for battery service and callback quotes (spec section 4): no discount either.
    const priced =
      prepaid && !prepaidAllowed(job.serviceType, quote) ? computeQuote({ ...input, prepaid: false }) : quote;
    // The card surcharge rate in force with these fees: a prepaid quote stores it, and billing's checkout charges it.
    return { ...priced, cardSurchargeRate: fees.cardSurchargeRate };
  }

  /** POST /api/bookings: an onsite (or staff-recorded) booking, confirmed at once. */
  async book(request: NormalizedBooking, idempotency?: IdempotencyRequest): Promise<BookingAnswer | Replay> {
    this.deps.window.checkBooking(request);
    const input = this.deps.window.withEmergencyNote(request);
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

  /**
   * POST /api/bookings/quote: a prepaid quote holding its slot for holdMinutes while the customer pays. With the
   * client's address (set by the gateway), refused with 429 while that client already has the most open holds
   * allowed; without one (internal calls) there is no cap.
   */
  async quote(
    input: NormalizedBooking,
    idempotency?: IdempotencyRequest,
    clientAddress?: string,
  ): Promise<QuoteAnswer | Replay> {
    this.deps.window.checkBooking(input);
    input = this.deps.window.withEmergencyNote(input);
    const quote = await this.price(input.job, true);
    if (!quote.prepaid) throw badRequest(MSG.prepaidNotAvailable, undefined, 'prepaid_not_available');
    const result = await this.create(
      { ...input, job: { ...input.job, paymentMethod: 'prepaid' } },
      quote,
      'quote',
      idempotency,
      clientAddress,
    );
    return 'replay' in result ? result : (result.answer as QuoteAnswer);
  }

  private async create(
    input: NormalizedBooking,
    quote: RatedQuote,
    mode: 'booking' | 'quote',
    idempotency?: IdempotencyRequest,
    clientAddress?: string,
  ): Promise<{ answer: BookingAnswer | QuoteAnswer } | Replay> {
    const { outbox } = this.deps;
    const { job } = input;
    // The hot path, on the driver in 6 round trips: begin + the slot's lock, slot check (and expired holds),
    // customer + vehicle + job number, booking + reservation, outbox, commit (plus 2 with an Idempotency-Key).
    const run = () =>
      this.deps.lockedTransaction(slotLockKey(job.scheduledDate, job.timeSlot), async (tx) => {
        const now = this.deps.clock();
        if (idempotency) {
          const claim = await claimIdempotencyKey(tx, DB_SCHEMA, idempotency, IDEMPOTENCY);
          if (!claim.claimed) return { replay: true as const, ...claim.replay };
        }
        // A replay above is answered whatever the cap; a new hold is counted under the client's lock, so two
        // parallel quotes at the cap cannot both pass.
        if (mode === 'quote' && clientAddress) await this.checkHoldCap(tx, clientAddress, now);
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
          scheduledDate: dateToDb(job.scheduledDate),
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
          cardSurchargeRate:
            job.paymentMethod === 'prepaid'
              ? new Prisma.Decimal(surchargeRateToWire(quote.cardSurchargeRate))
              : null,
        };
        await insertBooking(
          tx,
          row,
          jobSeq,
          mode === 'quote' ? 'quoted' : 'confirmed',
          quote,
          token ? hashToken(token) : null,
          mode === 'quote' ? (clientAddress ?? null) : null,
          job.paymentMethod === 'prepaid' ? surchargeRateToWire(quote.cardSurchargeRate) : null,
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
            cardSurchargeRate: surchargeRateToWire(quote.cardSurchargeRate),
          };
        } else {
          // BookingCreated first, then the customer's manage link (email and SMS; the token is in those only).
          const created = bookingCreatedEvent(row, eventMeta(), quote);
          const link = await this.deps.manageLinks.issue(
            tx,
            { ...row, scheduledDate: job.scheduledDate, timeSlot: job.timeSlot },
            now,
            () => eventMeta(),
          );
          await outbox.enqueue(tx, [created, ...link]);
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
        if (idempotency) await completeIdempotencyKey(tx, DB_SCHEMA, idempotency, 201, answer);
        return { answer };
      });
    try {
      const result = await withSerializationRetry(run, 4);
      this.deps.onSlotsChanged(job.scheduledDate);
      this.deps.wake();
      return result;
    } catch (err) {
      // The partial unique index is the last word: a race the checks above did not see is still a 409.
      if (isSlotTaken(err)) throw conflict(MSG.slotJustBooked, undefined, 'slot_taken');
      throw err;
    }
  }

  /** 429 with Retry-After (until the oldest hold runs out) when the client already has the most open holds. */
  private async checkHoldCap(tx: Sql, clientAddress: string, now: Date): Promise<void> {
    await lockClientHolds(tx, clientAddress);
    const open = await openHoldsOf(tx, clientAddress, now);
    const retryAfter = holdCapRetryAfter({
      open: open.count,
      firstExpiresAt: open.firstExpiresAt,
      max: this.deps.maxOpenHoldsPerClient,
      now,
    });
    if (retryAfter !== undefined) throw tooManyRequests(MSG.tooManyOpenHolds, retryAfter);
  }

  /** A live (unexpired, not yet expired/conflicted) quote or a confirmed booking by its token. */
  async byToken(token: string): Promise<Booking | undefined> {
    const booking = await bookingByTokenHash(this.deps.db, hashToken(token));
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
    const found = await bookingForPayment(tx, p);
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
    const reservation = await reservationOfBooking(tx, found.id);
    const date = dateFromDb(reservation?.date ?? found.scheduledDate);
    const slot = reservation?.timeSlot ?? found.timeSlot;
    // Lock order everywhere: the slot's advisory lock, then reservation rows, then booking rows.
    await lockSlot(tx, date, slot);
    const locked = await lockReservationOfBooking(tx, found.id);
    const current = await bookingById(tx, found.id);
    if (current.status === 'confirmed' || current.status === 'conflict') return 'already';
    const paid: PaymentFacts = {
      paymentStatus: 'paid',
      amountPaid: new Prisma.Decimal(p.amount),
      paidAt: new Date(p.succeededAt),
      paymentId: p.paymentId,
      stripePaymentIntentId: p.paymentIntentId,
    };
    if (!locked || locked.released) {
      const outcome = locked ? await checkSlot(tx, this.deps.outbox, date, slot, now, found.jobId) : 'taken';
      if (outcome !== 'reserved') {
        await markPaidConflict(tx, found.id, paid);
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
    const confirmed = await confirmPaidBooking(tx, found.id, paid, now);
    const photos = await photosOfBooking(tx, found.id);
    // One eventMeta per event, in publishing order: BookingCreated first, then the photos the quote already had,
    // then the customer's manage link (issued now: a quote never paid never gets one).
    const created = bookingCreatedEvent(confirmed, eventMeta(event), {
      // The quote's lines as quoted (stored with it), never re-priced: a later price change does not reach it.
      items: confirmed.items,
      subtotal: confirmed.subtotal,
      discount: confirmed.discount,
      total: confirmed.total,
      callbackRequired: confirmed.callbackRequired,
    });
    const added = photos.map((ph) => bookingPhotoAddedEvent(ph, eventMeta(event)));
    const link = await this.deps.manageLinks.issue(
      tx,
      { ...confirmed, scheduledDate: date, timeSlot: slot },
      now,
      () => eventMeta(event),
    );
    await this.deps.outbox.enqueue(tx, [created, ...added, ...link]);
    return 'confirmed';
  }
}

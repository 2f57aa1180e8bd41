/**
 * "Manage my booking" (issue 18): the customer's own page, opened with the link from their confirmation email or
 * SMS. They see the booking and the cancellation terms that apply at that moment, and can reschedule (the same rules
 * and the same race guarantee as a new booking), cancel (the slot is freed at once; the policy's terms at that
 * moment are stored and announced), correct their phone, notes and vehicle, and add photos. Each change is one
 * transaction with its event in the outbox (BookingRescheduled, BookingCancelled, BookingUpdated).
 */
import { toMoney, type EventEnvelope, type EventMeta, type Outbox, type PgExecutor } from '@tyres/events';
import { formatMoney, slotStartsAt, vehicleYearProblem, type TimeSlot } from '@tyres/kernel';
import {
  badRequest,
  conflict,
  HttpError,
  notFound,
  withSerializationRetry,
  type Identity,
} from '@tyres/service-kit';
import type { Sql } from '../db/client';
import {
  bookingByManageToken,
  issueManageToken,
  lockManaged,
  managedBooking,
  managedBookingOfJob,
  markCancelled,
  moveManageTokenExpiry,
  updateDetails,
  type DetailChanges,
  type ManagedBookingRow,
} from '../db/manage';
import { moveReservation, releaseReservation } from '../db/reservations';
import { isSlotTaken, lockSlot } from '../db/slots';
import {
  cancelProblem,
  changeProblem,
  displayStatus,
  isCancelled,
  MANAGE_MSG,
  manageLinkExpiry,
  manageUrl,
  noShowProblem,
  noShowReason,
  noShowTermsOf,
  rescheduleProblem,
  smsNumber,
  termsAt,
  termsView,
  type ManagedState,
} from '../domain/manage';
import { MSG } from '../domain/messages';
import type { ReceivedPhoto } from '../domain/photos';
import { hashToken, looksLikeToken, newBookingToken } from '../domain/tokens';
import {
  bookingCancelledEvent,
  bookingRescheduledEvent,
  bookingUpdatedEvent,
  eventMeta,
  manageLinkMessages,
  type PhotoRow,
} from '../events/builders';
import type { BookingWindow } from './booking-window';
import type { Photos, UploadTarget } from './photos';
import { checkSlot } from './slots';

/** One answer for an unknown, expired or revoked link: it does not say which. */
export const linkNotFound = () => new HttpError(404, MANAGE_MSG.linkNotFound, 'not_found');

/**
 * Issues a booking's manage link inside the transaction that confirms it (a new booking, or a prepaid quote once
 * paid) and returns the email and SMS that carry it, for the caller to enqueue after BookingCreated.
 */
export class ManageLinks {
  constructor(private readonly deps: { siteUrl: string }) {}

  async issue(
    tx: Sql,
    b: {
      id: string;
      jobId: string;
      jobNumber: string;
      customerName: string;
      customerEmail: string;
      customerPhone: string;
      serviceType: string;
      scheduledDate: string;
      timeSlot: string;
    },
    now: Date,
    meta: () => EventMeta,
  ): Promise<EventEnvelope[]> {
    const token = newBookingToken();
    const expiresAt = manageLinkExpiry(b.scheduledDate, b.timeSlot as TimeSlot);
    await issueManageToken(tx, b.id, hashToken(token), expiresAt, now);
    return manageLinkMessages(
      b,
      { url: manageUrl(this.deps.siteUrl, token), expiresAt, smsTo: smsNumber(b.customerPhone), at: now },
      meta,
    );
  }
}

export interface ManageDeps {
  sql: PgExecutor;
  outbox: Outbox;
  wake: () => void;
  clock: () => Date;
  window: BookingWindow;
  photos: Photos;
  onSlotsChanged: (date: string) => void;
}

const stateOf = (b: ManagedBookingRow): ManagedState => ({
  status: b.status,
  jobStatus: b.jobStatus,
  released: b.released,
  scheduledDate: b.scheduledDate,
  timeSlot: b.timeSlot as TimeSlot,
});

/** The cancellation terms a page showed (band, refund, fee as money strings). */
export interface ExpectedTerms {
  band: 'full_refund' | 'half_refund' | 'no_refund';
  refund: string;
  fee: string;
}
const sameTerms = (a: ExpectedTerms, b: { band: string; refund: string; fee: string }) =>
  a.band === b.band && a.refund === b.refund && a.fee === b.fee;

/** Who is looking: staff may cancel a job already under way (not one completed). */
type Viewer = 'customer' | 'staff';

/** The page's view of a booking at `now`. */
export function manageView(b: ManagedBookingRow, now: Date, viewer: Viewer = 'customer') {
  const state = stateOf(b);
  const canCancel = !(viewer === 'staff' ? changeProblem(state) : cancelProblem(state));
  return {
    reference: b.jobNumber,
    status: displayStatus(state, now),
    customerName: b.customerName,
    serviceType: b.serviceType,
    scheduledDate: b.scheduledDate,
    timeSlot: b.timeSlot,
    slotStartsAt: slotStartsAt(b.scheduledDate, b.timeSlot as TimeSlot).toISOString(),
    address: { street: b.address, suburb: b.suburb, postcode: b.postcode },
    vehicle: {
      make: b.vehicleMake,
      model: b.vehicleModel,
      year: b.vehicleYear,
      color: b.vehicleColor,
      registration: b.vehicleRegistration,
    },
    phone: b.customerPhone,
    notes: b.notes,
    tyreSize: b.tyreSize,
    tyreQuantity: b.tyreQuantity,
    price: toMoney(b.total),
    paymentMethod: b.paymentMethod,
    paymentStatus: b.paymentStatus,
    amountPaid: b.amountPaid,
    photoCount: b.photoCount,
    can: {
      reschedule: !rescheduleProblem(state, now),
      cancel: canCancel,
      change: !changeProblem(state),
    },
    /** What cancelling now would mean (the kernel's policy at this moment); null when it cannot be cancelled. */
    cancellation: canCancel ? termsView(termsAt({ ...b, ...state }, now)) : null,
    /** The stored cancellation, once cancelled here or by staff through this service. */
    cancelled:
      b.status === 'cancelled' && b.cancelledAt
        ? {
            cancelledAt: b.cancelledAt.toISOString(),
            cancelledBy: b.cancelledBy,
            reason: b.cancellationReason,
            band: b.cancellationBand,
            refundPercent: b.refundPercent,
            refund: b.refundAmount,
            fee: b.cancellationFee,
            feeWaived: b.feeWaived,
            kind: b.cancellationKind === 'no_show' ? ('no_show' as const) : ('cancellation' as const),
          }
        : null,
  };
}
export type ManageView = ReturnType<typeof manageView>;

export class ManageBooking {
  constructor(private readonly deps: ManageDeps) {}

  /** The booking a live link opens, or 404. */
  private async open(token: string): Promise<ManagedBookingRow> {
    if (!looksLikeToken(token)) throw linkNotFound();
    const b = await bookingByManageToken(this.deps.sql, hashToken(token), this.deps.clock());
    // A quote, an expired hold or a conflict never had a link; a row in another state is not the customer's to manage.
    if (!b || (b.status !== 'confirmed' && b.status !== 'cancelled')) throw linkNotFound();
    return b;
  }

  async view(token: string): Promise<ManageView> {
    return manageView(await this.open(token), this.deps.clock());
  }

  /**
   * Moves the booking to (date, slot). The target slot's advisory lock serialises it with every booking, quote,
   * block and move of that slot (so of N customers racing for one free slot exactly one wins, the rest get 409),
   * and the one-live-reservation index is the last word. The reservation row moves in place: the old slot is free
   * when this commits, never before, and the job never holds two slots.
   */
  async reschedule(token: string, date: string, slot: TimeSlot): Promise<ManageView> {
    const found = await this.open(token);
    const { outbox } = this.deps;
    let from: string | undefined;
    const run = () =>
      this.deps.sql.$transaction(async (tx) => {
        const now = this.deps.clock();
        await lockSlot(tx, date, slot);
        await lockManaged(tx, found.id);
        const b = await managedBooking(tx, found.id);
        const problem = rescheduleProblem(stateOf(b), now);
        if (problem) throw conflict(problem, undefined, isCancelled(stateOf(b)) ? 'cancelled' : 'started');
        // The booking rules of a new booking: a business day, a slot not started, within the horizon.
        this.deps.window.checkMove(date, slot);
        if (b.scheduledDate === date && b.timeSlot === slot) return b;
        const outcome = await checkSlot(tx, outbox, date, slot, now, b.jobId);
        if (outcome === 'blocked') throw conflict(MSG.slotNoLongerAvailable, undefined, 'slot_unavailable');
        if (outcome === 'taken') throw conflict(MSG.slotJustBooked, undefined, 'slot_taken');
        from = b.scheduledDate;
        await moveReservation(tx, b.jobId, date, slot);
        await moveManageTokenExpiry(tx, b.jobId, manageLinkExpiry(date, slot));
        await outbox.enqueue(
          tx,
          bookingRescheduledEvent(
            {
              jobId: b.jobId,
              jobNumber: b.jobNumber,
              from: { scheduledDate: b.scheduledDate, timeSlot: b.timeSlot },
              to: { scheduledDate: date, timeSlot: slot },
              at: now,
            },
            eventMeta(),
          ),
        );
        return managedBooking(tx, b.id);
      });
    try {
      const moved = await withSerializationRetry(run, 4);
      this.deps.onSlotsChanged(date);
      if (from && from !== date) this.deps.onSlotsChanged(from);
      this.deps.wake();
      return manageView(moved, this.deps.clock());
    } catch (err) {
      if (isSlotTaken(err)) throw conflict(MSG.slotJustBooked, undefined, 'slot_taken');
      throw err;
    }
  }

  /**
   * The customer cancels: the slot is released in the same transaction (bookable again the moment this returns),
   * and the policy's terms at this moment (the kernel's cancellationTerms) are stored and sent with
   * BookingCancelled, which billing (refund or fee), jobs (the job), notify (notice, reminder) apply as they are.
   */
  async cancel(token: string, reason: string | null, expected?: ExpectedTerms): Promise<ManageView> {
    const found = await this.open(token);
    return this.cancelBooking(found.id, {
      by: 'customer',
      userId: null,
      reason,
      waiveFee: false,
      ...(expected ? { expected } : {}),
    });
  }

  /** Staff (dashboard): the booking of a job with the terms cancelling it now would apply. 404 without one. */
  async forStaff(jobId: string): Promise<ManageView> {
    const b = await managedBookingOfJob(this.deps.sql, jobId);
    if (!b || (b.status !== 'confirmed' && b.status !== 'cancelled')) throw notFound(MANAGE_MSG.noBooking);
    return manageView(b, this.deps.clock(), 'staff');
  }

  /**
   * Staff cancel a job's booking (the customer phoned): the same policy and the same transaction as the customer's
   * cancel, with a reason and optionally the fee waived; who did it is stored and sent (the audit trail). Staff may
   * cancel a job already under way (the technician turned back), not one completed.
   */
  async staffCancel(
    jobId: string,
    who: Identity,
    reason: string,
    waiveFee: boolean,
    expected?: ExpectedTerms,
  ): Promise<ManageView> {
    const b = await managedBookingOfJob(this.deps.sql, jobId);
    if (!b || (b.status !== 'confirmed' && b.status !== 'cancelled')) throw notFound(MANAGE_MSG.noBooking);
    return this.cancelBooking(
      b.id,
      { by: 'staff', userId: who.id, reason, waiveFee, ...(expected ? { expected } : {}) },
      'staff',
    );
  }

  /**
   * Staff mark a no-show (the customer was not there once the slot had started): charged in full under the policy
   * (the kernel's noShowTerms: a prepaid booking keeps the whole charge, a pay-on-site one is invoiced the price).
   * The same transaction as a cancel (the booking becomes cancelled with its kind `no_show`, the reservation is
   * released) and the same event, BookingCancelled with `kind: 'no_show'`, which jobs (the job is cancelled with
   * the reason "No-show"), billing (the invoice) and notify apply. 409 before the slot starts, for a cancelled
   * booking and for finished work.
   */
  async markNoShow(jobId: string, who: Identity, note: string | null): Promise<ManageView> {
    const b = await managedBookingOfJob(this.deps.sql, jobId);
    if (!b || (b.status !== 'confirmed' && b.status !== 'cancelled')) throw notFound(MANAGE_MSG.noBooking);
    return this.cancelBooking(
      b.id,
      { by: 'staff', userId: who.id, reason: noShowReason(note), waiveFee: false, kind: 'no_show' },
      'staff',
    );
  }

  private async cancelBooking(
    bookingId: string,
    c: {
      by: 'customer' | 'staff';
      userId: string | null;
      reason: string | null;
      waiveFee: boolean;
      kind?: 'cancellation' | 'no_show';
      /** The terms the page showed when they confirmed: what they consented to. */
      expected?: ExpectedTerms;
    },
    viewer: Viewer = 'customer',
  ): Promise<ManageView> {
    const kind = c.kind ?? 'cancellation';
    const run = () =>
      this.deps.sql.$transaction(async (tx) => {
        const now = this.deps.clock();
        await lockManaged(tx, bookingId);
        const b = await managedBooking(tx, bookingId);
        const state = stateOf(b);
        if (kind === 'no_show') {
          const problem = noShowProblem(state, now);
          if (problem)
            throw conflict(
              problem,
              undefined,
              isCancelled(state)
                ? 'cancelled'
                : problem === MANAGE_MSG.noShowFinished
                  ? 'finished'
                  : 'not_started',
            );
        } else {
          const problem = c.by === 'staff' ? changeProblem(state) : cancelProblem(state);
          if (problem) throw conflict(problem, undefined, isCancelled(state) ? 'cancelled' : 'started');
        }
        const policy = kind === 'no_show' ? noShowTermsOf(b) : termsAt({ ...b, ...state }, now);
        // Consent: the terms are the ones at this moment; if they are not the ones the page showed (a boundary
        // passed between showing and confirming), nothing is cancelled and the page shows the new terms.
        if (c.expected && !sameTerms(c.expected, termsView(policy)))
          throw conflict(MANAGE_MSG.termsChanged, undefined, 'terms_changed');
        // A waived fee is not charged: a customer who paid online gets it back with the refund (the whole charge).
        const paidOnline = b.paymentStatus === 'paid' && b.amountPaid !== null;
        const refund = c.waiveFee && paidOnline ? policy.refund + policy.fee : policy.refund;
        const terms = { ...termsView(policy), refund: formatMoney(refund) };
        await releaseReservation(tx, b.jobId, 'cancelled', now);
        await markCancelled(tx, b.id, {
          cancelledAt: now,
          cancelledBy: c.by,
          cancelledByUserId: c.userId,
          reason: c.reason,
          band: terms.band,
          refundPercent: terms.refundPercent,
          refund: terms.refund,
          fee: terms.fee,
          feeWaived: c.waiveFee,
          kind,
        });
        await this.deps.outbox.enqueue(
          tx,
          bookingCancelledEvent(
            {
              jobId: b.jobId,
              jobNumber: b.jobNumber,
              slot: { scheduledDate: b.scheduledDate, timeSlot: b.timeSlot as TimeSlot },
              cancelledAt: now.toISOString(),
              cancelledBy: c.by,
              cancelledByUserId: c.userId,
              reason: c.reason,
              band: terms.band,
              refundPercent: terms.refundPercent,
              refund: terms.refund,
              fee: terms.fee,
              feeWaived: c.waiveFee,
              paymentMethod: b.paymentMethod === 'prepaid' ? 'prepaid' : 'onsite',
              paymentIntentId: b.paymentStatus === 'paid' ? b.stripePaymentIntentId : null,
              kind,
            },
            eventMeta(),
          ),
        );
        return managedBooking(tx, b.id);
      });
    const cancelled = await withSerializationRetry(run, 4);
    this.deps.onSlotsChanged(cancelled.scheduledDate);
    this.deps.wake();
    return manageView(cancelled, this.deps.clock(), viewer);
  }

  /**
   * The customer's corrections (phone, notes, vehicle; already validated with the booking form's rules). Only what
   * actually differs is written and announced; a request that changes nothing answers the booking as it is.
   */
  async update(token: string, changes: DetailChanges): Promise<ManageView> {
    if (changes.phone === undefined && changes.notes === undefined && changes.vehicle === undefined)
      throw badRequest(MANAGE_MSG.nothingToChange, undefined, 'validation_failed');
    const now0 = this.deps.clock();
    const yearProblem = changes.vehicle ? vehicleYearProblem(changes.vehicle.year, now0) : undefined;
    if (yearProblem)
      throw badRequest(yearProblem, [{ path: 'vehicle.year', message: yearProblem }], 'validation_failed');
    const found = await this.open(token);
    let changed = false;
    const run = () =>
      this.deps.sql.$transaction(async (tx) => {
        const now = this.deps.clock();
        await lockManaged(tx, found.id);
        const b = await managedBooking(tx, found.id);
        const problem = changeProblem(stateOf(b));
        if (problem) throw conflict(problem, undefined, isCancelled(stateOf(b)) ? 'cancelled' : 'finished');
        const diff: DetailChanges = {};
        if (changes.phone !== undefined && changes.phone !== b.customerPhone) diff.phone = changes.phone;
        if (changes.notes !== undefined && changes.notes !== b.notes) diff.notes = changes.notes;
        const v = changes.vehicle;
        if (
          v &&
          (v.make !== b.vehicleMake ||
            v.model !== b.vehicleModel ||
            v.year !== b.vehicleYear ||
            v.color !== b.vehicleColor ||
            v.registration !== b.vehicleRegistration)
        )
          diff.vehicle = v;
        if (Object.keys(diff).length === 0) return b;
        changed = true;
        await updateDetails(tx, b.id, diff, now);
        await this.deps.outbox.enqueue(
          tx,
          bookingUpdatedEvent(
            {
              jobId: b.jobId,
              jobNumber: b.jobNumber,
              ...diff,
              updatedBy: 'customer',
              updatedAt: now.toISOString(),
            },
            eventMeta(),
          ),
        );
        return managedBooking(tx, b.id);
      });
    const updated = await withSerializationRetry(run, 4);
    if (changed) this.deps.wake();
    return manageView(updated, this.deps.clock());
  }

  /**
   * Where the customer's photos go: the booking's own upload target (the same pipeline and limits as at booking
   * time), without the first hour's window: the link itself is the customer's proof, until the work is done.
   */
  async photoTarget(token: string): Promise<UploadTarget> {
    const b = await this.open(token);
    const problem = changeProblem(stateOf(b));
    if (problem) throw conflict(problem, undefined, isCancelled(stateOf(b)) ? 'cancelled' : 'finished');
    return this.deps.photos.uploadTarget(b.jobId, { window: false });
  }

  /** Attaches the received photos (BookingPhotoAdded for each, so the job shows them). */
  storePhotos(target: UploadTarget, type: string, files: ReceivedPhoto[]): Promise<PhotoRow[]> {
    return this.deps.photos.store(target, type, files);
  }
}

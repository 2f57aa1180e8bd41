import {
  NonRetryableError,
  type SqlExecutor,
  type BookingCreated,
  type BookingPhotoAdded,
  type EventOf,
  type PaymentSucceeded,
} from '@tyres/events';
import { weekdayName } from '@tyres/kernel';
import type { Tx } from '../db/client';
import type { InvoiceRecords } from '../db/invoice-records';
import type { JobsRepository, NewJob } from '../db/jobs-repository';
import type { BookingChangeFacts } from './booking-changes';

/**
 * What booking and payments tell the jobs service: a job is adopted from BookingCreated, and photos and payments are
 * kept by job id. Each use case runs in the inbox transaction of its event (src/events/handlers.ts). No order between
 * producers is assumed: a photo, payment or purchase invoice that arrives before its BookingCreated is stored by job
 * id and shows up once the job exists; so do booking's later changes (./booking-changes.ts).
 */
export class BookingFacts {
  constructor(
    private readonly deps: { jobs: JobsRepository; invoices: InvoiceRecords; changes: BookingChangeFacts },
  ) {}

  /** Creates the job with booking's id and number, status new, and booking's payment state. */
  async bookingCreated(tx: Tx, event: EventOf<typeof BookingCreated>): Promise<void> {
    await this.deps.jobs.lockJobId(tx, event.data.jobId);
    await this.adopt(tx, event);
  }

  /**
   * Several bookings in one transaction (the consumer's batches): every job id locked first, in one statement and in
   * id order (two batches sharing ids wait for each other rather than deadlock), then each adopted as
   * `bookingCreated` does, in the order given.
   */
  async bookingsCreated(tx: Tx, events: readonly EventOf<typeof BookingCreated>[]): Promise<void> {
    if (events.length === 0) return;
    await this.deps.jobs.lockJobIds(
      tx,
      events.map((e) => e.data.jobId),
    );
    for (const event of events) await this.adopt(tx, event);
  }

  /**
   * The common case of `bookingsCreated`, on any raw SQL executor (the consumer runs it on the pg driver): every job
   * is new and nothing arrived for it early. Returns false as soon as one is not (an existing job or number, a
   * payment, purchase invoice or booking change waiting): the caller rolls back and runs `bookingsCreated`.
   */
  async bookingsCreatedPlain(
    tx: SqlExecutor,
    events: readonly EventOf<typeof BookingCreated>[],
  ): Promise<boolean> {
    if (events.length === 0) return true;
    await this.deps.jobs.lockJobIds(
      tx,
      events.map((e) => e.data.jobId),
    );
    for (const event of events) {
      const created = await this.deps.jobs.insert(tx, newJobOf(event));
      if (!created || created.purchaseInvoices || created.waitingChanges) return false;
      if (created.firstPaymentIntentId && event.data.paymentStatus !== 'paid') return false;
    }
    return true;
  }

  /** `bookingCreated` once the job id is locked. */
  private async adopt(tx: Tx, event: EventOf<typeof BookingCreated>): Promise<void> {
    const { jobs, invoices } = this.deps;
    const d = event.data;
    const created = await jobs.insert(tx, newJobOf(event));
    if (!created) {
      // Same job again (booking re-sent it under a new event id): already adopted, nothing to do.
      if (await jobs.exists(tx, d.jobId)) return;
      // Another job holds this number: retrying cannot help; the dead-letter queue makes it visible.
      throw new NonRetryableError(`Job number ${d.jobNumber} is already used by another job`);
    }
    // Purchase invoices and payments that arrived before the booking event (the insert said whether there are any:
    // usually none, and then nothing more is read).
    if (created.purchaseInvoices) await invoices.recomputePurchaseCost(tx, d.jobId);
    if (created.firstPaymentIntentId && d.paymentStatus !== 'paid')
      await jobs.setPaid(tx, d.jobId, d.stripePaymentIntentId ?? created.firstPaymentIntentId);
    // Reschedules, cancellations and corrections booking made before this event reached us.
    if (created.waitingChanges) await this.deps.changes.applyWaiting(tx, d.jobId);
  }

  /** Photo metadata; the bytes stay with booking. */
  async photoAdded(tx: Tx, event: EventOf<typeof BookingPhotoAdded>): Promise<void> {
    const d = event.data;
    await this.deps.jobs.addPhoto(tx, {
      id: d.photoId,
      jobId: d.jobId,
      type: d.type,
      filename: d.filename,
      originalName: d.originalName,
      mimeType: d.mimeType,
      size: d.size,
      uploadedAt: new Date(d.uploadedAt),
    });
  }

  /** paymentStatus paid (the job's status is not touched); kept for a job not seen yet. */
  async paymentSucceeded(tx: Tx, event: EventOf<typeof PaymentSucceeded>): Promise<void> {
    const d = event.data;
    if (!d.jobId) return; // a prepaid quote: booking creates the job (BookingCreated, paymentStatus paid)
    await this.deps.jobs.lockJobId(tx, d.jobId);
    await this.deps.jobs.addPayment(tx, {
      paymentId: d.paymentId,
      jobId: d.jobId,
      paymentIntentId: d.paymentIntentId,
      amount: d.amount,
      succeededAt: new Date(d.succeededAt),
    });
    await this.deps.jobs.markPaidByPayment(tx, d.jobId, d.paymentIntentId);
  }
}

/** The job booking announced (BookingCreated): what `JobsRepository.insert` writes. */
function newJobOf(event: EventOf<typeof BookingCreated>): NewJob {
  const d = event.data;
  return {
    id: d.jobId,
    jobNumber: d.jobNumber,
    customerId: d.customerId,
    vehicleId: d.vehicleId,
    customerName: d.customer.name,
    customerEmail: d.customer.email,
    customerPhone: d.customer.phone,
    vehicleMake: d.vehicle.make,
    vehicleModel: d.vehicle.model,
    vehicleYear: d.vehicle.year,
    vehicleColor: d.vehicle.color ?? null,
    vehicleRegistration: d.vehicle.registration,
    serviceType: d.serviceType,
    status: 'new',
    scheduledDate: d.scheduledDate,
    scheduledDay: weekdayName(d.scheduledDate),
    timeSlot: d.timeSlot,
    address: d.address,
    suburb: d.suburb,
    postcode: d.postcode,
    tyreSize: d.tyreSize,
    tyreQuantity: d.tyreQuantity,
    tyreBrand: d.tyreBrand,
    notes: d.notes,
    customerValue: d.customerValue,
    paymentMethod: d.paymentMethod,
    paymentStatus: d.paymentStatus,
    stripePaymentIntentId: d.stripePaymentIntentId ?? null,
    channel: d.channel,
    createdAt: new Date(d.createdAt),
  };
}

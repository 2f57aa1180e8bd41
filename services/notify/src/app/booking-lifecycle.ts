import type {
  BookingCancelled,
  BookingCreated,
  BookingRescheduled,
  BookingUpdated,
  EventOf,
  JobAssigned,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  JobUpdated,
  Slot,
} from '@tyres/events';
import type { Logger } from '@tyres/service-kit';
import { slotStartsAt } from '@tyres/kernel';
import type { BookingRecord, BookingRepository } from '../db/bookings';
import {
  cancelledEmail,
  cancelledSms,
  noShowEmail,
  noShowSms,
  reminderEmail,
  reminderSms,
  rescheduledEmail,
  rescheduledSms,
} from '../domain/booking-messages';
import type { BusinessDetails } from '../domain/messages';
import { planReminder } from '../domain/reminders';
import { reminderJobId, slotKey, type NotifyQueues, type ReminderJobData } from '../workers/queues';
import type { DeliveryRequests } from './delivery-requests';

export interface BookingLifecycleDeps {
  bookings: BookingRepository;
  queues: Pick<NotifyQueues, 'reminders'>;
  requests: Pick<DeliveryRequests, 'enqueue'>;
  business: BusinessDetails;
  smsAttempts: number;
  emailAttempts: number;
  logger: Logger;
  /** The clock reminders are planned by (tests pin it). */
  now?: () => Date;
}

/** Why a reminder job did not queue messages when it ran. */
export type ReminderOutcome = 'queued' | 'unknown-booking' | 'cancelled' | 'moved' | 'slot-started';

const sameSlot = (a: Slot, b: Slot) => a.scheduledDate === b.scheduledDate && a.timeSlot === b.timeSlot;
const slotOf = (r: BookingRecord): Slot => ({ scheduledDate: r.scheduledDate, timeSlot: r.timeSlot });

/**
 * A booking's messages after its confirmation (issue 18 item 3), once per event (the durable `notify` queue):
 *
 * - notify's record of the booking (db/bookings.ts): contact details from BookingCreated, the current slot, whether
 *   it was cancelled: the later events carry no contact details, and the reminder checks it when it runs;
 * - the day-before reminder: a delayed job in the `reminders` queue with a deterministic id per booking and slot
 *   (workers/queues.ts), so replicas and redeliveries add it once; a move removes the old slot's job and adds the
 *   new one, a cancellation removes it, and a job that was not removed (a race, a Redis hiccup) finds the record
 *   changed and sends nothing;
 * - the reschedule and cancellation notices, SMS and email, through the delivery log (its rows are the idempotency
 *   records: a redelivered event sends nothing twice).
 */
export class BookingLifecycle {
  constructor(private readonly deps: BookingLifecycleDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** BookingCreated: record the booking and plan its reminder. */
  async bookingCreated(event: EventOf<typeof BookingCreated>): Promise<void> {
    const b = event.data;
    const record = await this.deps.bookings.recordIfAbsent({
      jobId: b.jobId,
      jobNumber: b.jobNumber,
      customerName: b.customer.name,
      customerEmail: b.customer.email,
      customerPhone: b.customer.phone,
      serviceType: b.serviceType,
      address: `${b.address}, ${b.suburb} ${b.postcode}`,
      suburb: b.suburb,
      scheduledDate: b.scheduledDate,
      timeSlot: b.timeSlot,
    });
    if (!record.cancelledAt) await this.scheduleReminder(record, event.correlationId);
  }

  /** BookingRescheduled (the customer moved it): move the record and the reminder; tell the customer. */
  async bookingRescheduled(event: EventOf<typeof BookingRescheduled>): Promise<void> {
    const { jobId, from, to } = event.data;
    const record = await this.move(jobId, from, to, event.correlationId);
    if (!record || record.cancelledAt) return;
    const key = `booking-rescheduled-${event.id}`;
    await this.notify(record, event, key, 'booking-rescheduled', {
      sms: rescheduledSms(record, to, this.deps.business),
      email: rescheduledEmail(record, from, to, this.deps.business),
    });
  }

  /**
   * JobRescheduled: the reminder follows it. When staff moved the job (`rescheduledBy` a staff member; jobs sends it
   * with none when it applies the customer's own BookingRescheduled, which has its notice already) the customer is
   * told the new time, once per event, as for their own move.
   */
  async jobRescheduled(event: EventOf<typeof JobRescheduled>): Promise<void> {
    const { jobId, from, to, rescheduledBy } = event.data;
    const record = await this.move(jobId, from, to, event.correlationId);
    if (!record) return;
    await this.deps.bookings.assign(jobId, event.data.assignedTechnicianId);
    if (!rescheduledBy || sameSlot(from, to) || record.cancelledAt) return;
    await this.notify(record, event, `booking-rescheduled-${event.id}`, 'booking-rescheduled', {
      sms: rescheduledSms(record, to, this.deps.business),
      email: rescheduledEmail(record, from, to, this.deps.business),
    });
  }

  /** JobAssigned: remembered, so the technician's dashboard hears of the booking's later changes. */
  async jobAssigned(event: EventOf<typeof JobAssigned>): Promise<void> {
    await this.deps.bookings.assign(event.data.jobId, event.data.technicianId);
  }

  /**
   * BookingCancelled: no reminder; the customer is told what the terms mean for their money: a cancellation notice,
   * or for a no-show (kind no_show) a "we missed you" notice with the no-show charge.
   */
  async bookingCancelled(event: EventOf<typeof BookingCancelled>): Promise<void> {
    const c = event.data;
    const record = await this.cancel(c.jobId, c.slot, new Date(c.cancelledAt), c.jobNumber);
    if (!record) return;
    if (c.kind === 'no_show') {
      // Not a cancellation notice: the customer did not cancel; they are told the no-show charge (decisions.md).
      await this.notify(record, event, `booking-no-show-${c.jobId}`, 'booking-no-show', {
        sms: noShowSms(record, c, this.deps.business),
        email: noShowEmail(record, c, this.deps.business),
      });
      return;
    }
    await this.notify(record, event, `booking-cancelled-${c.jobId}`, 'booking-cancelled', {
      sms: cancelledSms(record, c, this.deps.business),
      email: cancelledEmail(record, c, this.deps.business),
    });
  }

  /** JobStatusChanged to cancelled (staff): no reminder. (The notice comes with BookingCancelled.) */
  async jobStatusChanged(event: EventOf<typeof JobStatusChanged>): Promise<void> {
    const d = event.data;
    if (d.to !== 'cancelled') return;
    await this.cancel(
      d.jobId,
      { scheduledDate: d.scheduledDate, timeSlot: d.timeSlot },
      new Date(d.changedAt),
      d.jobNumber,
    );
  }

  /** JobDeleted: no reminder. */
  async jobDeleted(event: EventOf<typeof JobDeleted>): Promise<void> {
    const d = event.data;
    await this.cancel(
      d.jobId,
      { scheduledDate: d.scheduledDate, timeSlot: d.timeSlot },
      new Date(d.deletedAt),
      d.jobNumber,
    );
  }

  /** BookingUpdated: a corrected mobile number is where later messages go. */
  async bookingUpdated(event: EventOf<typeof BookingUpdated>): Promise<void> {
    if (event.data.phone) await this.deps.bookings.updatePhone(event.data.jobId, event.data.phone);
  }

  /**
   * JobUpdated (an admin edited the job): later messages print the edited address. The newest version wins; an
   * older one delivered late and a redelivery change nothing (db/bookings.ts applyJobEdit). notify prints nothing
   * else an edit can change (no vehicle, notes, price or tyres in its messages).
   */
  async jobUpdated(event: EventOf<typeof JobUpdated>): Promise<void> {
    const d = event.data;
    const applied = await this.deps.bookings.applyJobEdit(d.jobId, {
      version: d.version,
      address: `${d.address}, ${d.suburb} ${d.postcode}`,
      suburb: d.suburb,
    });
    if (!applied)
      this.deps.logger.info(
        { jobId: d.jobId, version: d.version },
        'job edit not applied: an older version, or a booking notify never recorded',
      );
  }

  /**
   * A reminder job is due: queue its SMS and email if the booking still has that slot and has not started. The
   * delivery rows are keyed by booking and slot, so a job that runs twice sends once.
   */
  async remind(job: ReminderJobData): Promise<ReminderOutcome> {
    const record = await this.deps.bookings.get(job.bookingJobId);
    if (!record) return 'unknown-booking';
    if (record.cancelledAt) return 'cancelled';
    if (!sameSlot(slotOf(record), job)) return 'moved';
    if (this.now().getTime() >= slotStartsAt(record.scheduledDate, record.timeSlot).getTime())
      return 'slot-started';
    await this.notify(
      record,
      { id: null, correlationId: job.correlationId ?? null, occurredAt: this.now().toISOString() },
      `booking-reminder-${record.jobId}-${slotKey(job)}`,
      'booking-reminder',
      {
        sms: reminderSms(record, job, this.deps.business),
        email: reminderEmail(record, job, this.deps.business),
      },
    );
    return 'queued';
  }

  // --- internals -------------------------------------------------------------------------------------------------

  private async move(
    jobId: string,
    from: Slot,
    to: Slot,
    correlationId: string,
  ): Promise<BookingRecord | null> {
    const before = await this.deps.bookings.get(jobId);
    const record = await this.deps.bookings.moveTo(jobId, to);
    if (!record) {
      this.deps.logger.warn({ jobId }, 'move of a booking notify never recorded: no reminder, no notice');
      return null;
    }
    for (const old of [from, ...(before ? [slotOf(before)] : [])])
      if (!sameSlot(old, to)) await this.dropReminder(jobId, old);
    if (!record.cancelledAt) await this.scheduleReminder(record, correlationId);
    return record;
  }

  private async cancel(
    jobId: string,
    slot: Slot,
    at: Date,
    jobNumber: string,
  ): Promise<BookingRecord | null> {
    const record = await this.deps.bookings.cancel(jobId, at, { jobNumber, ...slot });
    await this.dropReminder(jobId, slot);
    if (record && !sameSlot(slotOf(record), slot)) await this.dropReminder(jobId, slotOf(record));
    if (!record)
      this.deps.logger.warn({ jobId }, 'cancellation of a booking notify never recorded: no notice');
    return record;
  }

  /** Adds the slot's reminder job (a no-op when it exists: same id), unless 5 pm the day before has passed. */
  private async scheduleReminder(record: BookingRecord, correlationId: string): Promise<void> {
    const now = this.now();
    const plan = planReminder(slotOf(record), now);
    if (plan.kind === 'skip') return;
    const data: ReminderJobData = { bookingJobId: record.jobId, ...slotOf(record), correlationId };
    await this.deps.queues.reminders.add('booking-reminder', data, {
      jobId: reminderJobId(data),
      // Due at timestamp + delay (BullMQ): both from one clock, so the job is due at 5 pm Perth exactly.
      delay: plan.at.getTime() - now.getTime(),
      timestamp: now.getTime(),
    });
  }

  /** Removes a slot's reminder job; 0 when absent or running (then the run-time check stops it). */
  private async dropReminder(jobId: string, slot: Slot): Promise<void> {
    await this.deps.queues.reminders.remove(reminderJobId({ bookingJobId: jobId, ...slot }));
  }

  private async notify(
    record: BookingRecord,
    source: { id: string | null; correlationId: string | null; occurredAt: string },
    key: string,
    purpose: string,
    content: { sms: string; email: { subject: string; text: string; html: string } },
  ): Promise<void> {
    const common = {
      purpose,
      jobId: record.jobId,
      sourceEventId: source.id,
      correlationId: source.correlationId,
      requestedAt: new Date(source.occurredAt),
    };
    await this.deps.requests.enqueue({
      ...common,
      key: `sms-${key}`,
      channel: 'sms',
      recipient: record.customerPhone,
      body: content.sms,
      maxAttempts: this.deps.smsAttempts,
    });
    await this.deps.requests.enqueue({
      ...common,
      key: `email-${key}`,
      channel: 'email',
      recipient: record.customerEmail,
      subject: content.email.subject,
      body: content.email.text,
      html: content.email.html,
      maxAttempts: this.deps.emailAttempts,
    });
  }
}

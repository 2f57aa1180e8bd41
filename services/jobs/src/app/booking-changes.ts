import {
  BookingCancelledV1Data,
  BookingRescheduledV1Data,
  BookingUpdatedV1Data,
  causedBy,
  type BookingCancelledV1,
  type BookingRescheduledV1,
  type BookingUpdatedV1,
  type EventEnvelope,
  type EventMeta,
  type EventOf,
  type Outbox,
} from '@tyres/events';
import { weekdayName } from '@tyres/kernel';
import type { Logger } from '@tyres/service-kit';
import type { BookingChangeRow, BookingChanges, ChangeOutcome } from '../db/booking-changes';
import type { Tx } from '../db/client';
import type { JobEdits } from '../db/job-edits';
import type { DetailChanges, JobsRepository } from '../db/jobs-repository';
import type { JobRow } from '../domain/job-view';
import { canTransition, RESCHEDULABLE, stepTime } from '../domain/status';
import { jobRescheduled, jobStatusChanged, SOURCE } from '../events/builders';
import { rereadJob } from './actor';

export type BookingRescheduledEvent = EventOf<typeof BookingRescheduledV1>;
export type BookingCancelledEvent = EventOf<typeof BookingCancelledV1>;
export type BookingUpdatedEvent = EventOf<typeof BookingUpdatedV1>;
type BookingChangeEvent = BookingRescheduledEvent | BookingCancelledEvent | BookingUpdatedEvent;

interface Outcome {
  outcome: Exclude<ChangeOutcome, 'waiting'>;
  note?: string;
  events?: EventEnvelope[];
}

export interface BookingChangeDeps {
  jobs: JobsRepository;
  changes: BookingChanges;
  /** Issue 19: an admin's edits; a customer's older correction of the same field does not overwrite one. */
  edits?: JobEdits;
  outbox: Outbox;
  logger: Logger;
}

const CORRECTABLE = ['phone', 'notes', 'vehicle'] as const;

/** The routing keys handled here, and each payload's schema (to read back a parked change). */
const PAYLOADS = {
  'booking.rescheduled.v1': BookingRescheduledV1Data,
  'booking.cancelled.v1': BookingCancelledV1Data,
  'booking.updated.v1': BookingUpdatedV1Data,
} as const;

/**
 * What booking tells the jobs service after a booking was made (issue 18, "manage my booking" and staff cancels at
 * booking): the customer moved it (BookingRescheduled), it was cancelled with the policy's terms (BookingCancelled),
 * the customer corrected their phone, notes or vehicle (BookingUpdated). Booking has already moved or freed the slot;
 * the job follows. Each use case runs in the inbox transaction of its event (a redelivery changes nothing), and every
 * event is recorded in job_booking_changes with what was done with it.
 *
 * No order is assumed: a change that arrives before its BookingCreated waits (outcome `waiting`) and is applied, in
 * the order the changes happened, in the transaction that creates the job (`applyWaiting`): a job cancelled before
 * jobs saw it is created and cancelled at once. An older reschedule or correction delivered after a newer one is
 * recorded as `stale` and changes nothing.
 */
export class BookingChangeFacts {
  constructor(private readonly deps: BookingChangeDeps) {}

  rescheduled(tx: Tx, event: BookingRescheduledEvent): Promise<void> {
    return this.handle(tx, event, event.data.rescheduledAt);
  }

  cancelled(tx: Tx, event: BookingCancelledEvent): Promise<void> {
    return this.handle(tx, event, event.data.cancelledAt);
  }

  updated(tx: Tx, event: BookingUpdatedEvent): Promise<void> {
    return this.handle(tx, event, event.data.updatedAt);
  }

  /**
   * Applies the changes that arrived before the job did, oldest first, in the BookingCreated transaction (the job
   * row is locked and just inserted).
   */
  async applyWaiting(tx: Tx, jobId: string): Promise<void> {
    const waiting = await this.deps.changes.waiting(tx, jobId);
    for (const row of waiting) {
      const event = parseParked(row);
      const job = await rereadJob(this.deps.jobs, tx, jobId);
      const result = await this.apply(tx, job, event);
      await this.deps.changes.settle(tx, row.eventId, result.outcome, result.note);
      if (result.events?.length) await this.deps.outbox.enqueue(tx, result.events);
      this.log(event, result);
    }
  }

  private async handle(tx: Tx, event: BookingChangeEvent, occurredAt: string): Promise<void> {
    const { jobs, changes } = this.deps;
    const jobId = event.data.jobId;
    // Serialised with BookingCreated of the same job, even before its row exists.
    await jobs.lockJobId(tx, jobId);
    const job = await jobs.lockAny(tx, jobId);
    const row = { eventId: event.id, jobId, type: event.type, occurredAt: new Date(occurredAt), data: event };
    if (!job) {
      await changes.record(tx, { ...row, outcome: 'waiting' });
      this.deps.logger.info(
        { jobId, type: event.type },
        'booking change for a job not seen yet: kept until it arrives',
      );
      return;
    }
    const result = await this.apply(tx, job, event);
    await changes.record(tx, { ...row, outcome: result.outcome, note: result.note });
    if (result.events?.length) await this.deps.outbox.enqueue(tx, result.events);
    this.log(event, result);
  }

  private apply(tx: Tx, job: JobRow, event: BookingChangeEvent): Promise<Outcome> {
    if (job.deletedAt) return Promise.resolve({ outcome: 'not_applied', note: 'the job was deleted' });
    if (event.type === 'booking.rescheduled.v1')
      return this.reschedule(tx, job, event as BookingRescheduledEvent);
    if (event.type === 'booking.cancelled.v1') return this.cancel(tx, job, event as BookingCancelledEvent);
    return this.correct(tx, job, event as BookingUpdatedEvent);
  }

  /** The job moves to the new slot, unless it has moved on or a newer slot change was applied already. */
  private async reschedule(tx: Tx, job: JobRow, event: BookingRescheduledEvent): Promise<Outcome> {
    const d = event.data;
    const at = new Date(d.rescheduledAt);
    if (!RESCHEDULABLE.includes(job.status))
      return { outcome: 'not_applied', note: `the job is ${job.status}; its slot is history` };
    if (job.slotChangedAt && job.slotChangedAt.getTime() >= at.getTime())
      return { outcome: 'stale', note: 'a newer slot change was applied first' };
    const from = { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot };
    const same = from.scheduledDate === d.to.scheduledDate && from.timeSlot === d.to.timeSlot;
    await this.deps.jobs.moveSlot(tx, job.id, { ...d.to, scheduledDay: weekdayName(d.to.scheduledDate) }, at);
    if (same) return { outcome: 'applied', note: 'the job was in that slot already' };
    const after = await rereadJob(this.deps.jobs, tx, job.id);
    // JobRescheduled as for a staff reschedule (billing, reporting, notify follow it); booking's reservation is
    // already there, so its safety-net consumer leaves it as it is.
    return { outcome: 'applied', events: [jobRescheduled(after, from, null, at, metaOf(event))] };
  }

  /**
   * new / in-progress → cancelled (the same arrows as a staff cancel), with booking's time, reason and staff
   * member. A cancellation never undoes finished work: a completed, invoiced or paid job keeps its status and the
   * event is recorded as not applied (logged as a warning: billing applies its terms regardless).
   */
  private async cancel(tx: Tx, job: JobRow, event: BookingCancelledEvent): Promise<Outcome> {
    const d = event.data;
    const reason = d.reason ?? null;
    if (job.status === 'cancelled') {
      if (reason && !job.cancellationReason) await this.deps.jobs.setCancellationReason(tx, job.id, reason);
      return { outcome: 'applied', note: 'the job was cancelled already' };
    }
    if (!canTransition(job.status, 'cancelled'))
      return {
        outcome: 'not_applied',
        note: `the job was ${job.status} already; a cancellation does not undo finished work`,
      };
    const by = d.cancelledByUserId ?? null;
    // Never at or before the job entered its current status, so status times stay in order.
    const at = stepTime(new Date(d.cancelledAt), job.status === 'in-progress' ? job.inProgressAt : null);
    await this.deps.jobs.cancel(tx, job.id, by, at, reason);
    const after = await rereadJob(this.deps.jobs, tx, job.id);
    return { outcome: 'applied', events: [jobStatusChanged(after, job.status, by, at, metaOf(event))] };
  }

  /** Each corrected field, unless a newer correction of that field was applied already. */
  private async correct(tx: Tx, job: JobRow, event: BookingUpdatedEvent): Promise<Outcome> {
    const d = event.data;
    const at = new Date(d.updatedAt);
    const changes: DetailChanges = {};
    const skipped: string[] = [];
    for (const field of CORRECTABLE) {
      if (d[field] === undefined) continue;
      if (
        (await this.deps.changes.newerCorrectionApplied(tx, job.id, field, at)) ||
        // Last writer wins per field: an admin's edit made after the customer's correction stands (issue 19).
        (field !== 'phone' && (await this.deps.edits?.editedSince(tx, job.id, field, at)))
      )
        skipped.push(field);
      else Object.assign(changes, { [field]: d[field] });
    }
    if (Object.keys(changes).length === 0)
      return {
        outcome: 'stale',
        note: `newer corrections or staff edits of ${skipped.join(', ')} were applied first`,
      };
    await this.deps.jobs.updateDetails(tx, job.id, changes);
    return {
      outcome: 'applied',
      note: skipped.length
        ? `newer corrections or staff edits of ${skipped.join(', ')} were applied first`
        : undefined,
    };
  }

  private log(event: BookingChangeEvent, result: Outcome): void {
    const fields = { jobId: event.data.jobId, type: event.type, eventId: event.id, note: result.note };
    if (result.outcome === 'not_applied' && event.type === 'booking.cancelled.v1')
      this.deps.logger.warn(
        fields,
        'booking cancelled but the job has moved on: cancellation recorded, not applied',
      );
    else if (result.outcome !== 'applied') this.deps.logger.info(fields, `booking change ${result.outcome}`);
  }
}

/** The events jobs emits for a booking change carry its correlation id and name it as their cause. */
const metaOf = (event: EventEnvelope): EventMeta => causedBy(event, SOURCE);

/** A parked change: the envelope as received (validated by the bus then), read back with its payload schema. */
function parseParked(row: BookingChangeRow): BookingChangeEvent {
  const envelope = row.data as EventEnvelope;
  const schema = PAYLOADS[row.type as keyof typeof PAYLOADS];
  if (!schema) throw new Error(`unknown parked booking change ${row.type} (${row.eventId})`);
  return { ...envelope, data: schema.parse(envelope.data) } as BookingChangeEvent;
}

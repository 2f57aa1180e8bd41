/**
 * What booking reacts to. Every handler runs in an inbox transaction (the effect and the inbox row commit
 * together), so a redelivered event has no second effect; the effects are also idempotent on their own, because
 * the jobs service's synchronous calls (PUT/DELETE /internal/reservations) usually did the work already.
 */
import {
  createInbox,
  type EventEnvelope,
  type EventHandler,
  type EventOf,
  type JobAssignedV1,
  type JobDeletedV1,
  type JobRescheduledV1,
  type JobStatusChangedV1,
  type Outbox,
  type PaymentSucceededV1,
} from '@tyres/events';
import type { Bookings } from '../db/bookings';
import { DB_SCHEMA, type Db, type Tx } from '../db/client';
import { recordAssignment } from '../db/photos';
import { releaseInTx } from '../db/reservations';
import { claimSlot } from '../db/slots';
import { dateColumnToString } from '../domain/dates';

export interface HandlerDeps {
  db: Db;
  outbox: Outbox;
  wake: () => void;
  clock: () => Date;
  bookings: Bookings;
}

export function bookingHandlers(deps: HandlerDeps) {
  const inbox = createInbox<Tx>(deps.db, {
    schema: DB_SCHEMA,
    transactionOptions: { maxWait: 10_000, timeout: 15_000 },
  });
  /** Wakes the relay after handlers that may have written events. */
  const thenWake =
    <E extends EventEnvelope>(h: EventHandler<E>): EventHandler<E> =>
    async (event, ctx) => {
      const result = await h(event, ctx);
      deps.wake();
      return result;
    };

  /** PaymentSucceeded: the prepaid quote becomes a booking (BookingCreated with paymentStatus paid). */
  const onPaymentSucceeded = thenWake(
    inbox.handler<EventOf<typeof PaymentSucceededV1>>(
      'booking.confirmPrepaidBooking',
      async (tx, event, ctx) => {
        const outcome = await deps.bookings.confirmPayment(tx, event);
        ctx.logger.info(
          { outcome, quoteId: event.data.quoteId, jobId: event.data.jobId },
          'payment succeeded',
        );
      },
    ),
  );

  /** JobDeleted: free the job's slot if the synchronous DELETE did not already. */
  const onJobDeleted = inbox.handler<EventOf<typeof JobDeletedV1>>(
    'booking.releaseOnJobDeleted',
    async (tx, event, ctx) => {
      const freed = await releaseInTx(
        tx,
        event.data.jobId,
        'deleted',
        deps.clock(),
        new Date(event.data.deletedAt),
      );
      if (freed)
        ctx.logger.info(
          { jobId: event.data.jobId },
          'slot freed from JobDeleted (the internal call had not done it)',
        );
    },
  );

  /** JobStatusChanged to cancelled: free the slot if the synchronous DELETE did not already. */
  const onJobStatusChanged = inbox.handler<EventOf<typeof JobStatusChangedV1>>(
    'booking.releaseOnJobCancelled',
    async (tx, event, ctx) => {
      if (event.data.to !== 'cancelled' || event.data.from === 'cancelled') return;
      const freed = await releaseInTx(
        tx,
        event.data.jobId,
        'cancelled',
        deps.clock(),
        new Date(event.data.changedAt),
      );
      if (freed) ctx.logger.info({ jobId: event.data.jobId }, 'slot freed from JobStatusChanged(cancelled)');
    },
  );

  /**
   * JobRescheduled: normally the PUT already moved the reservation (then this is a no-op). If the reservation is
   * still at `from` and nothing changed it since, move it; if `to` is not free any more, log and leave it (jobs
   * only emits after booking accepted the move, so this means something newer happened).
   */
  const onJobRescheduled = thenWake(
    inbox.handler<EventOf<typeof JobRescheduledV1>>(
      'booking.moveOnJobRescheduled',
      async (tx, event, ctx) => {
        const { jobId, from, to, rescheduledAt } = event.data;
        const r = await tx.slotReservation.findUnique({ where: { jobId } });
        if (!r || r.releasedAt) return;
        const at = { date: dateColumnToString(r.date), slot: r.timeSlot };
        if (at.date === to.scheduledDate && at.slot === to.timeSlot) return;
        if (
          at.date !== from.scheduledDate ||
          at.slot !== from.timeSlot ||
          r.updatedAt > new Date(rescheduledAt)
        )
          return;
        const outcome = await claimSlot(tx, deps.outbox, to.scheduledDate, to.timeSlot, deps.clock(), jobId);
        if (outcome !== 'reserved') {
          ctx.logger.warn(
            { jobId, to, outcome },
            'JobRescheduled: target slot not free; reservation left where it is',
          );
          return;
        }
        await tx.$executeRawUnsafe(
          `UPDATE booking.slot_reservations SET date = $2::date, time_slot = $3, updated_at = now() WHERE job_id = $1::uuid`,
          jobId,
          to.scheduledDate,
          to.timeSlot,
        );
        ctx.logger.info(
          { jobId, from, to },
          'reservation moved from JobRescheduled (the internal call had not done it)',
        );
      },
    ),
  );

  /** JobAssigned: who may see the job's photos. */
  const onJobAssigned = inbox.handler<EventOf<typeof JobAssignedV1>>(
    'booking.recordJobAssignment',
    async (tx, event) => {
      await recordAssignment(tx, event.data.jobId, event.data.technicianId, new Date(event.data.assignedAt));
    },
  );

  return { onPaymentSucceeded, onJobDeleted, onJobStatusChanged, onJobRescheduled, onJobAssigned };
}

export type BookingHandlers = ReturnType<typeof bookingHandlers>;

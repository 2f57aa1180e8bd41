/**
 * What booking does with the events it consumes (the list: ./subscriptions.ts). Thin: every handler runs one use
 * case in an inbox transaction (the effect and the inbox row commit together), so a redelivered event has no second
 * effect; the effects are also idempotent on their own, because the jobs service's synchronous calls (PUT/DELETE
 * /internal/reservations) usually did the work already. The inbox names (`booking.…`) are the keys of the events
 * already handled: never rename them.
 */
import type {
  EventEnvelope,
  EventHandler,
  EventOf,
  Inbox,
  JobAssignedV1,
  JobDeletedV1,
  JobRescheduledV1,
  JobStatusChangedV1,
  JobUpdatedV1,
  PaymentSucceededV1,
} from '@tyres/events';
import type { BookingUseCases } from '../app/bookings';
import type { Photos } from '../app/photos';
import type { Reservations } from '../app/reservations';
import type { Tx } from '../db/client';
import { applyJobEdit } from '../db/job-edits';
import { recordJobStatus } from '../db/manage';

export interface HandlerDeps {
  /** The booking schema's inbox. */
  inbox: Inbox<Tx>;
  /** Nudges the outbox relay once a handler's transaction committed. */
  wake: () => void;
  bookings: BookingUseCases;
  reservations: Reservations;
  photos: Photos;
}

export function bookingHandlers(deps: HandlerDeps) {
  const { inbox, bookings, reservations, photos } = deps;
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
        const outcome = await bookings.confirmPayment(tx, event);
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
      const { jobId, deletedAt } = event.data;
      if (await reservations.releaseOnEvent(tx, jobId, 'deleted', new Date(deletedAt)))
        ctx.logger.info({ jobId }, 'slot freed from JobDeleted (the internal call had not done it)');
    },
  );

  /**
   * JobStatusChanged: the job's progress (what the customer's manage page still allows), and, to cancelled, free
   * the slot if the synchronous DELETE did not already.
   */
  const onJobStatusChanged = inbox.handler<EventOf<typeof JobStatusChangedV1>>(
    'booking.releaseOnJobCancelled',
    async (tx, event, ctx) => {
      const { jobId, from, to, changedAt } = event.data;
      await recordJobStatus(tx, jobId, to);
      if (to !== 'cancelled' || from === 'cancelled') return;
      if (await reservations.releaseOnEvent(tx, jobId, 'cancelled', new Date(changedAt)))
        ctx.logger.info({ jobId }, 'slot freed from JobStatusChanged(cancelled)');
    },
  );

  /** JobRescheduled: move the reservation if the synchronous PUT did not already. */
  const onJobRescheduled = thenWake(
    inbox.handler<EventOf<typeof JobRescheduledV1>>(
      'booking.moveOnJobRescheduled',
      async (tx, event, ctx) => {
        await reservations.moveOnEvent(tx, event.data, ctx.logger);
      },
    ),
  );

  /** JobAssigned: who may see the job's photos. */
  const onJobAssigned = inbox.handler<EventOf<typeof JobAssignedV1>>(
    'booking.recordJobAssignment',
    async (tx, event) => {
      await photos.recordAssignment(
        tx,
        event.data.jobId,
        event.data.technicianId,
        new Date(event.data.assignedAt),
      );
    },
  );

  /**
   * JobUpdated: an admin edited the job (price, address, vehicle, notes, tyres). The booking keeps the edited price
   * for its cancellation and no-show terms and its manage page, and shows what staff corrected; the newest version
   * wins, and a customer's later correction of notes or vehicle is kept (db/job-edits.ts).
   */
  const onJobUpdated = inbox.handler<EventOf<typeof JobUpdatedV1>>(
    'booking.applyJobEdit',
    async (tx, event, ctx) => {
      const { jobId, version } = event.data;
      const outcome = await applyJobEdit(tx, event.data);
      if (outcome !== 'applied') ctx.logger.info({ jobId, version, outcome }, 'job edit not applied whole');
    },
  );

  return {
    onPaymentSucceeded,
    onJobDeleted,
    onJobStatusChanged,
    onJobRescheduled,
    onJobAssigned,
    onJobUpdated,
  };
}

export type BookingHandlers = ReturnType<typeof bookingHandlers>;

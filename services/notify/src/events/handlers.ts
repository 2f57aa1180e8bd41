import type {
  BookingCancelled,
  BookingCreated,
  BookingRescheduled,
  BookingUpdated,
  EmailRequested,
  EventOf,
  JobAssigned,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  SmsRequested,
  UserStatusChanged,
} from '@tyres/events';
import type { BookingLifecycle } from '../app/booking-lifecycle';
import type { DeliveryRequests } from '../app/delivery-requests';
import type { LiveNotifications } from '../app/live-notifications';

/**
 * The event handlers, thin: each calls its use cases. The durable ones need no inbox of their own: the delivery
 * row, keyed by the message, is their idempotency record (app/delivery-requests.ts), the booking record's updates
 * are idempotent and the reminder job's id is deterministic (app/booking-lifecycle.ts). The live ones run on every
 * replica, at most once. What each handler consumes: ./subscriptions.ts.
 */
export function notifyHandlers(deps: {
  requests: DeliveryRequests;
  lifecycle: BookingLifecycle;
  live: LiveNotifications;
}) {
  const { requests, lifecycle, live } = deps;
  return {
    /** Once per event, by whichever replica takes it from the durable `notify` queue. */
    durable: {
      bookingCreated: async (event: EventOf<typeof BookingCreated>) => {
        const confirmation = await requests.bookingCreated(event);
        await lifecycle.bookingCreated(event);
        return confirmation;
      },
      bookingRescheduled: (event: EventOf<typeof BookingRescheduled>) => lifecycle.bookingRescheduled(event),
      bookingCancelled: (event: EventOf<typeof BookingCancelled>) => lifecycle.bookingCancelled(event),
      bookingUpdated: (event: EventOf<typeof BookingUpdated>) => lifecycle.bookingUpdated(event),
      jobAssigned: (event: EventOf<typeof JobAssigned>) => lifecycle.jobAssigned(event),
      jobRescheduled: (event: EventOf<typeof JobRescheduled>) => lifecycle.jobRescheduled(event),
      jobStatusChanged: (event: EventOf<typeof JobStatusChanged>) => lifecycle.jobStatusChanged(event),
      jobDeleted: (event: EventOf<typeof JobDeleted>) => lifecycle.jobDeleted(event),
      smsRequested: (event: EventOf<typeof SmsRequested>) => requests.smsRequested(event),
      emailRequested: (event: EventOf<typeof EmailRequested>) => requests.emailRequested(event),
    },
    /** Every replica, for its own sockets. */
    live: {
      bookingCreated: (event: EventOf<typeof BookingCreated>) => live.bookingCreated(event),
      bookingRescheduled: (event: EventOf<typeof BookingRescheduled>) => live.bookingRescheduled(event),
      bookingCancelled: (event: EventOf<typeof BookingCancelled>) => live.bookingCancelled(event),
      bookingUpdated: (event: EventOf<typeof BookingUpdated>) => live.bookingUpdated(event),
      jobAssigned: (event: EventOf<typeof JobAssigned>) => live.jobAssigned(event),
      userStatusChanged: (event: EventOf<typeof UserStatusChanged>) => live.userStatusChanged(event),
    },
  };
}

export type NotifyHandlers = ReturnType<typeof notifyHandlers>;

import type {
  BookingCancelled,
  BookingCreated,
  CustomerInvoiceIssuedV2,
  CustomerInvoiceUpdatedV2,
  BookingRescheduled,
  BookingUpdated,
  EmailRequested,
  EventOf,
  JobAssigned,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  JobUpdated,
  SmsRequested,
  UserStatusChanged,
} from '@tyres/events';
import type { BookingLifecycle } from '../app/booking-lifecycle';
import type { Confirmations } from '../app/confirmations';
import type { DeliveryRequests } from '../app/delivery-requests';
import type { LiveNotifications } from '../app/live-notifications';
import type { ReviewRequests } from '../app/review-requests';
import { MANAGE_LINK_PURPOSE } from '../domain/messages';

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
  confirmations: Confirmations;
  reviews: ReviewRequests;
}) {
  const { requests, lifecycle, live, confirmations, reviews } = deps;
  return {
    /** Once per event, by whichever replica takes it from the durable `notify` queue. */
    durable: {
      bookingCreated: async (event: EventOf<typeof BookingCreated>) => {
        const confirmation = await confirmations.bookingCreated(event);
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
      jobUpdated: (event: EventOf<typeof JobUpdated>) => lifecycle.jobUpdated(event),
      // booking's manage-link messages are folded into the confirmation (app/confirmations.ts).
      smsRequested: async (event: EventOf<typeof SmsRequested>) =>
        event.data.purpose === MANAGE_LINK_PURPOSE && (await confirmations.manageLink(event)) === 'merged'
          ? undefined
          : requests.smsRequested(event),
      emailRequested: async (event: EventOf<typeof EmailRequested>) =>
        event.data.purpose === MANAGE_LINK_PURPOSE && (await confirmations.manageLink(event)) === 'merged'
          ? undefined
          : requests.emailRequested(event),
      jobCompleted: async (event: EventOf<typeof JobCompleted>) => {
        await reviews.jobCompleted(event);
      },
      invoicePaid: async (
        event: EventOf<typeof CustomerInvoiceUpdatedV2> | EventOf<typeof CustomerInvoiceIssuedV2>,
      ) => {
        await reviews.invoicePaid(event);
      },
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

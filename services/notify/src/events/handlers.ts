import type {
  BookingCreated,
  EmailRequested,
  EventOf,
  JobAssigned,
  SmsRequested,
  UserStatusChanged,
} from '@tyres/events';
import type { DeliveryRequests } from '../app/delivery-requests';
import type { LiveNotifications } from '../app/live-notifications';

/**
 * The event handlers, thin: each calls one use case. The durable ones need no inbox of their own: the delivery
 * row, keyed by the message, is their idempotency record (app/delivery-requests.ts). The live ones run on every
 * replica, at most once. What each handler consumes: ./subscriptions.ts.
 */
export function notifyHandlers(deps: { requests: DeliveryRequests; live: LiveNotifications }) {
  const { requests, live } = deps;
  return {
    /** Once per event, by whichever replica takes it from the durable `notify` queue. */
    durable: {
      bookingCreated: (event: EventOf<typeof BookingCreated>) => requests.bookingCreated(event),
      smsRequested: (event: EventOf<typeof SmsRequested>) => requests.smsRequested(event),
      emailRequested: (event: EventOf<typeof EmailRequested>) => requests.emailRequested(event),
    },
    /** Every replica, for its own sockets. */
    live: {
      bookingCreated: (event: EventOf<typeof BookingCreated>) => live.bookingCreated(event),
      jobAssigned: (event: EventOf<typeof JobAssigned>) => live.jobAssigned(event),
      userStatusChanged: (event: EventOf<typeof UserStatusChanged>) => live.userStatusChanged(event),
    },
  };
}

export type NotifyHandlers = ReturnType<typeof notifyHandlers>;

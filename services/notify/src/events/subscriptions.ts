import {
  BookingCreated,
  EmailRequested,
  JobAssigned,
  SmsRequested,
  UserStatusChanged,
  type EventBus,
} from '@tyres/events';
import type { NotifyHandlers } from './handlers';
import type { LiveFeed } from './live-feed';

/**
 * Everything notify consumes, in one place: contract → handler (./handlers.ts), on two routes.
 *
 * - The durable `notify` queue (competing consumers: once per event across replicas). Malformed messages, unknown
 *   versions and invalid payloads are dead-lettered by the bus before reaching a handler.
 * - The live feed (./live-feed.ts: an exclusive queue per replica, every event, at most once), for the dashboards
 *   connected to this replica.
 */
export function subscribeNotify(bus: EventBus, liveFeed: LiveFeed, h: NotifyHandlers): void {
  // booking: the confirmation email; jobs (and anyone else): SMS and email requests.
  bus.subscribe(BookingCreated, h.durable.bookingCreated);
  bus.subscribe(SmsRequested, h.durable.smsRequested);
  bus.subscribe(EmailRequested, h.durable.emailRequested);

  // Live: new_booking to admins; assignment notices to technicians; a deactivated user's sockets closed.
  liveFeed.on(BookingCreated, h.live.bookingCreated);
  liveFeed.on(JobAssigned, h.live.jobAssigned);
  liveFeed.on(UserStatusChanged, h.live.userStatusChanged);
}

import type {
  BookingCancelled,
  BookingCreated,
  BookingRescheduled,
  BookingUpdated,
  EventOf,
  JobAssigned,
  UserStatusChanged,
} from '@tyres/events';
import {
  bookingCancelledMessage,
  bookingRescheduledMessage,
  bookingUpdatedMessage,
  deliveriesForBookingChange,
  type BookingAudience,
  deliveriesForAssignment,
  deliveriesForBooking,
  smsDeliveryNotice,
  type Delivery,
  type DeliveryOutcome,
} from '../domain/notifications';

/** This replica's connected dashboards (ws/hub.ts). */
export interface Dashboards {
  /** Writes one notification to the admins' or one user's sockets here; returns how many got it. */
  deliver(delivery: Delivery): number;
  /** Closes a deactivated account's sockets here. */
  disconnectDeactivated(userId: string): number;
}

/** The per-user channel every replica listens to (ws/user-messages.ts, Redis pub/sub). Never throws. */
export interface UserMessagePublisher {
  publish(delivery: Extract<Delivery, { to: 'user' }>): Promise<void>;
}

/**
 * What the dashboards hear, live. Events come on the live feed (every replica, for its own sockets); what notify
 * produces itself for one user (how an SMS they asked for ended) goes through the user-message channel, because the
 * worker that finished it may run on another replica than the user's sockets. At most once: only useful live.
 */
export class LiveNotifications {
  constructor(
    private readonly deps: {
      dashboards: Dashboards;
      userMessages: UserMessagePublisher;
      /** notify's booking record (suburb, technician); null when the booking is unknown here. */
      audience: (jobId: string) => Promise<BookingAudience | null>;
    },
  ) {}

  /** BookingCreated: new_booking to every admin connected here. */
  bookingCreated(event: EventOf<typeof BookingCreated>): void {
    this.deliverAll(deliveriesForBooking(event.data));
  }

  /** JobAssigned: new_booking + job_assigned to the technician, job_unassigned to the previous one. */
  jobAssigned(event: EventOf<typeof JobAssigned>): void {
    this.deliverAll(deliveriesForAssignment(event.data));
  }

  /** BookingRescheduled: booking_rescheduled to admins and the job's technician. */
  async bookingRescheduled(event: EventOf<typeof BookingRescheduled>): Promise<void> {
    const audience = await this.deps.audience(event.data.jobId);
    this.deliverAll(deliveriesForBookingChange(bookingRescheduledMessage(event.data), audience));
  }

  /** BookingCancelled: booking_cancelled to admins and the job's technician. */
  async bookingCancelled(event: EventOf<typeof BookingCancelled>): Promise<void> {
    const audience = await this.deps.audience(event.data.jobId);
    this.deliverAll(deliveriesForBookingChange(bookingCancelledMessage(event.data), audience));
  }

  /** BookingUpdated: booking_updated (which details changed) to admins and the job's technician. */
  async bookingUpdated(event: EventOf<typeof BookingUpdated>): Promise<void> {
    const audience = await this.deps.audience(event.data.jobId);
    this.deliverAll(deliveriesForBookingChange(bookingUpdatedMessage(event.data), audience));
  }

  /** UserStatusChanged: a deactivated user's sockets are closed. */
  userStatusChanged(event: EventOf<typeof UserStatusChanged>): void {
    if (!event.data.isActive) this.deps.dashboards.disconnectDeactivated(event.data.userId);
  }

  /** A delivery ended (sent or given up): the staff member who asked for the SMS hears it, wherever connected. */
  deliveryFinished(
    delivery: { channel: string; requestedBy: string | null; jobId: string | null; purpose: string },
    result: DeliveryOutcome,
  ): void {
    const notice = smsDeliveryNotice(delivery, result);
    if (notice?.to === 'user') void this.deps.userMessages.publish(notice);
  }

  private deliverAll(list: Delivery[]): void {
    for (const d of list) this.deps.dashboards.deliver(d);
  }
}

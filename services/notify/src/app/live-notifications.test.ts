import { BookingCreated, createEvent, JobAssigned, UserStatusChanged } from '@tyres/events';
import { randomUUID } from 'node:crypto';
import type { Delivery } from '../domain/notifications';
import { bookingCreated, jobAssigned } from '../../test/fixtures';
import { LiveNotifications } from './live-notifications';

function fakes() {
  const delivered: Delivery[] = [];
  const deactivated: string[] = [];
  const published: Delivery[] = [];
  const live = new LiveNotifications({
    dashboards: {
      deliver: (d) => {
        delivered.push(d);
        return 1;
      },
      disconnectDeactivated: (userId) => {
        deactivated.push(userId);
        return 1;
      },
    },
    userMessages: {
      publish: async (d) => {
        published.push(d);
      },
    },
  });
  return { live, delivered, deactivated, published };
}

const meta = { source: 'test', correlationId: 'c1' };

describe('LiveNotifications', () => {
  it('BookingCreated: new_booking to the admins, with the suburb for their filters', () => {
    const { live, delivered } = fakes();
    const data = bookingCreated({ suburb: 'Mandurah' });
    live.bookingCreated(createEvent(BookingCreated, data, meta));
    expect(delivered).toEqual([
      expect.objectContaining({
        to: 'admins',
        suburb: 'Mandurah',
        message: expect.objectContaining({ type: 'new_booking' }),
      }),
    ]);
  });

  it('JobAssigned: the technician hears new_booking and job_assigned', () => {
    const { live, delivered } = fakes();
    const technicianId = randomUUID();
    live.jobAssigned(createEvent(JobAssigned, jobAssigned({ technicianId }), meta));
    expect(delivered.map((d) => (d.to === 'user' ? [d.userId, d.message.type] : []))).toEqual([
      [technicianId, 'new_booking'],
      [technicianId, 'job_assigned'],
    ]);
  });

  it("UserStatusChanged: only a deactivation closes the user's sockets", () => {
    const { live, deactivated } = fakes();
    const userId = randomUUID();
    const change = (isActive: boolean) =>
      createEvent(
        UserStatusChanged,
        { userId, username: 'tech', role: 'technician', isActive, changedAt: new Date().toISOString() },
        meta,
      );
    live.userStatusChanged(change(true));
    expect(deactivated).toEqual([]);
    live.userStatusChanged(change(false));
    expect(deactivated).toEqual([userId]);
  });

  it('a finished SMS is published to the user who asked for it, and to nobody for an email', () => {
    const { live, published } = fakes();
    live.deliveryFinished(
      { channel: 'sms', requestedBy: 'u1', jobId: 'j1', purpose: 'technician-en-route' },
      { outcome: 'sent', transport: 'twilio' },
    );
    live.deliveryFinished(
      { channel: 'email', requestedBy: 'u1', jobId: 'j1', purpose: 'booking-confirmation' },
      { outcome: 'sent', transport: 'smtp' },
    );
    expect(published).toEqual([
      {
        to: 'user',
        userId: 'u1',
        message: {
          type: 'sms_delivery',
          data: { jobId: 'j1', purpose: 'technician-en-route', status: 'sent', message: 'SMS sent' },
        },
      },
    ]);
  });
});

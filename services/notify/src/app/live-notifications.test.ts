import {
  BookingCancelled,
  BookingCreated,
  BookingRescheduled,
  BookingUpdated,
  createEvent,
  JobAssigned,
  UserStatusChanged,
} from '@tyres/events';
import { randomUUID } from 'node:crypto';
import type { BookingAudience, Delivery } from '../domain/notifications';
import { bookingCreated, jobAssigned } from '../../test/fixtures';
import { LiveNotifications } from './live-notifications';

function fakes(audiences: Record<string, BookingAudience> = {}) {
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
    audience: async (jobId) => audiences[jobId] ?? null,
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

  const jobId = randomUUID();
  const technicianId = randomUUID();
  const slot = { scheduledDate: '2026-11-26', timeSlot: '8-10 AM' as const };

  it('BookingRescheduled: booking_rescheduled to the admins and the assigned technician, in the suburb', async () => {
    const { live, delivered } = fakes({
      [jobId]: { suburb: 'Mandurah', assignedTechnicianId: technicianId },
    });
    const data = {
      jobId,
      jobNumber: 'JOB-2026-0042',
      from: slot,
      to: { scheduledDate: '2026-11-27', timeSlot: '2-4 PM' as const },
      rescheduledBy: 'customer' as const,
      rescheduledAt: '2026-11-24T03:00:00.000Z',
    };
    await live.bookingRescheduled(createEvent(BookingRescheduled, data, meta));
    const message = { type: 'booking_rescheduled', data };
    expect(delivered).toEqual([
      { to: 'admins', message, suburb: 'Mandurah' },
      { to: 'user', userId: technicianId, message, suburb: 'Mandurah' },
    ]);
  });

  it('BookingCancelled: booking_cancelled with the terms; admins only when no technician is known', async () => {
    const { live, delivered } = fakes();
    const data = {
      jobId,
      jobNumber: 'JOB-2026-0042',
      slot,
      cancelledAt: '2026-11-24T03:00:00.000Z',
      cancelledBy: 'staff' as const,
      reason: 'Customer sold the car',
      band: 'half_refund' as const,
      refundPercent: 50,
      refund: '0.00',
      fee: '64.90',
      feeWaived: true,
      paymentMethod: 'onsite' as const,
    };
    await live.bookingCancelled(createEvent(BookingCancelled, data, meta));
    expect(delivered).toEqual([
      {
        to: 'admins',
        message: {
          type: 'booking_cancelled',
          data: {
            jobId,
            jobNumber: 'JOB-2026-0042',
            scheduledDate: '2026-11-26',
            timeSlot: '8-10 AM',
            cancelledAt: '2026-11-24T03:00:00.000Z',
            cancelledBy: 'staff',
            band: 'half_refund',
            refund: '0.00',
            fee: '64.90',
            feeWaived: true,
            kind: 'cancellation',
          },
        },
      },
    ]);
  });

  it('BookingCancelled of kind no_show: booking_cancelled says it was a no-show', async () => {
    const { live, delivered } = fakes();
    await live.bookingCancelled(
      createEvent(
        BookingCancelled,
        {
          jobId,
          jobNumber: 'JOB-2026-0043',
          slot,
          cancelledAt: '2026-11-26T01:00:00.000Z',
          cancelledBy: 'staff' as const,
          reason: 'No-show',
          band: 'no_refund' as const,
          refundPercent: 0,
          refund: '0.00',
          fee: '129.80',
          feeWaived: false,
          paymentMethod: 'onsite' as const,
          kind: 'no_show' as const,
        },
        meta,
      ),
    );
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.message).toMatchObject({
      type: 'booking_cancelled',
      data: { jobNumber: 'JOB-2026-0043', kind: 'no_show', fee: '129.80', refund: '0.00' },
    });
  });

  it('BookingUpdated: booking_updated names the changed details, not their values', async () => {
    const { live, delivered } = fakes({ [jobId]: { suburb: 'Joondalup', assignedTechnicianId: null } });
    const data = {
      jobId,
      jobNumber: 'JOB-2026-0042',
      phone: '0412 000 111',
      notes: null,
      updatedBy: 'customer' as const,
      updatedAt: '2026-11-24T03:00:00.000Z',
    };
    await live.bookingUpdated(createEvent(BookingUpdated, data, meta));
    expect(delivered).toEqual([
      {
        to: 'admins',
        message: {
          type: 'booking_updated',
          data: { jobId, jobNumber: 'JOB-2026-0042', changed: ['phone', 'notes'], updatedAt: data.updatedAt },
        },
        suburb: 'Joondalup',
      },
    ]);
  });
});

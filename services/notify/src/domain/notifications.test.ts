import { bookingCreated, jobAssigned } from '../../test/fixtures';
import {
  deliveriesForAssignment,
  deliveriesForBooking,
  matchesSuburb,
  MAX_SUBSCRIBED_SUBURBS,
  parseClientMessage,
  smsDeliveryNotice,
  suburbFilter,
} from './notifications';

describe('parseClientMessage', () => {
  it('accepts ping', () => {
    expect(parseClientMessage('{"type":"ping"}')).toEqual({ ok: true, message: { type: 'ping' } });
  });

  it('accepts subscribe_suburbs with suburbs at the top level or under data', () => {
    expect(parseClientMessage('{"type":"subscribe_suburbs","suburbs":[" Perth ","Fremantle"]}')).toEqual({
      ok: true,
      message: { type: 'subscribe_suburbs', suburbs: ['Perth', 'Fremantle'] },
    });
    expect(parseClientMessage('{"type":"subscribe_suburbs","data":{"suburbs":[]}}')).toEqual({
      ok: true,
      message: { type: 'subscribe_suburbs', suburbs: [] },
    });
  });

  it.each([
    ['not json', 'malformed_json'],
    ['[1,2]', 'invalid_message'],
    ['null', 'invalid_message'],
    ['{"kind":"ping"}', 'invalid_message'],
    ['{"type":42}', 'invalid_message'],
    ['{"type":"subscribe_suburbs"}', 'invalid_message'],
    ['{"type":"subscribe_suburbs","suburbs":"Perth"}', 'invalid_message'],
    ['{"type":"subscribe_suburbs","suburbs":[""]}', 'invalid_message'],
    ['{"type":"subscribe_suburbs","suburbs":[1]}', 'invalid_message'],
    ['{"type":"delete_everything"}', 'unknown_type'],
  ])('rejects %s as %s', (text, code) => {
    const result = parseClientMessage(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(code);
      expect(result.message.length).toBeGreaterThan(0);
    }
  });

  it('caps the suburb list', () => {
    const suburbs = Array.from({ length: MAX_SUBSCRIBED_SUBURBS + 1 }, (_, i) => `S${i}`);
    const result = parseClientMessage(JSON.stringify({ type: 'subscribe_suburbs', suburbs }));
    expect(result).toMatchObject({
      ok: false,
      code: 'invalid_message',
      message: `at most ${MAX_SUBSCRIBED_SUBURBS} suburbs`,
    });
  });
});

describe('suburb filter', () => {
  it('empty means every suburb', () => {
    expect(suburbFilter([])).toBeNull();
    expect(matchesSuburb(null, 'Anywhere')).toBe(true);
  });

  it('matches case-insensitively, ignoring spaces and hyphens', () => {
    const filter = suburbFilter(['Mount Lawley', 'fremantle']);
    expect(matchesSuburb(filter, 'mount-lawley')).toBe(true);
    expect(matchesSuburb(filter, '  MOUNT   LAWLEY ')).toBe(true);
    expect(matchesSuburb(filter, 'Fremantle')).toBe(true);
    expect(matchesSuburb(filter, 'Perth')).toBe(false);
    expect(matchesSuburb(filter, undefined)).toBe(false);
  });
});

describe('who gets what', () => {
  it('a new booking goes to the admins as new_booking with the spec fields only', () => {
    const b = bookingCreated();
    expect(deliveriesForBooking(b)).toEqual([
      {
        to: 'admins',
        suburb: b.suburb,
        message: {
          type: 'new_booking',
          data: {
            id: b.jobId,
            jobNumber: b.jobNumber,
            serviceType: b.serviceType,
            suburb: b.suburb,
            timeSlot: b.timeSlot,
            createdAt: b.createdAt,
          },
        },
      },
    ]);
  });

  it('an assignment goes to the technician as new_booking and job_assigned', () => {
    const a = jobAssigned();
    const out = deliveriesForAssignment(a);
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual({
      to: 'user',
      userId: a.technicianId,
      suburb: 'Fremantle',
      message: {
        type: 'new_booking',
        data: {
          id: a.jobId,
          jobNumber: a.jobNumber,
          serviceType: 'puncture-repair',
          suburb: 'Fremantle',
          timeSlot: a.timeSlot,
          createdAt: a.assignedAt,
        },
      },
    });
    expect(out[1]).toMatchObject({
      to: 'user',
      userId: a.technicianId,
      message: { type: 'job_assigned', data: { jobId: a.jobId } },
    });
  });

  it('a reassignment tells the previous technician', () => {
    const a = jobAssigned({ previousTechnicianId: '00000000-0000-4000-8000-000000000009' });
    expect(
      deliveriesForAssignment(a).map((d) => [d.to === 'user' ? d.userId : 'admins', d.message.type]),
    ).toEqual([
      [a.technicianId, 'new_booking'],
      [a.technicianId, 'job_assigned'],
      ['00000000-0000-4000-8000-000000000009', 'job_unassigned'],
    ]);
  });

  it('unassigning only tells the previous technician', () => {
    const a = jobAssigned({
      technicianId: null,
      previousTechnicianId: '00000000-0000-4000-8000-000000000009',
    });
    expect(deliveriesForAssignment(a).map((d) => d.message.type)).toEqual(['job_unassigned']);
  });

  it('an old JobAssigned without service and suburb gives only the notice', () => {
    const { serviceType: _s, suburb: _b, ...old } = jobAssigned();
    expect(deliveriesForAssignment(old).map((d) => d.message.type)).toEqual(['job_assigned']);
  });
});

describe('smsDeliveryNotice (the SMS outcome for the staff member who asked)', () => {
  const tech = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const job = '0b5d7f3c-5d2a-4a8e-9a57-2b6a3c1d9e10';
  const sms = { channel: 'sms', requestedBy: tech, jobId: job, purpose: 'technician-en-route' };

  it('"sent" only when a real provider accepted it', () => {
    expect(smsDeliveryNotice(sms, { outcome: 'sent', transport: 'twilio' })).toEqual({
      to: 'user',
      userId: tech,
      message: {
        type: 'sms_delivery',
        data: { jobId: job, purpose: 'technician-en-route', status: 'sent', message: 'SMS sent' },
      },
    });
  });

  it('"recorded" when no provider is configured (the local transport delivers to nobody)', () => {
    expect(smsDeliveryNotice(sms, { outcome: 'sent', transport: 'local' })?.message).toEqual({
      type: 'sms_delivery',
      data: {
        jobId: job,
        purpose: 'technician-en-route',
        status: 'recorded',
        message: 'SMS recorded (no provider configured)',
      },
    });
  });

  it('"failed" with the reason, shortened', () => {
    const failed = smsDeliveryNotice(sms, {
      outcome: 'failed',
      error: ' Phone number is a landline; SMS needs a mobile number ',
    });
    expect(failed?.message).toEqual({
      type: 'sms_delivery',
      data: {
        jobId: job,
        purpose: 'technician-en-route',
        status: 'failed',
        message: 'SMS not sent: Phone number is a landline; SMS needs a mobile number',
      },
    });
    const long = smsDeliveryNotice(sms, { outcome: 'failed', error: 'x'.repeat(2000) });
    expect(long?.message.data).toMatchObject({ message: `SMS not sent: ${'x'.repeat(300)}` });
    const blank = smsDeliveryNotice(sms, { outcome: 'failed', error: '' });
    expect(blank?.message.data).toMatchObject({ status: 'failed', message: 'SMS not sent' });
  });

  it('nobody is told about an SMS nobody asked for in person, or about an email', () => {
    expect(
      smsDeliveryNotice({ ...sms, requestedBy: null }, { outcome: 'sent', transport: 'twilio' }),
    ).toBeUndefined();
    expect(
      smsDeliveryNotice({ ...sms, channel: 'email' }, { outcome: 'sent', transport: 'smtp' }),
    ).toBeUndefined();
  });

  it('keeps a message with no job', () => {
    expect(
      smsDeliveryNotice({ ...sms, jobId: null }, { outcome: 'sent', transport: 'twilio' })?.message.data,
    ).toMatchObject({ jobId: null, status: 'sent' });
  });
});

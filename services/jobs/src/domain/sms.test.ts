import { enRouteMessage, etaText, smsNumber, stableUuid } from './sms';

describe('technician en route SMS', () => {
  const job = {
    jobNumber: 'JOB-1001',
    customerName: 'Alex Driver',
    customerPhone: '0412 345 678',
    serviceType: 'puncture-repair',
  };

  it('gives the ETA 30 minutes from now in Perth time', () => {
    const message = enRouteMessage(job, new Date('2026-03-03T06:05:00Z')); // 2:05 PM in Perth
    expect(message).toEqual({
      to: '0412345678',
      eta: '2:35 PM',
      purpose: 'technician-en-route',
      body: 'Hi Alex, your technician is on the way for your puncture repair booking (job JOB-1001). Estimated arrival: 2:35 PM (about 30 minutes).',
    });
  });

  it('gives the ETA 30 minutes from now on the Perth clock', () => {
    expect(etaText(new Date('2026-03-03T06:05:00Z'))).toBe('2:35 PM');
    // Crosses midnight UTC but not in Perth.
    expect(etaText(new Date('2026-03-02T23:45:00Z'))).toBe('8:15 AM');
    expect(etaText(new Date('2026-03-03T03:45:00Z'), 30)).toBe('12:15 PM');
  });

  it('skips numbers that cannot take an SMS', () => {
    expect(enRouteMessage({ ...job, customerPhone: '123' })).toBeUndefined();
    expect(smsNumber('+61 412-345-678')).toBe('+61412345678');
    expect(smsNumber('call me')).toBeUndefined();
  });

  it('derives a stable UUID', () => {
    const a = stableUuid('job-1:technician-en-route');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableUuid('job-1:technician-en-route')).toBe(a);
    expect(stableUuid('job-2:technician-en-route')).not.toBe(a);
  });
});

import {
  cancellationMoneyWords,
  cancelledEmail,
  cancelledSms,
  noShowEmail,
  noShowMoneyWords,
  noShowSms,
  reminderEmail,
  reminderSms,
  rescheduledEmail,
  rescheduledSms,
} from './booking-messages';

const business = { name: 'Mobile Tyres Perth', phone: '08 6000 0000' };
const booking = {
  jobNumber: 'JOB-2026-0042',
  customerName: 'Jane Citizen',
  serviceType: 'puncture-repair',
  address: '12 Beach Rd, Mandurah 6210',
};
const slot = { scheduledDate: '2026-11-26', timeSlot: '8-10 AM' as const };

describe('booking messages', () => {
  it('reminds the day before with the slot and address', () => {
    expect(reminderSms(booking, slot, business)).toBe(
      'Mobile Tyres Perth: reminder, your Puncture Repair is tomorrow, Thursday 26 November 2026, 8-10 AM, at ' +
        '12 Beach Rd, Mandurah 6210 (job JOB-2026-0042). To change it call 08 6000 0000.',
    );
    const mail = reminderEmail(booking, slot, business);
    expect(mail.subject).toBe('Reminder: Puncture Repair tomorrow, 8-10 AM (JOB-2026-0042)');
    expect(mail.text).toContain('Hi Jane,');
    expect(mail.html).toContain('Thursday 26 November 2026, 8-10 AM');
  });

  it('gives the new slot of a reschedule', () => {
    const to = { scheduledDate: '2026-11-30', timeSlot: '2-4 PM' as const };
    expect(rescheduledSms(booking, to, business)).toBe(
      'Mobile Tyres Perth: your booking JOB-2026-0042 has moved to Monday 30 November 2026, 2-4 PM.',
    );
    const mail = rescheduledEmail(booking, slot, to, business);
    expect(mail.text).toContain('New time: Monday 30 November 2026, 2-4 PM');
    expect(mail.text).toContain('Previously: Thursday 26 November 2026, 8-10 AM.');
  });

  const terms = {
    band: 'full_refund' as const,
    refundPercent: 100,
    refund: '129.80',
    fee: '0.00',
    feeWaived: false,
    paymentMethod: 'prepaid' as const,
  };

  it.each([
    [terms, 'You will receive a full refund of $129.80 to the card you paid with.'],
    [
      { ...terms, band: 'half_refund' as const, refundPercent: 50, refund: '64.90', fee: '64.90' },
      'You will receive a 50% refund of $64.90 to the card you paid with. The remaining $64.90 is kept as the cancellation fee.',
    ],
    [
      { ...terms, band: 'no_refund' as const, refundPercent: 0, refund: '0.00', fee: '129.80' },
      'No refund applies, as the booking was cancelled less than 12 hours before its start.',
    ],
    [
      {
        ...terms,
        band: 'no_refund' as const,
        refundPercent: 0,
        refund: '129.80',
        fee: '129.80',
        feeWaived: true,
      },
      'The cancellation fee of $129.80 has been waived: you will receive a full refund of $129.80 to the card you paid with.',
    ],
    [{ ...terms, paymentMethod: 'onsite' as const, refund: '0.00' }, 'There is no cancellation fee.'],
    [
      {
        ...terms,
        paymentMethod: 'onsite' as const,
        band: 'half_refund' as const,
        refund: '0.00',
        fee: '64.90',
      },
      'A cancellation fee of $64.90 applies; we will send you an invoice for it.',
    ],
    [
      { ...terms, paymentMethod: 'onsite' as const, refund: '0.00', fee: '129.80', feeWaived: true },
      'The cancellation fee of $129.80 has been waived: you owe nothing.',
    ],
  ])('states the terms as the event gives them (%#)', (t, words) => {
    expect(cancellationMoneyWords(t)).toBe(words);
  });

  it('puts the terms in the cancellation SMS and email', () => {
    const c = { ...terms, slot, cancelledBy: 'staff' as const };
    expect(cancelledSms(booking, c, business)).toBe(
      'Mobile Tyres Perth: your booking JOB-2026-0042 for Thursday 26 November 2026, 8-10 AM is cancelled. ' +
        'You will receive a full refund of $129.80 to the card you paid with.',
    );
    const mail = cancelledEmail(booking, c, business);
    expect(mail.text).toContain('has been cancelled by our team.');
    expect(mail.html).toContain('full refund of $129.80');
  });

  it('a no-show: the charge in full, kept (prepaid) or invoiced (on site), never called a cancellation', () => {
    const noShow = {
      band: 'no_refund' as const,
      refundPercent: 0,
      refund: '0.00',
      fee: '129.80',
      feeWaived: false,
      slot,
    };
    expect(noShowMoneyWords({ ...noShow, paymentMethod: 'prepaid' })).toBe(
      'As our terms say, a missed booking is charged in full: your payment of $129.80 is kept.',
    );
    expect(noShowSms(booking, { ...noShow, paymentMethod: 'onsite' }, business)).toBe(
      'Mobile Tyres Perth: we missed you at your booking JOB-2026-0042 for Thursday 26 November 2026, 8-10 AM, so ' +
        'it is closed as a no-show. As our terms say, a missed booking is charged in full: we will send you an ' +
        'invoice for $129.80. If you think this is a mistake, call us on 08 6000 0000.',
    );
    const mail = noShowEmail(booking, { ...noShow, paymentMethod: 'prepaid' }, business);
    expect(mail.subject).toBe('Missed booking: Puncture Repair on Thursday 26 November 2026 (JOB-2026-0042)');
    expect(mail.text).toContain('closed as a no-show');
    expect(mail.text).not.toMatch(/cancel/i);
  });
});

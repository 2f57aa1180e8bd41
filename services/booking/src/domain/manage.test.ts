import {
  cancelProblem,
  changeProblem,
  displayStatus,
  manageLinkExpiry,
  manageUrl,
  MANAGE_MSG,
  noShowProblem,
  noShowReason,
  noShowTermsOf,
  rescheduleProblem,
  smsNumber,
  termsAt,
  termsView,
  type ManagedState,
} from './manage';

const booking = (over: Partial<ManagedState> = {}): ManagedState => ({
  status: 'confirmed',
  jobStatus: null,
  released: false,
  scheduledDate: '2031-05-06',
  timeSlot: '8-10 AM',
  ...over,
});
// 8 AM Perth on 6 May 2031 is 00:00 UTC.
const start = new Date('2031-05-06T00:00:00Z');
const HOUR = 3_600_000;

describe('the manage link', () => {
  it("expires 7 days after the slot's end (Perth)", () => {
    expect(manageLinkExpiry('2031-05-06', '8-10 AM').toISOString()).toBe('2031-05-13T02:00:00.000Z');
    expect(manageLinkExpiry('2031-05-06', '2-4 PM').toISOString()).toBe('2031-05-13T08:00:00.000Z');
  });

  it("is the site's /manage/<token>", () => {
    expect(manageUrl('https://tyres.example/', 'abc')).toBe('https://tyres.example/manage/abc');
    expect(manageUrl('https://tyres.example', 'abc')).toBe('https://tyres.example/manage/abc');
  });

  it('goes by SMS to Australian mobiles only, in the form the SMS contract takes', () => {
    expect(smsNumber('0412 345 678')).toBe('0412345678');
    expect(smsNumber('+61 412 345 678')).toBe('+61412345678');
    expect(smsNumber('(08) 9999 1111')).toBeUndefined();
    expect(smsNumber('0412 345 678 9999 0000 1234')).toBeUndefined();
  });
});

describe('what the customer may still do', () => {
  it('a confirmed booking before its slot: everything', () => {
    const b = booking();
    const before = new Date(start.getTime() - HOUR);
    expect(rescheduleProblem(b, before)).toBeUndefined();
    expect(cancelProblem(b)).toBeUndefined();
    expect(changeProblem(b)).toBeUndefined();
    expect(displayStatus(b, before)).toBe('confirmed');
  });

  it('once the slot has started: no reschedule, a late cancellation and corrections still', () => {
    const b = booking();
    expect(rescheduleProblem(b, start)).toBe(MANAGE_MSG.started);
    expect(cancelProblem(b)).toBeUndefined();
    expect(displayStatus(b, start)).toBe('in-progress');
  });

  it('a job under way cannot be moved or cancelled; a finished one cannot change at all', () => {
    const early = new Date(start.getTime() - 48 * HOUR);
    expect(rescheduleProblem(booking({ jobStatus: 'in-progress' }), early)).toBe(MANAGE_MSG.started);
    expect(cancelProblem(booking({ jobStatus: 'in-progress' }))).toBe(MANAGE_MSG.cannotCancel);
    expect(changeProblem(booking({ jobStatus: 'in-progress' }))).toBeUndefined();
    expect(rescheduleProblem(booking({ jobStatus: 'completed' }), early)).toBe(MANAGE_MSG.finished);
    expect(changeProblem(booking({ jobStatus: 'paid' }))).toBe(MANAGE_MSG.finished);
    expect(displayStatus(booking({ jobStatus: 'invoiced' }), early)).toBe('completed');
  });

  it('cancelled here, by staff (job cancelled) or with its slot released: nothing', () => {
    for (const b of [
      booking({ status: 'cancelled' }),
      booking({ jobStatus: 'cancelled' }),
      booking({ released: true }),
    ]) {
      expect(rescheduleProblem(b, new Date(0))).toBe(MANAGE_MSG.cancelled);
      expect(cancelProblem(b)).toBe(MANAGE_MSG.cancelled);
      expect(changeProblem(b)).toBe(MANAGE_MSG.cancelled);
      expect(displayStatus(b, new Date(0))).toBe('cancelled');
    }
  });
});

describe('the cancellation terms (the kernel policy)', () => {
  const prepaid = { ...booking(), total: '457.80', paymentStatus: 'paid', amountPaid: '465.58' };
  const onsite = { ...booking(), total: '487.80', paymentStatus: 'pending', amountPaid: null };

  it('prepaid and paid: shares of what the card was charged', () => {
    expect(termsView(termsAt(prepaid, new Date(start.getTime() - 30 * HOUR)))).toMatchObject({
      band: 'full_refund',
      refund: '465.58',
      fee: '0.00',
    });
    expect(termsView(termsAt(prepaid, new Date(start.getTime() - 18 * HOUR)))).toMatchObject({
      band: 'half_refund',
      refund: '232.79',
      fee: '232.79',
    });
  });

  it('pay on site: nothing to refund; the fee is the share of the price not forgiven', () => {
    expect(termsView(termsAt(onsite, new Date(start.getTime() - 6 * HOUR)))).toMatchObject({
      band: 'no_refund',
      hoursBefore: 6,
      refund: '0.00',
      fee: '487.80',
    });
    expect(termsView(termsAt(onsite, new Date(start.getTime() - 13 * HOUR)))).toMatchObject({
      band: 'half_refund',
      fee: '243.90',
    });
  });
});

describe('mark no-show (staff)', () => {
  it('only once the slot has started, for a live booking whose work is not done', () => {
    expect(noShowProblem(booking(), new Date(start.getTime() - 1))).toBe(MANAGE_MSG.noShowNotStarted);
    expect(noShowProblem(booking(), start)).toBeUndefined();
    expect(
      noShowProblem(booking({ jobStatus: 'in-progress' }), new Date(start.getTime() + HOUR)),
    ).toBeUndefined();
    expect(noShowProblem(booking({ status: 'cancelled' }), start)).toBe(MANAGE_MSG.noShowCancelled);
    expect(noShowProblem(booking({ released: true }), start)).toBe(MANAGE_MSG.noShowCancelled);
    expect(noShowProblem(booking({ jobStatus: 'completed' }), start)).toBe(MANAGE_MSG.noShowFinished);
    expect(noShowProblem(booking({ jobStatus: 'paid' }), start)).toBe(MANAGE_MSG.noShowFinished);
  });

  it('is charged in full: the price (pay on site) or the whole charge kept (paid online)', () => {
    const onsite = noShowTermsOf({ total: '749.80', paymentStatus: 'pending', amountPaid: null });
    expect(termsView(onsite)).toMatchObject({ band: 'no_refund', refund: '0.00', fee: '749.80' });
    const prepaid = noShowTermsOf({ total: '749.80', paymentStatus: 'paid', amountPaid: '762.55' });
    expect(termsView(prepaid)).toMatchObject({ band: 'no_refund', refund: '0.00', fee: '762.55' });
  });

  it('records "No-show" as the reason, with the note', () => {
    expect(noShowReason(null)).toBe('No-show');
    expect(noShowReason('Nobody home, phone off')).toBe('No-show: Nobody home, phone off');
  });
});

import '../testing/polyfills';
import { estimateTotal } from '../lib/estimate';
import { fromCents, gstInclusive, gstOnTop, lineTotal, sumMoney, toCents, formatMoney } from '../lib/money';
import {
  addDaysToDate,
  daysFromToday,
  enRouteEta,
  formatShortDate,
  formatTimestamp,
  isPastDate,
  perthToday,
  slotDateTime,
} from '../lib/dates';
import { serviceLabel, truncate } from '../lib/format';
import {
  ADDRESS_MAX_DESKTOP,
  ADDRESS_MAX_MOBILE,
  EXPENSE_FORM_CATEGORIES,
  DEFAULT_EXPENSE_CATEGORY,
} from '../lib/constants';
import { dueBadge } from '../invoices/due';
import {
  invoiceTotals,
  lineItemProblem,
  parseQuantity,
  parseUnitPrice,
  parseCategory,
} from '../invoices/line-items';
import { jobProgress, statusAction } from '../job-detail/progress';
import { jobProfit } from '../job-detail/PurchaseInvoices';
import { scheduleStatusOf } from '../tabs/ScheduleTab';
import { slotState } from '../tabs/TimeSlotsTab';
import { presetRange, rangeProblem } from '../reports/range';

describe('money (cents, never floats)', () => {
  test('parses and formats 2-decimal strings', () => {
    expect(toCents('12.5')).toBe(1250);
    expect(toCents('0.105')).toBe(11);
    expect(toCents('abc')).toBeNaN();
    expect(fromCents(123450)).toBe('1234.50');
    expect(sumMoney(['0.10', '0.20', 'x'])).toBe('0.30');
    expect(formatMoney('1234.5')).toBe('$1,234.50');
  });
  test('purchase invoices and expenses: GST is the inc-GST total / 11', () => {
    expect(gstInclusive('110.00')).toEqual({ gst: '10.00', exGst: '100.00' });
    expect(gstInclusive('100.00')).toEqual({ gst: '9.09', exGst: '90.91' });
  });
  test('customer invoices: GST is 10% of the subtotal, added on top', () => {
    expect(gstOnTop('681.64')).toEqual({ gst: '68.16', total: '749.80' });
  });
  test('line total is quantity × unit price to 2 decimals', () => {
    expect(lineTotal(3, '19.99')).toBe('59.97');
    expect(lineTotal(0, '50')).toBe('0.00');
  });
});

describe('staff booking estimate (spec section 9)', () => {
  test('new tyres: (tyre + 25 + 15) × quantity + 89.80, minus 30 when prepaid', () => {
    expect(
      estimateTotal({ serviceType: 'new-tyres', quantity: 4, tyrePrice: '139.00', prepaid: false }),
    ).toBe('805.80');
    expect(estimateTotal({ serviceType: 'new-tyres', quantity: 4, tyrePrice: '139.00', prepaid: true })).toBe(
      '775.80',
    );
  });
  test('no price (no size yet, or a call-back size) estimates nothing', () => {
    expect(estimateTotal({ serviceType: 'new-tyres', quantity: 4, tyrePrice: null, prepaid: false })).toBe(
      '0.00',
    );
  });
  test('fallbacks: puncture repair 129.80, other services 89.80', () => {
    expect(
      estimateTotal({ serviceType: 'puncture-repair', quantity: 4, tyrePrice: null, prepaid: false }),
    ).toBe('129.80');
    expect(
      estimateTotal({ serviceType: 'battery-service', quantity: 4, tyrePrice: null, prepaid: false }),
    ).toBe('89.80');
    expect(
      estimateTotal({ serviceType: 'emergency-callout', quantity: 4, tyrePrice: null, prepaid: true }),
    ).toBe('89.80');
  });
});

describe('dates in Perth time', () => {
  const now = new Date('2026-11-20T17:30:00Z'); // 01:30 on 21 Nov in Perth
  test('today is the Perth date, not the UTC one', () => {
    expect(perthToday(now)).toBe('2026-11-21');
    expect(isPastDate('2026-11-20', now)).toBe(true);
    expect(isPastDate('2026-11-21', now)).toBe(false);
    expect(daysFromToday('2026-11-28', now)).toBe(7);
    expect(addDaysToDate('2026-12-20', 30)).toBe('2027-01-19');
  });
  test('slot date-time is the slot start in Perth; unknown slots throw "Invalid time slot"', () => {
    expect(slotDateTime('2026-11-25', '12-2 PM')).toBe('2026-11-25T12:00:00+08:00');
    expect(() => slotDateTime('2026-11-25', '4-6 PM')).toThrow('Invalid time slot');
  });
  test('timestamps and the en-route ETA (30 minutes from now) are shown in Perth time', () => {
    expect(formatTimestamp('2026-11-21T01:05:00Z')).toBe('21 Nov 2026, 9:05 am');
    expect(enRouteEta(new Date('2026-11-21T01:05:00Z'))).toBe('9:35 am');
    expect(formatShortDate('2026-09-05')).toBe('5 Sep 2026');
  });
});

describe('lists', () => {
  test('service types are shown with a space', () => {
    expect(serviceLabel('puncture-repair')).toBe('puncture repair');
  });
  test('addresses are cut at 30 characters on phones and 20 in tables', () => {
    const address = '1234 Very Long Street Name That Keeps Going';
    expect(truncate(address, ADDRESS_MAX_MOBILE)).toBe('1234 Very Long Street Name Tha...');
    expect(truncate(address, ADDRESS_MAX_DESKTOP)).toBe('1234 Very Long Stree...');
    expect(truncate('Short St', ADDRESS_MAX_DESKTOP)).toBe('Short St');
  });
  test('expense form categories leave out cost-of-goods-sold and default to admin', () => {
    expect(EXPENSE_FORM_CATEGORIES).not.toContain('cost-of-goods-sold');
    expect(EXPENSE_FORM_CATEGORIES).toHaveLength(10);
    expect(DEFAULT_EXPENSE_CATEGORY).toBe('admin');
  });
});

describe('invoices', () => {
  const now = new Date('2026-11-21T02:00:00Z');
  test('due badges: 7 days or fewer red, 14 or fewer yellow, none when paid', () => {
    expect(dueBadge({ status: 'sent', dueDate: '2026-11-28' }, now)).toEqual({
      color: 'red',
      text: 'Due in 7 days',
    });
    expect(dueBadge({ status: 'sent', dueDate: '2026-11-29' }, now)?.color).toBe('gold');
    expect(dueBadge({ status: 'draft', dueDate: '2026-12-05' }, now)?.color).toBe('gold');
    expect(dueBadge({ status: 'draft', dueDate: '2026-12-06' }, now)?.color).toBe('default');
    expect(dueBadge({ status: 'overdue', dueDate: '2026-11-19' }, now)).toEqual({
      color: 'red',
      text: 'Overdue by 2 days',
    });
    expect(dueBadge({ status: 'paid', dueDate: '2026-11-19' }, now)).toBeNull();
    expect(dueBadge({ status: 'draft', dueDate: null }, now)).toBeNull();
  });
  test('line items: quantity integer ≥ 0 (1 when it does not parse), price ≥ 0, category default labour', () => {
    expect(parseQuantity('abc')).toBe(1);
    expect(parseQuantity('')).toBe(1);
    expect(parseQuantity(2.7)).toBe(2);
    expect(parseQuantity(-3)).toBe(0);
    expect(parseUnitPrice('-5')).toBe('0.00');
    expect(parseUnitPrice(12.345)).toBe('12.35');
    expect(parseCategory('bogus')).toBe('labour');
  });
  test('stored lines need a description and a positive quantity', () => {
    expect(lineItemProblem({ description: '  ', quantity: 1 })).toBe(
      'Please enter a description for the line item.',
    );
    expect(lineItemProblem({ description: 'Fitting', quantity: 0 })).toBe(
      'Quantity must be a positive whole number: Fitting',
    );
    expect(lineItemProblem({ description: 'Fitting', quantity: 2 })).toBeNull();
  });
  test('totals: subtotal of lines, GST 10% on top', () => {
    expect(
      invoiceTotals([
        { quantity: 4, unitPrice: '139.00' },
        { quantity: 1, unitPrice: '81.64' },
      ]),
    ).toEqual({ subtotal: '637.64', gst: '63.76', total: '701.40' });
  });
});

describe('jobs', () => {
  test('status actions follow the lifecycle', () => {
    expect(statusAction('new')).toMatchObject({ label: 'Start Work (En Route)', to: 'in-progress' });
    expect(statusAction('in-progress')).toMatchObject({ label: 'Complete Work', to: 'completed' });
    expect(statusAction('completed')).toMatchObject({ label: 'Generate Invoice' });
    expect(statusAction('invoiced')).toMatchObject({ label: 'Mark as Paid', to: 'paid' });
    expect(statusAction('paid')).toMatchObject({ label: 'Job Complete' });
  });
  test('progress lists the five steps with their timestamps', () => {
    const steps = jobProgress({
      status: 'completed',
      createdAt: 'c',
      inProgressAt: 'i',
      completedAt: 'd',
      invoicedAt: null,
      paidAt: null,
    });
    expect(steps.map((s) => s.label)).toEqual([
      'Booking confirmed',
      'Technician en route',
      'Work completed',
      'Invoice sent',
      'Payment received',
    ]);
    expect(steps.map((s) => s.done)).toEqual([true, true, true, false, false]);
    expect(steps[2]).toMatchObject({ at: 'd', current: true });
  });
  test('profit is the job value minus purchases', () => {
    expect(jobProfit('749.80', [{ totalAmount: '420.00' }, { totalAmount: '10.00' }])).toEqual({
      costs: '430.00',
      profit: '319.80',
      margin: 42.7,
    });
    expect(jobProfit('0.00', [{ totalAmount: '10.00' }]).margin).toBeNull();
  });
  test('schedule vocabulary: pending (unassigned new), confirmed (assigned new), in_progress, completed', () => {
    expect(scheduleStatusOf({ status: 'new', assignedTechnicianId: null })).toBe('pending');
    expect(scheduleStatusOf({ status: 'new', assignedTechnicianId: 't' })).toBe('confirmed');
    expect(scheduleStatusOf({ status: 'in-progress', assignedTechnicianId: 't' })).toBe('in_progress');
    expect(scheduleStatusOf({ status: 'paid', assignedTechnicianId: 't' })).toBe('completed');
  });
  test('slot cards: free slots can be blocked, blocked ones unblocked, booked ones neither', () => {
    expect(slotState({ slot: '8-10 AM', isAvailable: true, blockedReason: null })).toMatchObject({
      label: 'Available',
      canBlock: true,
    });
    expect(
      slotState({ slot: '8-10 AM', isAvailable: false, blockedReason: 'Van service', isBlocked: true }),
    ).toMatchObject({ label: 'Blocked', canUnblock: true, detail: 'Van service' });
    expect(
      slotState({
        slot: '8-10 AM',
        isAvailable: false,
        blockedReason: null,
        booking: { jobId: 'j', jobNumber: 'JOB-1' },
      }),
    ).toMatchObject({ label: 'Booked', canBlock: false, canUnblock: false });
    expect(
      slotState({ slot: '8-10 AM', isAvailable: false, blockedReason: 'Time has passed' }),
    ).toMatchObject({ label: 'Unavailable', detail: 'Time has passed' });
  });
});

describe('report periods', () => {
  const now = new Date('2026-11-21T02:00:00Z');
  test('presets in Perth dates; the financial year starts on 1 July', () => {
    expect(presetRange('month', now)).toEqual({ startDate: '2026-11-01', endDate: '2026-11-21' });
    expect(presetRange('quarter', now)).toEqual({ startDate: '2026-10-01', endDate: '2026-11-21' });
    expect(presetRange('fy', now)).toEqual({ startDate: '2026-07-01', endDate: '2026-11-21' });
    expect(presetRange('fy', new Date('2027-03-01T02:00:00Z')).startDate).toBe('2026-07-01');
    expect(rangeProblem('2026-11-02', '2026-11-01')).toMatch(/start date/);
    expect(rangeProblem('', '2026-11-01')).toBeNull();
  });
});

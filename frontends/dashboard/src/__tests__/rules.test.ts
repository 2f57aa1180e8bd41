import '../testing/polyfills';
import { estimateTotal } from '../lib/estimate';
import { centsOf, formatMoney, sumCents } from '../lib/money';
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
  amountTypeOf,
  invoiceTotals,
  isReadOnlyLine,
  lineItemBody,
  lineItemProblem,
  parseQuantity,
  parseUnitPrice,
  parseCategory,
  serviceLine,
} from '../invoices/line-items';
import { jobProgress, statusAction } from '../job-detail/progress';
import { jobProfit } from '../job-detail/PurchaseInvoices';
import { scheduleStatusOf } from '../tabs/ScheduleTab';
import { slotState } from '../tabs/TimeSlotsTab';
import { presetRange, rangeProblem } from '../reports/range';

describe('money on screen (kernel cents, never floats)', () => {
  test('reads and shows 2-decimal money; what is not money shows $0.00, never NaN', () => {
    expect(centsOf('12.50')).toBe(1250n);
    expect(centsOf('$1,234.5')).toBe(123450n);
    expect(centsOf('abc')).toBeNull();
    expect(centsOf('')).toBeNull();
    expect(formatMoney('1234.5')).toBe('$1,234.50');
    expect(formatMoney('-5.00')).toBe('-$5.00');
    expect(formatMoney(undefined)).toBe('$0.00');
    expect(formatMoney('x')).toBe('$0.00');
    expect(sumCents(['0.10', '0.20', 'x'])).toBe(30n);
  });
});

describe('staff booking estimate: what the booking service books (issue 12)', () => {
  const estimate = (serviceType: string, prepaid: boolean, tyrePrice: string | null = null) =>
    estimateTotal({ serviceType, quantity: 4, tyrePrice, prepaid });
  test('new tyres: (tyre + 25 + 15) × quantity + 89.80, minus 30 when prepaid', () => {
    expect(estimate('new-tyres', false, '139.00')).toBe('805.80');
    expect(estimate('new-tyres', true, '139.00')).toBe('775.80');
  });
  test('no price (no size yet, or a call-back size) estimates nothing', () => {
    expect(estimate('new-tyres', false)).toBe('0.00');
  });
  test('puncture repair 129.80, emergency callout 89.80, each 30 less when prepaid', () => {
    expect(estimate('puncture-repair', false)).toBe('129.80');
    expect(estimate('puncture-repair', true)).toBe('99.80');
    expect(estimate('emergency-callout', false)).toBe('89.80');
    expect(estimate('emergency-callout', true)).toBe('59.80');
  });
  test('battery service is booked at 0 (quoted on site): no estimate, never the 89.80 callout', () => {
    expect(estimate('battery-service', false)).toBe('0.00');
    expect(estimate('battery-service', true)).toBe('0.00');
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
    expect(parseUnitPrice(12.344)).toBe('12.34');
    expect(parseUnitPrice('$1,250.5')).toBe('1250.50');
    expect(parseUnitPrice(null)).toBe('0.00');
    expect(parseCategory('bogus')).toBe('labour');
    // Billing's card surcharge line: shown as it is, not editable.
    expect(parseCategory('surcharge')).toBe('surcharge');
    expect(isReadOnlyLine({ category: 'surcharge' })).toBe(true);
    expect(isReadOnlyLine({ category: 'tyre' })).toBe(false);
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
  const lines = [
    { quantity: 4, unitPrice: '139.00', gstFree: false },
    { quantity: 1, unitPrice: '81.64', gstFree: false },
  ];
  test('tax exclusive ("GST added"): subtotal of lines, GST 10% on top', () => {
    expect(invoiceTotals(lines, 'exclusive')).toEqual({ subtotal: 63764n, gst: 6376n, total: 70140n });
  });
  test('tax inclusive ("Amounts include GST"): the total is the lines, its GST the total ÷ 11', () => {
    // 637.64 ÷ 11 = 57.967 -> 57.97
    expect(invoiceTotals(lines, 'inclusive')).toEqual({ subtotal: 57967n, gst: 5797n, total: 63764n });
  });
  test('GST-free lines carry no GST either way', () => {
    const withFee = [...lines, { quantity: 1, unitPrice: '20.00', gstFree: true }];
    expect(invoiceTotals(withFee, 'inclusive')).toEqual({ subtotal: 59967n, gst: 5797n, total: 65764n });
    expect(invoiceTotals(withFee, 'exclusive')).toEqual({ subtotal: 65764n, gst: 6376n, total: 72140n });
  });
  test('an invoice from before amount types is tax exclusive', () => {
    expect(amountTypeOf({})).toBe('exclusive');
    expect(amountTypeOf({ amountType: 'inclusive' })).toBe('inclusive');
  });
  test('the job service line is the quoted price on a tax inclusive invoice, ex GST on an exclusive one', () => {
    const theJob = {
      serviceType: 'puncture-repair',
      jobNumber: 'JOB-000123',
      customerValue: '129.80',
      tyreQuantity: null,
      tyreSize: null,
    };
    const inclusive = serviceLine(theJob, 'inclusive');
    expect(inclusive).toMatchObject({ unitPrice: '129.80', quantity: 1, category: 'labour', gstFree: false });
    expect(invoiceTotals([inclusive], 'inclusive')).toEqual({ subtotal: 11800n, gst: 1180n, total: 12980n });
    const exclusive = serviceLine(theJob, 'exclusive');
    expect(exclusive.unitPrice).toBe('118.00');
    expect(invoiceTotals([exclusive], 'exclusive').total).toBe(12980n);
    expect(lineItemBody({ ...inclusive, gstFree: true })).toMatchObject({
      unitPrice: '129.80',
      totalPrice: '129.80',
      gstFree: true,
    });
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
  test('profit is in ex-GST figures: value less value ÷ 11, less each purchase without its GST', () => {
    // 749.80 - 68.16 = 681.64; purchases (420.00 - 38.18) + (10.00 - 0.91) = 390.91
    expect(
      jobProfit('749.80', [
        { totalAmount: '420.00', gstAmount: '38.18' },
        { totalAmount: '10.00', gstAmount: '0.91' },
      ]),
    ).toEqual({ value: '681.64', costs: '390.91', profit: '290.73', margin: 42.7 });
    // A GST-free purchase costs its whole total.
    expect(jobProfit('129.80', [{ totalAmount: '50.00', gstAmount: '0.00' }])).toMatchObject({
      value: '118.00',
      costs: '50.00',
      profit: '68.00',
    });
    expect(jobProfit('0.00', [{ totalAmount: '10.00', gstAmount: '0.91' }]).margin).toBeNull();
  });
  test('schedule vocabulary: pending (unassigned new), confirmed (assigned new), in_progress, completed', () => {
    expect(scheduleStatusOf({ status: 'new', assignedTechnicianId: null })).toBe('pending');
    expect(scheduleStatusOf({ status: 'new', assignedTechnicianId: 't' })).toBe('confirmed');
    expect(scheduleStatusOf({ status: 'in-progress', assignedTechnicianId: 't' })).toBe('in_progress');
    expect(scheduleStatusOf({ status: 'paid', assignedTechnicianId: 't' })).toBe('completed');
  });
  test('slot cards: free and booked slots can be blocked (the jobs stay), blocked ones unblocked', () => {
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
        booking: { jobId: 'j', jobNumber: 'JOB-1', kind: 'booking' },
      }),
    ).toMatchObject({ label: 'Booked', canBlock: true, canUnblock: false });
    expect(
      slotState({
        slot: '8-10 AM',
        isAvailable: true,
        blockedReason: null,
        capacity: 2,
        bookings: [{ jobId: 'j', jobNumber: 'JOB-1', kind: 'booking' }],
      }),
    ).toMatchObject({ label: 'Available', canBlock: true, detail: '1 of 2 booked: Job JOB-1' });
    expect(
      slotState({
        slot: '8-10 AM',
        isAvailable: false,
        blockedReason: 'Time has passed',
        state: 'time-passed',
        booking: { jobId: 'j', jobNumber: 'JOB-1', kind: 'booking' },
      }),
    ).toMatchObject({ canBlock: false });
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

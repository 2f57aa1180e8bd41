import { contractList, contracts, schemas } from './contracts';
import { EVENT_TYPE_PATTERN, createEvent } from './envelope';
import { samples } from '../test/fixtures';

const catalogue = [
  'BookingCreated',
  'BookingPhotoAdded',
  'BookingQuoted',
  'BookingExpired',
  // Issue 18 (manage my booking, cancellation policy).
  'BookingRescheduled',
  'BookingCancelled',
  'BookingUpdated',
  'SlotBlocked',
  'SlotUnblocked',
  'JobStatusChanged',
  'JobCompleted',
  'JobAssigned',
  'JobRescheduled',
  'JobDeleted',
  // Issue 19: an admin's edit of a job after booking.
  'JobUpdated',
  'CustomerInvoiceIssued',
  'CustomerInvoiceUpdated',
  'CustomerInvoiceDeleted',
  'PurchaseInvoiceRecorded',
  'PurchaseInvoiceUpdated',
  'PurchaseInvoiceDeleted',
  'ExpenseRecorded',
  'ExpenseUpdated',
  'ExpenseDeleted',
  'PaymentSucceeded',
  'PaymentFailed',
  'UserCreated',
  'UserStatusChanged',
  'SmsRequested',
  'EmailRequested',
  // Issue 18 (privacy: erasure on request).
  'CustomerErased',
  'BookingPhotosDeleted',
];

describe('contract catalogue', () => {
  it('has every event of architecture section 4, once', () => {
    expect([...new Set(contractList.map((c) => c.name))].sort()).toEqual([...catalogue].sort());
    expect(Object.keys(contracts)).toHaveLength(contractList.length);
  });

  it.each(contractList.map((c) => [c.type, c] as const))(
    '%s: type, version and sample agree',
    (_type, contract) => {
      const match = EVENT_TYPE_PATTERN.exec(contract.type);
      expect(match?.[1]).toBe(String(contract.version));
      const sample = samples[contract.type];
      expect(contract.schema.safeParse(sample).success).toBe(true);
      const event = createEvent(contract, sample as never, { source: 'test', correlationId: 'c' });
      expect(event.type).toBe(contract.type);
    },
  );

  it('exposes the spec vocabularies', () => {
    expect(schemas.timeSlot.options).toEqual(['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM']);
    expect(schemas.serviceType.options).toEqual([
      'new-tyres',
      'puncture-repair',
      'battery-service',
      'emergency-callout',
    ]);
    expect(schemas.paymentMethod.options).toEqual(['onsite', 'prepaid']);
    expect(schemas.expenseCategory.options).toHaveLength(11);
  });

  it('money fields refuse floats', () => {
    const data = { ...samples['booking.created.v1'], customerValue: 367.8 };
    expect(contracts['booking.created.v1'].schema.safeParse(data).success).toBe(false);
    const inv = { ...samples['customer-invoice.issued.v1'], totalAmount: '220' };
    expect(contracts['customer-invoice.issued.v1'].schema.safeParse(inv).success).toBe(false);
  });

  it('booking payload enums follow the spec', () => {
    const base = samples['booking.created.v1'];
    const schema = contracts['booking.created.v1'].schema;
    expect(schema.safeParse({ ...base, timeSlot: '4-6 PM' }).success).toBe(false);
    expect(schema.safeParse({ ...base, serviceType: 'new tyres' }).success).toBe(false);
    expect(schema.safeParse({ ...base, paymentMethod: 'card' }).success).toBe(false);
    expect(schema.safeParse({ ...base, scheduledDate: '05/03/2025' }).success).toBe(false);
    expect(schema.safeParse({ ...base, tyreQuantity: 5 }).success).toBe(false);
    expect(schema.safeParse({ ...base, vehicle: { ...base.vehicle, color: 'Red' } }).success).toBe(true);
  });
});

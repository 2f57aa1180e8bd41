import { diffEdit, applyChanges, priceEditRefusal, type EditableValues } from './job-edits';

const current: EditableValues = {
  customerValue: '0.00',
  address: '1 Hay St',
  suburb: 'Perth',
  postcode: '6000',
  vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, color: null, registration: '1ABC234' },
  notes: null,
  tyreSize: null,
  tyreQuantity: null,
  tyreBrand: null,
};

describe('diffEdit', () => {
  it('lists only the fields whose value changes, before and after', () => {
    const changes = diffEdit(current, { customerValue: '189.50', address: '1 Hay St', notes: 'Gate code 1234' });
    expect(changes).toEqual([
      { field: 'customerValue', before: '0.00', after: '189.50' },
      { field: 'notes', before: null, after: 'Gate code 1234' },
    ]);
  });

  it('compares the vehicle as a whole', () => {
    expect(diffEdit(current, { vehicle: { ...current.vehicle } })).toEqual([]);
    const changes = diffEdit(current, { vehicle: { ...current.vehicle, registration: '1XYZ999' } });
    expect(changes).toHaveLength(1);
    expect(changes[0]?.field).toBe('vehicle');
  });

  it('keeps the colour when the edit does not name one', () => {
    const red = { ...current, vehicle: { ...current.vehicle, color: 'Red' } };
    const { color: _c, ...noColour } = red.vehicle;
    expect(diffEdit(red, { vehicle: noColour })).toEqual([]);
    expect(diffEdit(red, { vehicle: { ...noColour, color: null } })[0]?.after).toMatchObject({ color: null });
  });

  it('applies the changes to the values', () => {
    const after = applyChanges(current, diffEdit(current, { customerValue: '189.50', tyreQuantity: 2 }));
    expect(after).toEqual({ ...current, customerValue: '189.50', tyreQuantity: 2 });
  });
});

describe('priceEditRefusal', () => {
  const job = { jobNumber: 'JOB-1', status: 'completed' as const, paymentStatus: 'pending' };

  it('allows the price of a job not invoiced or paid, including an invoiced job whose invoices were cancelled', () => {
    expect(priceEditRefusal(job, undefined)).toBeUndefined();
    expect(priceEditRefusal({ ...job, status: 'new' }, undefined)).toBeUndefined();
    expect(priceEditRefusal({ ...job, status: 'invoiced' }, undefined)).toBeUndefined();
  });

  it('refuses while an invoice that is not cancelled exists', () => {
    expect(priceEditRefusal(job, 'INV-2026-0001')).toBe(
      'Job JOB-1 has invoice INV-2026-0001, so its price cannot change here. Change the amount on the invoice, or cancel the invoice, change the price and generate the invoice again.',
    );
  });

  it('refuses for a paid job, a job paid by card at booking, and a cancelled job', () => {
    expect(priceEditRefusal({ ...job, status: 'paid' }, undefined)).toMatch(/^Job JOB-1 is paid/);
    expect(priceEditRefusal({ ...job, status: 'new', paymentStatus: 'paid' }, undefined)).toMatch(/is paid/);
    expect(priceEditRefusal({ ...job, status: 'cancelled' }, undefined)).toBe(
      'Job JOB-1 is cancelled: its price can no longer be changed.',
    );
  });
});

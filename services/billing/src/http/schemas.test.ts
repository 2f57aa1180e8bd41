import {
  createExpenseSchema,
  createInvoiceSchema,
  createItemSchema,
  createPurchaseSchema,
  paymentIntentSchema,
  updateInvoiceSchema,
} from './schemas';

const first = (
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues[0]?.message;

describe('request schemas carry the spec messages', () => {
  it('customer invoices', () => {
    expect(first(createInvoiceSchema, {})).toBe('Please select a job for this invoice.');
    expect(first(createInvoiceSchema, { jobId: 'j' })).toBe('Due date is required');
    expect(first(createInvoiceSchema, { jobId: 'j', dueDate: null })).toBe('Due date is required');
    expect(first(createInvoiceSchema, { jobId: 'j', dueDate: 'nope' })).toBe('Invalid date format');
    expect(first(createInvoiceSchema, { jobId: 'j', dueDate: '2026-12-01', totalAmount: '1.234' })).toBe(
      'Must be a valid decimal amount',
    );
    const ok = createInvoiceSchema.parse({ jobId: 'j', dueDate: '2026-12-01', subtotalAmount: 100 });
    expect(ok.status).toBe('draft');
    expect(ok.subtotalAmount).toBe(10000n);
    // New invoices are tax inclusive unless the page says otherwise.
    expect(ok.amountType).toBe('inclusive');
    expect(
      createInvoiceSchema.parse({ jobId: 'j', dueDate: '2026-12-01', amountType: 'exclusive' }).amountType,
    ).toBe('exclusive');
    expect(first(createInvoiceSchema, { jobId: 'j', dueDate: '2026-12-01', amountType: 'gross' })).toBe(
      "Amount type must be 'inclusive' or 'exclusive'",
    );
    expect(first(updateInvoiceSchema, { dueDate: '' })).toBe('Due date is required');
    expect(updateInvoiceSchema.parse({ status: 'paid' })).toEqual({ status: 'paid' });
  });

  it('line items', () => {
    expect(first(createItemSchema, { description: '', unitPrice: '1' })).toBe(
      'Please enter a description for the line item.',
    );
    expect(first(createItemSchema, { description: 'x', quantity: 0, unitPrice: '1' })).toBe(
      'Quantity must be a positive whole number',
    );
    expect(first(createItemSchema, { description: 'x', quantity: -2, unitPrice: '1' })).toBe(
      'Quantity must be a positive whole number',
    );
    expect(first(createItemSchema, { description: 'x', unitPrice: '-0.01' })).toBe(
      'Unit price cannot be negative',
    );
    const item = createItemSchema.parse({ description: ' Valve ', unitPrice: '2.5' });
    expect([item.description, item.category, item.quantity, item.unitPrice, item.gstFree]).toEqual([
      'Valve',
      'labour',
      1,
      250n,
      false,
    ]);
    expect(createItemSchema.parse({ description: 'Fee', unitPrice: '5', gstFree: true }).gstFree).toBe(true);
    // The card surcharge line is billing's own: staff cannot add one.
    expect(first(createItemSchema, { description: 'x', unitPrice: '1', category: 'surcharge' })).toBe(
      'Invalid category',
    );
  });

  it('purchase invoices and expenses', () => {
    const purchase = { jobId: 'j', invoiceNumber: 'A', supplierName: 'S', totalAmount: '11' };
    expect(first(createPurchaseSchema, { ...purchase, invoiceNumber: '' })).toBe(
      'Invoice number is required',
    );
    expect(first(createPurchaseSchema, { ...purchase, supplierName: '' })).toBe('Supplier name is required');
    expect(first(createPurchaseSchema, { ...purchase, totalAmount: 0 })).toBe(
      'Total must be greater than $0',
    );
    expect(first(createPurchaseSchema, { ...purchase, totalAmount: 'x' })).toBe(
      'Total must be a valid number',
    );
    expect(
      (
        createPurchaseSchema.parse({ ...purchase, totalAmount: undefined, totalIncGst: 22 }) as {
          totalAmount: bigint;
        }
      ).totalAmount,
    ).toBe(2200n);
    expect((createPurchaseSchema.parse(purchase) as { gstFree: boolean }).gstFree).toBe(false);
    expect(
      (createPurchaseSchema.parse({ ...purchase, gstFree: 'true' }) as { gstFree: boolean }).gstFree,
    ).toBe(true);
    expect(first(createPurchaseSchema, { ...purchase, gstFree: 'maybe' })).toBe(
      'gstFree must be true or false',
    );
    const expense = {
      supplierName: 'S',
      description: 'D',
      amount: '11',
      category: 'fuel',
      expenseDate: '2026-11-01',
    };
    expect(first(createExpenseSchema, { ...expense, category: '' })).toBe('Category is required');
    expect(first(createExpenseSchema, { ...expense, expenseDate: '' })).toBe('Expense date is required');
    expect(first(createExpenseSchema, { ...expense, dueDate: 'x' })).toBe('Invalid date format');
    const parsed = createExpenseSchema.parse({
      ...expense,
      dueDate: '',
      invoiceNumber: '',
      notes: '',
    }) as Record<string, unknown>;
    expect([parsed.dueDate, parsed.invoiceNumber, parsed.notes, parsed.isPaid]).toEqual([
      null,
      null,
      null,
      false,
    ]);
  });

  it('payments', () => {
    expect(first(paymentIntentSchema, {})).toBe('Booking token is required');
    expect(first(paymentIntentSchema, { bookingToken: ' ' })).toBe('Booking token is required');
  });
});

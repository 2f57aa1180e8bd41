import { eraseCustomerSchema, ERASED, ERASURE_MSG, retentionCutoff } from './erasure';

describe('erasing a customer', () => {
  it('shows the customer as erased', () => {
    expect(ERASED.name).toBe('Erased customer');
  });

  it('needs a reason and an explicit confirmation', () => {
    expect(
      eraseCustomerSchema.safeParse({ reason: 'Email request 2026-11-25 #41', confirm: true }).success,
    ).toBe(true);
    const noReason = eraseCustomerSchema.safeParse({ reason: '   ', confirm: true });
    expect(noReason.success || noReason.error.issues[0]?.message).toBe(ERASURE_MSG.reasonRequired);
    const missing = eraseCustomerSchema.safeParse({ confirm: true });
    expect(missing.success || missing.error.issues[0]?.message).toBe(ERASURE_MSG.reasonRequired);
    const unconfirmed = eraseCustomerSchema.safeParse({ reason: 'Phone request' });
    expect(unconfirmed.success || unconfirmed.error.issues[0]?.message).toBe(ERASURE_MSG.confirmRequired);
    const long = eraseCustomerSchema.safeParse({ reason: 'x'.repeat(501), confirm: true });
    expect(long.success || long.error.issues[0]?.message).toBe(ERASURE_MSG.reasonTooLong);
  });
});

describe('photo retention', () => {
  it('keeps photos twelve calendar months after payment', () => {
    expect(retentionCutoff(new Date('2026-11-25T02:00:00Z'), 12).toISOString()).toBe(
      '2025-11-25T02:00:00.000Z',
    );
  });

  it('clamps to the last day of a shorter month', () => {
    expect(retentionCutoff(new Date('2026-03-31T00:00:00Z'), 1).toISOString()).toBe(
      '2026-02-28T00:00:00.000Z',
    );
  });

  it('zero months means at once', () => {
    const now = new Date('2026-11-25T02:00:00Z');
    expect(retentionCutoff(now, 0).getTime()).toBe(now.getTime());
  });
});

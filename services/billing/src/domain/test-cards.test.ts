import { luhnValid, normaliseCardNumber, testCardOutcome } from './test-cards';

describe('test mode cards (Stripe test numbers)', () => {
  it('4242 4242 4242 4242 succeeds', () => {
    expect(testCardOutcome('4242 4242 4242 4242')).toEqual({ outcome: 'succeeded', brand: 'visa' });
    expect(testCardOutcome('4242-4242-4242-4242')?.outcome).toBe('succeeded');
  });
  it('4000 0000 0000 0002 is declined like Stripe declines it', () => {
    expect(testCardOutcome('4000 0000 0000 0002')).toEqual({
      outcome: 'declined',
      code: 'card_declined',
      declineCode: 'generic_decline',
      message: 'Your card was declined.',
    });
    expect(testCardOutcome('4000000000009995')).toMatchObject({ declineCode: 'insufficient_funds' });
  });
  it('any other number is not a test card', () => {
    expect(testCardOutcome('4111 1111 1111 1111')).toBeUndefined();
    expect(testCardOutcome('1234')).toBeUndefined();
  });
  it('checks card numbers with Luhn', () => {
    expect(luhnValid(normaliseCardNumber('4242 4242 4242 4242'))).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('abc')).toBe(false);
  });
});

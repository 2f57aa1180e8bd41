/**
 * The test mode's card outcomes: Stripe's own test card numbers are the contract (architecture section 6), so a
 * checkout exercised without Stripe keys behaves like Stripe's test mode would.
 * https://docs.stripe.com/testing#cards and #declined-payments
 */
export type TestCardOutcome =
  | { outcome: 'succeeded'; brand: string }
  | { outcome: 'declined'; code: string; declineCode?: string; message: string };

const SUCCEEDS: Record<string, string> = {
  '4242424242424242': 'visa',
  '4000056655665556': 'visa',
  '5555555555554444': 'mastercard',
  '2223003122003222': 'mastercard',
  '5200828282828210': 'mastercard',
  '378282246310005': 'amex',
  '371449635398431': 'amex',
  '4000000360000006': 'visa',
};

const DECLINES: Record<string, Extract<TestCardOutcome, { outcome: 'declined' }>> = {
  '4000000000000002': {
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'generic_decline',
    message: 'Your card was declined.',
  },
  '4000000000009995': {
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000009987': {
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'lost_card',
    message: 'Your card was declined.',
  },
  '4000000000009979': {
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'stolen_card',
    message: 'Your card was declined.',
  },
  '4000000000000069': { outcome: 'declined', code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': {
    outcome: 'declined',
    code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  '4000000000000119': {
    outcome: 'declined',
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
  '4242424242424241': {
    outcome: 'declined',
    code: 'incorrect_number',
    message: 'Your card number is incorrect.',
  },
};

/** Digits only: "4242 4242 4242 4242" and "4242-4242-4242-4242" are the same card. */
export function normaliseCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    total += d;
  }
  return total % 10 === 0;
}

/** The outcome of a test card, or undefined for any other number (test mode never takes real cards). */
export function testCardOutcome(cardNumber: string): TestCardOutcome | undefined {
  const digits = normaliseCardNumber(cardNumber);
  const brand = SUCCEEDS[digits];
  if (brand) return { outcome: 'succeeded', brand };
  return DECLINES[digits];
}

export const TEST_CARDS_HELP =
  'Test mode: use a Stripe test card. 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.';

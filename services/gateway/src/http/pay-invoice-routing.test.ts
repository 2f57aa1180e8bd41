import { DEFAULT_HOURLY_LIMITS, limitGroupOf } from './public-limits';
import { matchRoute } from './routing';

/** Issue 18, item 4: an invoice's "Pay now" page is public, routed to billing, and counted per client. */
describe('pay links through the gateway', () => {
  it('routes /api/pay/** to billing as public, and not /api/payments by prefix', () => {
    expect(matchRoute('/api/pay/abc123')).toMatchObject({ upstream: 'billing', access: 'public' });
    expect(matchRoute('/api/pay/abc123/payment-intent')).toMatchObject({
      upstream: 'billing',
      access: 'public',
    });
    expect(matchRoute('/api/payments/config')?.prefix).toBe('/api/payments');
  });

  it('reads count as payInvoice, creating a payment intent as paymentIntents', () => {
    expect(limitGroupOf('GET', '/api/pay/abc123')).toBe('payInvoice');
    expect(limitGroupOf('POST', '/api/pay/abc123/payment-intent')).toBe('paymentIntents');
    expect(limitGroupOf('POST', '/api/PAY/abc123/payment-intent/')).toBe('paymentIntents');
    expect(limitGroupOf('POST', '/api/pay/abc123/other')).toBe('payInvoice');
    expect(limitGroupOf('POST', '/api/payments/webhook')).toBeUndefined();
    expect(DEFAULT_HOURLY_LIMITS.payInvoice).toBe(300);
  });
});

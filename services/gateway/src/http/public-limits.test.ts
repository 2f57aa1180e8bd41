import { generateKeyPairSync } from 'node:crypto';
import { gatewayEnvSchema } from '../config';
import {
  DEFAULT_HOURLY_LIMITS,
  hourlyLimits,
  limitGroupOf,
  publicLimitResponses,
  limitKey,
  tooManyRequestsMessage,
} from './public-limits';

describe('limitGroupOf', () => {
  it.each([
    ['POST', '/api/bookings/quote', 'quotes'],
    ['POST', '/api/pricing/quote/', 'quotes'],
    ['POST', '/api/Bookings/QUOTE', 'quotes'],
    ['POST', '/api/bookings', 'bookings'],
    ['POST', '/api/bookings/', 'bookings'],
    ['POST', '/api/bookings/7f0c/photos', 'photoUploads'],
    ['POST', '/api/bookings/7f0c/Photos/', 'photoUploads'],
    ['GET', '/api/addresses/suggestions', 'addressSuggestions'],
    ['HEAD', '/api/addresses/suggestions', 'addressSuggestions'],
    ['POST', '/api/create-payment-intent-token', 'paymentIntents'],
    ['POST', '/api/payments/test-mode/confirm', 'paymentIntents'],
    ['POST', '/api/manage/tok3n/photos', 'photoUploads'],
    ['GET', '/api/manage/tok3n', 'manageBooking'],
    ['PATCH', '/api/manage/tok3n/', 'manageBooking'],
    ['POST', '/api/manage/tok3n/reschedule', 'manageBooking'],
    ['POST', '/api/Manage/tok3n/cancel', 'manageBooking'],
    ['GET', '/api/unsubscribe/tok3n', 'unsubscribe'],
    ['POST', '/api/unsubscribe/tok3n/', 'unsubscribe'],
  ])('%s %s counts as %s', (method, path, group) => {
    expect(limitGroupOf(method, path)).toBe(group);
  });

  it.each([
    ['GET', '/api/bookings'],
    ['GET', '/api/time-slots'],
    ['GET', '/api/pricing'],
    ['GET', '/api/booking-token/abc'],
    ['GET', '/api/payments/config'],
    ['GET', '/api/bookings/7f0c/photos'],
    // Stripe's calls come from Stripe, not from customers.
    ['POST', '/api/payments/webhook'],
    ['POST', '/api/payments/Webhook/'],
    ['POST', '/api/bookingsx'],
    ['GET', '/api/managex/tok3n'],
    ['POST', '/api/dashboard/jobs'],
  ])('%s %s is not limited', (method, path) => {
    expect(limitGroupOf(method, path)).toBeUndefined();
  });
});

describe('keys and answers', () => {
  it('counts per group and client address', () => {
    expect(limitKey('bookings', '203.0.113.7')).toBe('bookings:203.0.113.7');
    expect(limitKey('quotes', '203.0.113.7')).not.toBe(limitKey('bookings', '203.0.113.7'));
    expect(limitKey('bookings', '2001:db8::1')).toBe('bookings:2001:db8::1');
  });

  it('says how long to wait in the spec’s tone', () => {
    expect(tooManyRequestsMessage(30)).toBe('Too many requests. Please wait a few minutes and try again.');
    expect(tooManyRequestsMessage(300)).toBe('Too many requests. Please wait a few minutes and try again.');
    expect(tooManyRequestsMessage(1190)).toBe('Too many requests. Please try again in 20 minutes.');
  });
});

describe('configuration', () => {
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: 'postgresql://x@127.0.0.1/x',
    AMQP_URL: 'amqp://127.0.0.1',
    REDIS_URL: 'redis://127.0.0.1',
    SESSION_SECRET: 'x'.repeat(48),
    INTERNAL_JWT_PRIVATE_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  };

  it('defaults to limits a real customer never meets; each can be set, never to zero', () => {
    expect(hourlyLimits(gatewayEnvSchema.parse(env))).toEqual(DEFAULT_HOURLY_LIMITS);
    expect(
      hourlyLimits(gatewayEnvSchema.parse({ ...env, PUBLIC_LIMIT_BOOKINGS_PER_HOUR: '10000' })).bookings,
    ).toBe(10_000);
    const zero = gatewayEnvSchema.safeParse({ ...env, PUBLIC_LIMIT_QUOTES_PER_HOUR: '0' });
    expect(zero.error?.issues.map((i) => i.path.join('.'))).toEqual(['PUBLIC_LIMIT_QUOTES_PER_HOUR']);
  });
});

describe('publicLimitResponses (the combined reference)', () => {
  it('documents the 429 on every operation a public limit counts, with its message, and nothing elsewhere', () => {
    const booking = publicLimitResponses('POST', '/api/bookings') as Record<string, { description: string }>;
    expect(booking['429']?.description).toMatch(/"bookings" limit/);
    expect(JSON.stringify(booking)).toContain('Too many requests. Please wait a few minutes and try again.');
    expect(publicLimitResponses('GET', '/api/dashboard/jobs')).toBeUndefined();
  });
});

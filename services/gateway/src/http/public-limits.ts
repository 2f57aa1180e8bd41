import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Counter } from 'prom-client';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '@tyres/service-kit';

/**
 * Per-client limits on the public endpoints a script could abuse (issue 14): holding slots with repeated quotes,
 * flooding bookings, filling storage with photos, running up the address-lookup bill, opening payment intents.
 * Each is counted per route group and client address over an hour, in Redis (shared by every gateway replica).
 * The numbers are far above what a real customer does in an hour; staff (signed-in) calls are never counted.
 */
export type LimitGroup =
  | 'quotes'
  | 'bookings'
  | 'photoUploads'
  | 'addressSuggestions'
  | 'paymentIntents'
  | 'manageBooking'
  | 'payInvoice'
  | 'unsubscribe';

export type HourlyLimits = Record<LimitGroup, number>;

export const DEFAULT_HOURLY_LIMITS: HourlyLimits = {
  quotes: 120,
  bookings: 10,
  photoUploads: 60,
  addressSuggestions: 300,
  paymentIntents: 20,
  // The customer's "manage my booking" page (issue 18): every read and change of /api/manage/{token} (its photo
  // uploads count as photoUploads). A customer uses a handful; the token itself is 256 random bits.
  manageBooking: 300,
  // An invoice's "Pay now" page (issue 18): reads of /api/pay/{token} (its payment intents count as paymentIntents).
  payInvoice: 300,
  // The review request's unsubscribe link (issue 18, notify): the page unsubscribes once per click. Mail providers
  // send their one-click unsubscribes (RFC 8058) from a few addresses shared by all their users: room for those.
  unsubscribe: 300,
};

const perHour = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Each group's hourly limit from the environment (config.ts spreads these in; .env.example lists them). */
export const publicLimitsEnv = {
  PUBLIC_LIMIT_QUOTES_PER_HOUR: perHour(DEFAULT_HOURLY_LIMITS.quotes),
  PUBLIC_LIMIT_BOOKINGS_PER_HOUR: perHour(DEFAULT_HOURLY_LIMITS.bookings),
  PUBLIC_LIMIT_PHOTO_UPLOADS_PER_HOUR: perHour(DEFAULT_HOURLY_LIMITS.photoUploads),
  PUBLIC_LIMIT_ADDRESS_SUGGESTIONS_PER_HOUR: perHour(DEFAULT_HOURLY_LIMITS.addressSuggestions),
  PUBLIC_LIMIT_PAYMENT_INTENTS_PER_HOUR: perHour(DEFAULT_HOURLY_LIMITS.paymentIntents),
  PUBLIC_LIMIT_MANAGE_BOOKING_PER_HOUR: perHour(DEFAULT_HOURLY_LIMITS.manageBooking),
  PUBLIC_LIMIT_PAY_INVOICE_PER_HOUR: perHour(DEFAULT_HOURLY_LIMITS.payInvoice),
  PUBLIC_LIMIT_UNSUBSCRIBE_PER_HOUR: perHour(DEFAULT_HOURLY_LIMITS.unsubscribe),
};

/** The hourly limits from the parsed configuration. */
export function hourlyLimits(config: { [K in keyof typeof publicLimitsEnv]: number }): HourlyLimits {
  return {
    quotes: config.PUBLIC_LIMIT_QUOTES_PER_HOUR,
    bookings: config.PUBLIC_LIMIT_BOOKINGS_PER_HOUR,
    photoUploads: config.PUBLIC_LIMIT_PHOTO_UPLOADS_PER_HOUR,
    addressSuggestions: config.PUBLIC_LIMIT_ADDRESS_SUGGESTIONS_PER_HOUR,
    paymentIntents: config.PUBLIC_LIMIT_PAYMENT_INTENTS_PER_HOUR,
    manageBooking: config.PUBLIC_LIMIT_MANAGE_BOOKING_PER_HOUR,
    payInvoice: config.PUBLIC_LIMIT_PAY_INVOICE_PER_HOUR,
    unsubscribe: config.PUBLIC_LIMIT_UNSUBSCRIBE_PER_HOUR,
  };
}

const POST = new Set(['POST']);
const READ = new Set(['GET', 'HEAD']);
const ANY = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Which calls count towards which group. Matched as the services' express routers match (case-insensitive,
 * optional trailing slash), so no spelling of a path reaches a handler uncounted. Stripe's webhook is never
 * limited: it comes from Stripe's few addresses, not from customers.
 */
const RULES: Array<{ group: LimitGroup; methods: Set<string>; path: RegExp }> = [
  { group: 'quotes', methods: POST, path: /^\/api\/(?:bookings|pricing)\/quote\/?$/i },
  { group: 'bookings', methods: POST, path: /^\/api\/bookings\/?$/i },
  { group: 'photoUploads', methods: POST, path: /^\/api\/(?:bookings|manage)\/[^/]+\/photos\/?$/i },
  { group: 'manageBooking', methods: ANY, path: /^\/api\/manage(?:\/|$)/i },
  { group: 'unsubscribe', methods: ANY, path: /^\/api\/unsubscribe(?:\/|$)/i },
  { group: 'addressSuggestions', methods: READ, path: /^\/api\/addresses(?:\/|$)/i },
  {
    group: 'paymentIntents',
    methods: POST,
    path: /^\/api\/(?:create-payment-intent-token\/?$|payments\/(?!webhook\/?$)|pay\/[^/]+\/payment-intent\/?$)/i,
  },
  { group: 'payInvoice', methods: ANY, path: /^\/api\/pay(?:\/|$)/i },
];

/** The limited group a call belongs to, if any. */
export function limitGroupOf(method: string, path: string): LimitGroup | undefined {
  for (const rule of RULES) if (rule.methods.has(method) && rule.path.test(path)) return rule.group;
  return undefined;
}

/** Counted per group and client address: a burst of address lookups never uses up the client's bookings. */
export function limitKey(group: LimitGroup, clientAddress: string): string {
  return `${group}:${clientAddress}`;
}

/** The 429 answer: the spec's tone, and how long to wait. */
export function tooManyRequestsMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return minutes <= 5
    ? 'Too many requests. Please wait a few minutes and try again.'
    : `Too many requests. Please try again in ${minutes} minutes.`;
}

export interface PublicLimitsOptions {
  redis: Redis;
  /** REDIS_PREFIX: keys are `<prefix>gateway:public-limit:<group>:<address>`. */
  prefix: string;
  limits: HourlyLimits;
  logger: Logger;
  /** Counts the calls let through because Redis could not be asked (the limiter fails open). */
  failedOpen?: Counter<'group'>;
  windowSeconds?: number;
  /** A Redis that does not answer within this long is treated as down (the call is let through). */
  timeoutMs?: number;
}

export interface LimitRefusal {
  retryAfterSeconds: number;
  message: string;
}

export class PublicLimits {
  private readonly limiters: Record<LimitGroup, RateLimiterRedis>;
  private readonly timeoutMs: number;

  constructor(private readonly opts: PublicLimitsOptions) {
    const duration = opts.windowSeconds ?? 3600;
    this.timeoutMs = opts.timeoutMs ?? 500;
    const limiter = (group: LimitGroup) =>
      new RateLimiterRedis({
        storeClient: opts.redis,
        keyPrefix: `${opts.prefix}gateway:public-limit`,
        points: opts.limits[group],
        duration,
        // Without Redis there is nothing to count with: refuse at once (and let the call through) rather than
        // hold a customer's booking until a reconnect.
        rejectIfRedisNotReady: true,
      });
    this.limiters = {
      quotes: limiter('quotes'),
      bookings: limiter('bookings'),
      photoUploads: limiter('photoUploads'),
      addressSuggestions: limiter('addressSuggestions'),
      paymentIntents: limiter('paymentIntents'),
      manageBooking: limiter('manageBooking'),
      payInvoice: limiter('payInvoice'),
      unsubscribe: limiter('unsubscribe'),
    };
  }

  /**
   * Counts one call; a refusal when the client is over its group's limit, else undefined. Never throws: when
   * Redis is down or slow the call goes through (booking must keep working), with a warning and a metric.
   */
  async consume(group: LimitGroup, clientAddress: string): Promise<LimitRefusal | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
    });
    try {
      const counted = await Promise.race([
        this.limiters[group].consume(limitKey(group, clientAddress), 1),
        timeout,
      ]);
      if (counted === 'timeout') throw new Error(`Redis did not answer within ${this.timeoutMs} ms`);
      return undefined;
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const retryAfterSeconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        return { retryAfterSeconds, message: tooManyRequestsMessage(retryAfterSeconds) };
      }
      this.opts.logger.warn(
        { err: (err as Error).message, group },
        'public limit not checked (Redis unavailable): call let through',
      );
      this.opts.failedOpen?.inc({ group });
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The 429 the public limits answer on an operation, as OpenAPI responses for the combined reference (the services'
 * own documents cannot know it); undefined for an operation no limit counts.
 */
export function publicLimitResponses(method: string, path: string): Record<string, unknown> | undefined {
  const group = limitGroupOf(method, path);
  if (!group) return undefined;
  return {
    '429': {
      description: `Too many requests from this client (the gateway's "${group}" limit per hour; Retry-After says when to try again)`,
      headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: {
            soon: { value: { message: tooManyRequestsMessage(60), code: 'too_many_requests' } },
            later: {
              value: {
                message: 'Too many requests. Please try again in {minutes} minutes.',
                code: 'too_many_requests',
              },
            },
          },
        },
      },
    },
  };
}

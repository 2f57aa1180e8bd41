import { injectInto } from '@tyres/telemetry';
import { HttpError } from '@tyres/service-kit';
import { z } from 'zod';
import { parseSurchargeRate, type SurchargeRate } from '@tyres/kernel';

/** The booking service's answer to GET /internal/booking-token/{token} (fields billing relies on; others ignored). */
export const bookingByTokenSchema = z.looseObject({
  quoteId: z.string().uuid().nullable().optional(),
  jobId: z.string().uuid().nullable().optional(),
  amount: z.union([z.string(), z.number()]),
  currency: z.string().default('AUD'),
  /** The card surcharge rate the quote was given at ("1.70"); absent from an older booking service (1.70%). */
  cardSurchargeRate: z.string().optional(),
  status: z.string().optional(),
  paymentStatus: z.string().optional(),
  expiresAt: z.string().nullable().optional(),
  serviceType: z.string().optional(),
  customer: z
    .looseObject({ name: z.string().optional(), email: z.string().optional(), phone: z.string().optional() })
    .optional(),
  job: z.looseObject({ scheduledDate: z.string().optional(), timeSlot: z.string().optional() }).optional(),
});
export type BookingByToken = z.infer<typeof bookingByTokenSchema>;

export interface BookingClient {
  /** The booking a token stands for, or undefined when booking answers 404 (absent or expired). */
  byToken(token: string, headers: Record<string, string | undefined>): Promise<BookingByToken | undefined>;
  /**
   * The card surcharge rate in force now on booking's price list (basis points: 1.70% = 170n), from GET
   * /internal/card-surcharge-rate. Throws surchargeRateUnavailable (503) when booking can't say: never a guess.
   */
  cardSurchargeRate(headers?: Record<string, string | undefined>): Promise<SurchargeRate>;
}

/** Booking (the price list) could not tell the rate in force: no payment is started on a guessed rate. */
export const surchargeRateUnavailable = () =>
  new HttpError(
    503,
    'Card payments are unavailable for a moment: we could not confirm the card surcharge. Please try again in a few minutes.',
    'surcharge_rate_unavailable',
  );

export const paymentSetupFailed = () =>
  new HttpError(502, 'Unable to initialize payment. Please try again.', 'payment_setup_failed');

export function httpBookingClient(baseUrl: string, timeoutMs = 5000): BookingClient {
  return {
    async byToken(token, headers) {
      const url = new URL(`/internal/booking-token/${encodeURIComponent(token)}`, baseUrl);
      const forwarded: Record<string, string> = { accept: 'application/json' };
      for (const [k, v] of Object.entries(headers)) if (v) forwarded[k] = v;
      // The checkout's trace continues in booking (W3C traceparent).
      injectInto(forwarded);
      let res: Response;
      try {
        res = await fetch(url, { headers: forwarded, signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        throw Object.assign(paymentSetupFailed(), { cause: err });
      }
      if (res.status === 404) return undefined;
      if (!res.ok)
        throw Object.assign(paymentSetupFailed(), { cause: new Error(`booking answered ${res.status}`) });
      const parsed = bookingByTokenSchema.safeParse(await res.json().catch(() => undefined));
      if (!parsed.success) throw Object.assign(paymentSetupFailed(), { cause: parsed.error });
      return parsed.data;
    },
    async cardSurchargeRate(headers = {}) {
      const url = new URL('/internal/card-surcharge-rate', baseUrl);
      const forwarded: Record<string, string> = { accept: 'application/json' };
      for (const [k, v] of Object.entries(headers)) if (v) forwarded[k] = v;
      injectInto(forwarded);
      let body: unknown;
      try {
        const res = await fetch(url, { headers: forwarded, signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) throw new Error(`booking answered ${res.status}`);
        body = await res.json();
      } catch (err) {
        throw Object.assign(surchargeRateUnavailable(), { cause: err });
      }
      const rate = parseSurchargeRate((body as { cardSurchargeRate?: unknown } | null)?.cardSurchargeRate);
      if (rate === undefined)
        throw Object.assign(surchargeRateUnavailable(), { cause: new Error('booking sent no valid rate') });
      return rate;
    },
  };
}

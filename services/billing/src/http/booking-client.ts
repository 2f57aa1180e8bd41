import { injectInto } from '@tyres/telemetry';
import { HttpError } from '@tyres/service-kit';
import { z } from 'zod';

/** The booking service's answer to GET /internal/booking-token/{token} (fields billing relies on; others ignored). */
export const bookingByTokenSchema = z.looseObject({
  quoteId: z.string().uuid().nullable().optional(),
  jobId: z.string().uuid().nullable().optional(),
  amount: z.union([z.string(), z.number()]),
  currency: z.string().default('AUD'),
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
}

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
  };
}

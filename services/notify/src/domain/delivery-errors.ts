/**
 * Which send failures are worth retrying. Permanent ones (a bad number, a rejected mailbox) fail the message at
 * once; everything else (network, timeouts, rate limits, provider outages, auth problems that an operator can fix)
 * is retried with exponential backoff.
 */

/** Thrown by a transport when retrying cannot help. */
export class PermanentDeliveryError extends Error {
  override readonly name = 'PermanentDeliveryError';
}

export type FailureKind = 'permanent' | 'transient';

/** Twilio error codes that mean "this message can never be sent to this recipient". */
const TWILIO_PERMANENT_CODES = new Set([
  21211, // invalid 'To' number
  21214, // 'To' number cannot be reached
  21217, // phone number does not appear to be valid
  21408, // permission to send to this region not enabled
  21610, // recipient replied STOP (unsubscribed)
  21612, // 'To' number not reachable via this 'From'
  21614, // 'To' number is not a mobile number
  21617, // body exceeds 1600 characters
  21635, // 'To' number is not a valid mobile
]);

interface TwilioLikeError {
  status?: unknown;
  code?: unknown;
}

/** Twilio's RestException carries the HTTP status and Twilio's numeric code; network errors carry neither. */
export function classifyTwilioError(err: unknown): FailureKind {
  if (err instanceof PermanentDeliveryError) return 'permanent';
  const e = (err ?? {}) as TwilioLikeError;
  if (typeof e.code === 'number' && TWILIO_PERMANENT_CODES.has(e.code)) return 'permanent';
  const status = typeof e.status === 'number' ? e.status : undefined;
  if (status === undefined) return 'transient';
  if (status === 429 || status >= 500) return 'transient';
  // 401/403: credentials or account problems an operator fixes; keep trying until the attempts run out.
  if (status === 401 || status === 403) return 'transient';
  if (status >= 400) return 'permanent';
  return 'transient';
}

interface SmtpLikeError {
  code?: unknown;
  responseCode?: unknown;
}

/** nodemailer errors: 5xx replies to the envelope or message are permanent; 4xx, network and auth are not. */
export function classifySmtpError(err: unknown): FailureKind {
  if (err instanceof PermanentDeliveryError) return 'permanent';
  const e = (err ?? {}) as SmtpLikeError;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const response = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  if (code === 'EAUTH') return 'transient';
  if (
    response !== undefined &&
    response >= 500 &&
    response < 600 &&
    (code === 'EENVELOPE' || code === 'EMESSAGE')
  )
    return 'permanent';
  if (code === 'EENVELOPE' && response === undefined) return 'permanent'; // no recipients / invalid address
  return 'transient';
}

export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const e = err as Error & { code?: unknown; status?: unknown; responseCode?: unknown };
    const tags = [
      typeof e.status === 'number' ? `HTTP ${e.status}` : undefined,
      typeof e.responseCode === 'number' ? `SMTP ${e.responseCode}` : undefined,
      e.code !== undefined ? `code ${String(e.code)}` : undefined,
    ].filter(Boolean);
    return `${err.message}${tags.length ? ` (${tags.join(', ')})` : ''}`.slice(0, 2000);
  }
  return String(err).slice(0, 2000);
}

import { injectInto } from '@tyres/telemetry';
import { HttpError, IDENTITY_HEADER, REQUEST_ID_HEADER, type Logger } from '@tyres/service-kit';
import {
  BookingUnavailableError,
  type BookingAuth,
  type ReservationApi,
  type Slot,
} from '../app/reservations';
import { SLOT_TAKEN } from '../domain/messages';

const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
]);

function errorCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: string; errors?: { code?: string }[] } })?.cause;
  return cause?.code ?? cause?.errors?.[0]?.code;
}

async function messageOf(res: Response): Promise<string | undefined> {
  try {
    const body = (await res.json()) as { message?: unknown };
    return typeof body?.message === 'string' && body.message ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The booking service's internal reservation API (booking owns slot reservations and their uniqueness):
 *   PUT    {BOOKING_URL}/internal/reservations/{jobId}  { scheduledDate, timeSlot } → 200 | 409 taken | 400 | 404
 *   DELETE {BOOKING_URL}/internal/reservations/{jobId}                              → 204 (idempotent)
 * Calls forward the caller's gateway-signed identity and request id. Booking's refusals become the answers the
 * dashboard shows; an outage becomes BookingUnavailableError (src/app/reservations.ts).
 */
export class BookingClient implements ReservationApi {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  async moveReservation(jobId: string, slot: Slot, auth: BookingAuth): Promise<void> {
    const res = await this.call('PUT', jobId, auth, {
      scheduledDate: slot.scheduledDate,
      timeSlot: slot.timeSlot,
    });
    if (res.status === 200 || res.status === 204) return;
    const message = await messageOf(res);
    if (res.status === 409) throw new HttpError(409, message ?? SLOT_TAKEN, 'slot_unavailable');
    if (res.status === 400)
      throw new HttpError(400, message ?? 'Invalid date or time slot selected', 'invalid_slot');
    if (res.status === 404)
      throw new HttpError(
        409,
        message ?? 'The booking service holds no time slot reservation for this job, so it cannot be moved.',
        'no_reservation',
      );
    throw this.unexpected('PUT', res.status, message);
  }

  async releaseReservation(jobId: string, auth: BookingAuth): Promise<void> {
    const res = await this.call('DELETE', jobId, auth);
    // 404 = nothing to release: the outcome we want.
    if (res.status === 204 || res.status === 200 || res.status === 404) return;
    throw this.unexpected('DELETE', res.status, await messageOf(res));
  }

  private unexpected(method: string, status: number, message: string | undefined): HttpError {
    this.logger.error({ method, status, message }, 'booking reservation call failed');
    if (status >= 500) return new BookingUnavailableError(true);
    // 401/403: the forwarded identity was refused; nothing was applied.
    return new HttpError(
      502,
      `The booking service refused the slot change (${status}). Nothing was changed.`,
      'booking_refused',
    );
  }

  private async call(
    method: 'PUT' | 'DELETE',
    jobId: string,
    auth: BookingAuth,
    body?: unknown,
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (auth.identityToken) headers[IDENTITY_HEADER] = auth.identityToken;
    if (auth.requestId) headers[REQUEST_ID_HEADER] = auth.requestId;
    // The staff request's trace continues in booking (W3C traceparent).
    injectInto(headers);
    const url = `${this.base}/internal/reservations/${encodeURIComponent(jobId)}`;
    try {
      return await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const code = errorCode(err);
      const sent = !(code && NOT_SENT.has(code));
      this.logger.warn(
        { method, url, code, err: (err as Error)?.message, maybeApplied: sent },
        'booking unreachable',
      );
      throw new BookingUnavailableError(sent, err);
    }
  }
}

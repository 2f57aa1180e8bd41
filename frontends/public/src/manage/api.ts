/** The "manage my booking" page's calls (booking's /api/manage routes), typed by booking's OpenAPI document. */
import { ApiError } from '@tyres/platform/api';
import type { components, paths } from '@tyres/platform/api-types/booking';
import { typedApi, type RequestBodyOf } from '@tyres/platform/typed-api';

const booking = typedApi<paths>();

/** GET /api/manage/{token}: the booking and the cancellation terms that apply at this moment. */
export type ManagedBooking = components['schemas']['ManagedBooking'];
export type CancellationTerms = NonNullable<ManagedBooking['cancellation']>;
export type DetailChanges = RequestBodyOf<paths, '/api/manage/{token}', 'patch'>;
export type RescheduleBody = RequestBodyOf<paths, '/api/manage/{token}/reschedule', 'post'>;

export const manageKey = (token: string) => ['public', 'manage', token] as const;

export const fetchManaged = (token: string) => booking.get('/api/manage/{token}', { params: { token } });

export const rescheduleBooking = (token: string, body: RescheduleBody) =>
  booking.post('/api/manage/{token}/reschedule', { params: { token }, body });

/**
 * POST …/cancel with the terms the page showed (`expected`): booking cancels only under those terms, and answers 409
 * terms_changed when a policy boundary passed meanwhile (the page then shows the new terms to confirm again).
 */
export const cancelBooking = (
  token: string,
  reason: string | null,
  expected: Pick<CancellationTerms, 'band' | 'refund' | 'fee'>,
) =>
  booking.post('/api/manage/{token}/cancel', {
    params: { token },
    body: { reason, expected: { band: expected.band, refund: expected.refund, fee: expected.fee } },
  });

export const changeDetails = (token: string, body: DetailChanges) =>
  booking.patch('/api/manage/{token}', { params: { token }, body });

export function uploadManagedPhotos(token: string, files: readonly File[]) {
  const form = new FormData();
  form.append('type', 'tyre-condition');
  for (const file of files) form.append('photos', file, file.name);
  return booking.upload('/api/manage/{token}/photos', form, { params: { token } });
}

/**
 * The field messages of a 400 (`details: [{ path: 'vehicle.year', message }]`, the first one per field); a 400
 * without details (a rule checked after parsing) is the form's own message under `''`.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const out: Record<string, string> = {};
  try {
    const body = JSON.parse(error.body) as { details?: unknown };
    if (Array.isArray(body.details)) {
      for (const d of body.details as { path?: unknown; message?: unknown }[]) {
        if (typeof d?.path === 'string' && typeof d.message === 'string' && !(d.path in out))
          out[d.path] = d.message;
      }
    }
  } catch {
    // not JSON: the message below
  }
  if (Object.keys(out).length === 0) out[''] = error.serverMessage ?? 'Please check your details.';
  return out;
}

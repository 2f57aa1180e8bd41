import { matchRoute } from './routing';

describe('matchRoute', () => {
  it.each([
    ['/api/manage/tok3n', 'booking', 'public', undefined],
    ['/api/manage/tok3n/reschedule', 'booking', 'public', undefined],
    ['/api/manage/tok3n/cancel', 'booking', 'public', undefined],
    // Photo uploads get the upload body cap, as at booking time.
    ['/api/manage/tok3n/photos', 'booking', 'public', true],
    ['/api/bookings/7f0c/photos', 'booking', 'public', true],
    ['/api/bookings', 'booking', 'public', undefined],
    ['/api/dashboard/bookings/7f0c/cancel', 'booking', 'admin', undefined],
    ['/api/dashboard/bookings/7f0c/cancellation', 'booking', 'admin', undefined],
    // Refunds of cancelled prepaid bookings and their retry: billing, admins only (issue 18).
    ['/api/dashboard/refunds', 'billing', 'admin', undefined],
    ['/api/dashboard/refunds/0b5c1f52-4c1e-4c7e-9d6a-2f0f6d1e9a11/retry', 'billing', 'admin', undefined],
  ])('%s goes to %s (%s)', (path, upstream, access, upload) => {
    expect(matchRoute(path)).toMatchObject({ upstream, access });
    expect(matchRoute(path)?.upload).toBe(upload);
  });

  it('matches whole segments only', () => {
    expect(matchRoute('/api/managex/tok3n')).toBeUndefined();
  });
});

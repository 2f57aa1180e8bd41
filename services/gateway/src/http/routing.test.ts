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
  ])('%s goes to %s (%s)', (path, upstream, access, upload) => {
    expect(matchRoute(path)).toMatchObject({ upstream, access });
    expect(matchRoute(path)?.upload).toBe(upload);
  });

  it('matches whole segments only', () => {
    expect(matchRoute('/api/managex/tok3n')).toBeUndefined();
  });
});

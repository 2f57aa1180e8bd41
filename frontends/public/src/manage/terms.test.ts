import { cancelledManagedBooking, managedBooking, prepaidManagedBooking } from '../testing/fixtures';
import { cancellationWording, cancelledWording } from './terms';

const onsite = (band: 'full_refund' | 'half_refund' | 'no_refund', fee: string, refundPercent: number) => {
  const b = managedBooking();
  return { b, t: { band, description: '', hoursBefore: 1, refundPercent, refund: '0.00', fee } };
};

describe('cancellation terms in plain words', () => {
  test('prepaid: refund to the card, in each band', () => {
    for (const [band, words] of [
      ['full_refund', 'Cancelling now: full refund of $465.58 to your card.'],
      ['half_refund', 'Cancelling now: 50% ($232.79) refunded to your card, $232.79 kept.'],
      ['no_refund', 'No refund: less than 12 hours before your booking. The $465.58 you paid is kept.'],
    ] as const) {
      const b = prepaidManagedBooking(band);
      expect(cancellationWording(b, b.cancellation!)).toBe(words);
    }
  });

  test('pay on site: nothing to pay, half the price, or the whole price as the fee', () => {
    const free = onsite('full_refund', '0.00', 100);
    expect(cancellationWording(free.b, free.t)).toBe('Cancelling now is free: there is nothing to pay.');
    const half = onsite('half_refund', '228.90', 50);
    expect(cancellationWording(half.b, half.t)).toBe(
      'Cancelling now: a cancellation fee of $228.90 (50% of the price) will be invoiced.',
    );
    const late = onsite('no_refund', '457.80', 0);
    expect(cancellationWording(late.b, late.t)).toBe(
      'Less than 12 hours before your booking: cancelling now means a cancellation fee of $457.80, the full price, will be invoiced.',
    );
  });

  test('a cancelled booking: the refund made, a waived fee, or the fee kept', () => {
    const refunded = cancelledManagedBooking();
    expect(cancelledWording(refunded)).toBe('A refund of $465.58 is being returned to your card.');
    const waived = { ...refunded, cancelled: { ...refunded.cancelled!, feeWaived: true } };
    expect(cancelledWording(waived)).toBe('The cancellation fee was waived.');
    const kept = {
      ...refunded,
      cancelled: { ...refunded.cancelled!, band: 'no_refund', refund: '0.00', fee: '465.58' },
    };
    expect(cancelledWording(kept)).toBe(
      'No refund was due: the $465.58 you paid is kept under our cancellation policy.',
    );
    expect(cancelledWording(managedBooking())).toBeNull();
  });
});

import { cancellationBand, cancellationTerms, noShowTerms } from './cancellation';

// Thursday 10 December 2026, 8-10 AM in Perth = 00:00 UTC that day (Perth is UTC+8, no daylight saving).
const date = '2026-12-10';
const slot = '8-10 AM' as const;
const hoursBefore = (h: number) => new Date(Date.UTC(2026, 11, 10, 0, 0, 0) - h * 3_600_000);

describe('the cancellation policy', () => {
  it('falls in the bands the terms promise, boundaries in the customer’s favour', () => {
    expect(cancellationBand(date, slot, hoursBefore(30))).toBe('full_refund');
    expect(cancellationBand(date, slot, hoursBefore(24))).toBe('full_refund');
    expect(cancellationBand(date, slot, new Date(hoursBefore(24).getTime() + 1))).toBe('half_refund');
    expect(cancellationBand(date, slot, hoursBefore(12))).toBe('half_refund');
    expect(cancellationBand(date, slot, new Date(hoursBefore(12).getTime() + 1))).toBe('no_refund');
    expect(cancellationBand(date, slot, hoursBefore(6))).toBe('no_refund');
    expect(cancellationBand(date, slot, hoursBefore(-3))).toBe('no_refund');
  });

  it('measures from the slot’s start in Perth, not midnight or UTC', () => {
    // 2-4 PM starts 14:00 Perth = 06:00 UTC; at 13:59 UTC the day before that is 16 h 1 min ahead: 50%.
    expect(cancellationBand(date, '2-4 PM', new Date(Date.UTC(2026, 11, 9, 13, 59)))).toBe('half_refund');
    expect(cancellationBand(date, '2-4 PM', new Date(Date.UTC(2026, 11, 9, 6, 0)))).toBe('full_refund');
  });

  it('refunds a prepaid booking’s whole charge (surcharge included) in the band’s share, half-up', () => {
    // $424.90 charged: full, half (212.45), none.
    const paid = 42490n;
    expect(
      cancellationTerms({ scheduledDate: date, timeSlot: slot, at: hoursBefore(30), price: 41780n, paid }),
    ).toEqual({ band: 'full_refund', hoursBefore: 30, refundPercent: 100, refund: 42490n, fee: 0n });
    expect(
      cancellationTerms({ scheduledDate: date, timeSlot: slot, at: hoursBefore(18), price: 41780n, paid }),
    ).toEqual({ band: 'half_refund', hoursBefore: 18, refundPercent: 50, refund: 21245n, fee: 21245n });
    // An odd cent: $129.81 → refund $64.91 (half-up), fee $64.90; they add up to the charge.
    const odd = cancellationTerms({
      scheduledDate: date,
      timeSlot: slot,
      at: hoursBefore(13),
      price: 0n,
      paid: 12981n,
    });
    expect([odd.refund, odd.fee]).toEqual([6491n, 6490n]);
    expect(
      cancellationTerms({ scheduledDate: date, timeSlot: slot, at: hoursBefore(6), price: 41780n, paid }),
    ).toEqual({ band: 'no_refund', hoursBefore: 6, refundPercent: 0, refund: 0n, fee: 42490n });
  });

  it('charges a pay-on-site booking the share the band does not forgive', () => {
    const at = (h: number) =>
      cancellationTerms({ scheduledDate: date, timeSlot: slot, at: hoursBefore(h), price: 12980n, paid: 0n });
    expect(at(48).fee).toBe(0n);
    expect(at(20).fee).toBe(6490n);
    expect(at(2).fee).toBe(12980n);
    expect(at(2).refund).toBe(0n);
  });

  it('keeps a completed prepaid job and charges a no-show in full', () => {
    expect(
      cancellationTerms({
        scheduledDate: date,
        timeSlot: slot,
        at: hoursBefore(48),
        price: 0n,
        paid: 5000n,
        completed: true,
      }).refund,
    ).toBe(0n);
    expect(noShowTerms({ price: 12980n, paid: 0n }).fee).toBe(12980n);
    expect(noShowTerms({ price: 41780n, paid: 42490n })).toMatchObject({ refund: 0n, fee: 42490n });
  });
});

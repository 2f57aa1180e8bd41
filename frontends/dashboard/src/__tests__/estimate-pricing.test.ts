/**
 * The staff form's estimate against the booking service's own pricing (issue 12: "the staff booking form's estimate
 * must match what is booked"): for every service type, payment method and quantity, the estimated total is the total
 * of the quote the booking is made with. A change to either side that makes them disagree fails here.
 */
import { estimateTotal, feesOf } from '../lib/estimate';
import { computeQuote, prepaidAllowed } from '../../../../services/booking/src/domain/pricing';

// The pricing module's only runtime need from @tyres/events is its money helpers (the rest is the message bus).
jest.mock('@tyres/events', () => jest.requireActual('../../../../packages/events/src/money'), {
  virtual: true,
});

const SERVICES = ['new-tyres', 'puncture-repair', 'battery-service', 'emergency-callout'] as const;

/** What Bookings.price() books: prepaid only where allowed, otherwise the on-site price. */
function booked(
  serviceType: (typeof SERVICES)[number],
  quantity: number,
  tyre: bigint | null,
  prepaid: boolean,
) {
  const input = { serviceType, tyreSize: '205/55R16', tyrePriceCents: tyre, quantity };
  const quote = computeQuote({ ...input, prepaid });
  return prepaid && !prepaidAllowed(serviceType, quote) ? computeQuote({ ...input, prepaid: false }) : quote;
}

describe('staff booking estimate = booked price', () => {
  test.each(SERVICES)('%s', (serviceType) => {
    for (const prepaid of [false, true])
      for (const quantity of [1, 2, 3, 4])
        for (const tyre of [13900n, 18950n, null]) {
          const quote = booked(serviceType, quantity, tyre, prepaid);
          const estimate = estimateTotal({
            serviceType,
            quantity,
            tyrePrice: tyre === null ? null : `${tyre / 100n}.${String(tyre % 100n).padStart(2, '0')}`,
            prepaid,
          });
          expect({ serviceType, prepaid, quantity, tyre: String(tyre), estimate }).toEqual({
            serviceType,
            prepaid,
            quantity,
            tyre: String(tyre),
            estimate: quote.total,
          });
        }
  });
});

describe('staff booking estimate follows the price list in force (issue 19: GET /api/pricing)', () => {
  const raised = {
    calloutFee: '99.80',
    punctureRepair: '45.00',
    fittingPerTyre: '27.50',
    balancingPerTyre: '15.00',
    prepaidDiscount: '20.00',
  };
  test.each(SERVICES)('%s with the raised fees = what the booking service books with them', (serviceType) => {
    for (const prepaid of [false, true])
      for (const quantity of [1, 4]) {
        const input = { serviceType, tyreSize: '205/55R16', tyrePriceCents: 13900n, quantity };
        const fees = feesOf(raised);
        let quote = computeQuote({ ...input, prepaid, fees });
        if (prepaid && !prepaidAllowed(serviceType, quote))
          quote = computeQuote({ ...input, prepaid: false, fees });
        expect(estimateTotal({ serviceType, quantity, tyrePrice: '139.00', prepaid, fees: raised })).toBe(
          quote.total,
        );
      }
  });

  test('puncture repair: 45 + callout 99.80 = 144.80; while the list loads the code list stands (129.80)', () => {
    const args = { serviceType: 'puncture-repair', quantity: 1, tyrePrice: null, prepaid: false };
    expect(estimateTotal({ ...args, fees: raised })).toBe('144.80');
    expect(estimateTotal({ ...args, fees: undefined })).toBe('129.80');
  });
});

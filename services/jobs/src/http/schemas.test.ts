import { BOTH_REQUIRED, INVALID_DATE, INVALID_SLOT, lineItemBody, rescheduleBody } from './schemas';

const reschedule = (scheduledDate: unknown, timeSlot: unknown = '8-10 AM') =>
  rescheduleBody.safeParse({ scheduledDate, timeSlot });

describe('reschedule body', () => {
  it('reads dashboard dates as Perth calendar dates', () => {
    expect(reschedule('2026-03-05').data).toEqual({ scheduledDate: '2026-03-05', timeSlot: '8-10 AM' });
    expect(reschedule('2026-03-04T18:00:00.000Z').data?.scheduledDate).toBe('2026-03-05'); // 2am in Perth
    expect(reschedule('2026-03-05T08:00:00+08:00').data?.scheduledDate).toBe('2026-03-05');
    expect(reschedule('2028-02-29').data?.scheduledDate).toBe('2028-02-29');
  });

  it('answers with the spec messages', () => {
    expect(reschedule('2026-02-30').error?.issues[0]?.message).toBe(INVALID_DATE);
    expect(reschedule('05/03/2026').error?.issues[0]?.message).toBe(INVALID_DATE);
    expect(reschedule('2026-03-05', '9-11 AM').error?.issues[0]?.message).toBe(INVALID_SLOT);
    expect(reschedule('', '8-10 AM').error?.issues[0]?.message).toBe(BOTH_REQUIRED);
    expect(reschedule('2026-03-05', null).error?.issues[0]?.message).toBe(BOTH_REQUIRED);
  });
});

describe('line item body', () => {
  it('reads money with up to 2 places as a 2-decimal string', () => {
    const item = lineItemBody.parse({ description: 'Puncture repair', unitPrice: 49.5, unitCost: '12' });
    expect(item).toMatchObject({ unitPrice: '49.50', unitCost: '12.00', quantity: 1, category: 'labour' });
    expect(lineItemBody.safeParse({ description: 'x', unitPrice: '1.234' }).error?.issues[0]?.message).toBe(
      'Must be a valid decimal amount',
    );
    expect(lineItemBody.safeParse({ description: 'x', unitPrice: '-1.00' }).success).toBe(false);
  });

  it('keeps line amounts plain: unsigned decimals within Decimal(10,2), no symbols or float noise', () => {
    const unitPrice = (v: unknown) => lineItemBody.safeParse({ description: 'x', unitPrice: v });
    expect(unitPrice('99999999.99').data?.unitPrice).toBe('99999999.99');
    expect(unitPrice(' 7.1 ').data?.unitPrice).toBe('7.10');
    expect(unitPrice(0).data?.unitPrice).toBe('0.00');
    for (const refused of [
      '100000000.00',
      '$12.00',
      '1,234.00',
      '+1',
      '.5',
      '12.',
      '1e3',
      '',
      'abc',
      -1,
      1e21,
      0.1 + 0.2,
      null,
      true,
    ]) {
      expect(unitPrice(refused).error?.issues[0]?.message).toBe('Must be a valid decimal amount');
    }
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRICE_LIST, priceQuote } from '@tyres/kernel';
import {
  effectiveLabel,
  scheduledLaterMessage,
  catalogueSize,
  inForce,
  parseEffectiveFrom,
  parseFees,
  parsePrice,
  PRICE_MSG,
  scheduledAfter,
  SEED_FEES,
} from './price-list';
import { computeQuote } from './pricing';

const v = (id: string, effectiveFrom: string, createdAt = '2030-01-01T00:00:00Z') => ({
  id,
  effectiveFrom: new Date(effectiveFrom),
  createdAt: new Date(createdAt),
});

describe('the list in force', () => {
  const versions = [
    v('seed', '2000-01-01T00:00:00+08:00'),
    v('march', '2032-03-01T00:00:00+08:00'),
    v('april', '2032-04-01T00:00:00+08:00'),
  ];
  it('is the latest effectiveFrom at or before the moment', () => {
    expect(inForce(versions, new Date('2032-02-29T23:59:59+08:00'))?.id).toBe('seed');
    expect(inForce(versions, new Date('2032-03-01T00:00:00+08:00'))?.id).toBe('march');
    expect(inForce(versions, new Date('2032-03-31T12:00:00+08:00'))?.id).toBe('march');
    expect(inForce(versions, new Date('2033-01-01T00:00:00+08:00'))?.id).toBe('april');
  });
  it('is none before the first version; ties go to the later-recorded one; order of input does not matter', () => {
    expect(inForce(versions, new Date('1999-01-01T00:00:00Z'))).toBeUndefined();
    const tie = [
      v('second', '2032-03-01T00:00:00+08:00', '2031-06-02T00:00:00Z'),
      v('first', '2032-03-01T00:00:00+08:00', '2031-06-01T00:00:00Z'),
    ];
    expect(inForce(tie, new Date('2032-03-02T00:00:00Z'))?.id).toBe('second');
    expect(inForce([...versions].reverse(), new Date('2032-03-05T00:00:00Z'))?.id).toBe('march');
  });
  it('scheduled versions are the later ones, soonest first', () => {
    expect(
      scheduledAfter([...versions].reverse(), new Date('2032-02-01T00:00:00Z')).map((x) => x.id),
    ).toEqual(['march', 'april']);
    expect(scheduledAfter(versions, new Date('2032-04-01T00:00:00+08:00'))).toEqual([]);
  });
});

describe('money rules', () => {
  it.each([
    ['149', 14900n],
    ['149.5', 14950n],
    ['$1,234.56', 123456n],
    [89.8, 8980n],
    ['0', 0n],
    [0.1 + 0.2, 30n],
  ])('%p is %p cents', (input, cents) => {
    expect(parsePrice(input)).toEqual({ ok: true, cents });
  });
  it.each(['', 'abc', '1e3', null, true, '1.2.3', {}])('%p is not money', (input) => {
    expect(parsePrice(input)).toEqual({ ok: false, message: PRICE_MSG.money });
  });
  it('refuses more than two places, negative and huge amounts', () => {
    expect(parsePrice('149.995')).toEqual({ ok: false, message: PRICE_MSG.places });
    expect(parsePrice(12.345)).toEqual({ ok: false, message: PRICE_MSG.places });
    expect(parsePrice(1e308)).toEqual({ ok: false, message: PRICE_MSG.tooLarge });
    expect(parsePrice('-1.00')).toEqual({ ok: false, message: PRICE_MSG.negative });
    expect(parsePrice('10000.01')).toEqual({ ok: false, message: PRICE_MSG.tooLarge });
    expect(parsePrice('10000')).toEqual({ ok: true, cents: 1_000_000n });
  });
  it('a fee schedule: every fee parsed; the prepaid discount never above the callout fee', () => {
    const body = {
      calloutFee: '99.80',
      punctureRepair: '45',
      fittingPerTyre: '27.50',
      balancingPerTyre: 15,
      prepaidDiscount: '30',
      cardSurchargeRate: '1.50',
    };
    expect(parseFees(body)).toEqual({
      ok: true,
      fees: {
        calloutFee: 9980n,
        punctureRepair: 4500n,
        fittingPerTyre: 2750n,
        balancingPerTyre: 1500n,
        prepaidDiscount: 3000n,
        cardSurchargeRate: 150n,
      },
    });
    expect(parseFees({ ...body, fittingPerTyre: 'x' })).toEqual({
      ok: false,
      field: 'fittingPerTyre',
      message: `fittingPerTyre ${PRICE_MSG.money}`,
    });
    expect(parseFees({ ...body, prepaidDiscount: '99.81' })).toMatchObject({
      ok: false,
      field: 'prepaidDiscount',
    });
  });
  it('the card surcharge rate: a percentage with up to 2 places, 0 to 5%', () => {
    const body = {
      calloutFee: '89.80',
      punctureRepair: '40',
      fittingPerTyre: '25',
      balancingPerTyre: '15',
      prepaidDiscount: '30',
    };
    expect(parseFees({ ...body, cardSurchargeRate: '1.7' })).toMatchObject({
      ok: true,
      fees: { cardSurchargeRate: 170n },
    });
    expect(parseFees({ ...body, cardSurchargeRate: 0 })).toMatchObject({
      ok: true,
      fees: { cardSurchargeRate: 0n },
    });
    for (const bad of ['5.01', '-0.5', '1.705', 'abc', undefined])
      expect(parseFees({ ...body, cardSurchargeRate: bad })).toEqual({
        ok: false,
        field: 'cardSurchargeRate',
        message: PRICE_MSG.rate,
      });
  });
});

describe('effectiveFrom', () => {
  const now = new Date('2032-02-10T03:00:00Z'); // 11:00 in Perth
  it('omitted is now; a Perth date is Perth midnight; an ISO date-time with an offset is that instant', () => {
    expect(parseEffectiveFrom(undefined, now)).toEqual({ ok: true, at: now });
    expect(parseEffectiveFrom('2032-03-01', now)).toEqual({ ok: true, at: new Date('2032-02-29T16:00:00Z') });
    expect(parseEffectiveFrom('2032-02-11T08:30:00+08:00', now)).toEqual({
      ok: true,
      at: new Date('2032-02-11T00:30:00Z'),
    });
  });
  it("today's Perth date means now; the past and more than two years ahead are refused", () => {
    expect(parseEffectiveFrom('2032-02-10', now)).toEqual({ ok: true, at: now });
    expect(parseEffectiveFrom('2032-02-09', now)).toEqual({
      ok: false,
      message: PRICE_MSG.effectiveFromPast,
    });
    expect(parseEffectiveFrom('2032-02-10T02:00:00Z', now)).toEqual({
      ok: false,
      message: PRICE_MSG.effectiveFromPast,
    });
    expect(parseEffectiveFrom('2034-03-01', now)).toEqual({ ok: false, message: PRICE_MSG.effectiveFromFar });
    expect(parseEffectiveFrom('2032-02-30', now)).toEqual({ ok: false, message: PRICE_MSG.effectiveFrom });
    expect(parseEffectiveFrom('2032-02-11T08:30:00', now)).toEqual({
      ok: false,
      message: PRICE_MSG.effectiveFrom,
    });
  });
});

describe('catalogue sizes', () => {
  it('are width/profile R rim', () => {
    expect(catalogueSize('205/55R16')).toBe('205/55R16');
    expect(catalogueSize('205/55 r16')).toBe('205/55R16');
    expect(catalogueSize('205/55')).toBeUndefined();
    expect(catalogueSize('20/55R16')).toBeUndefined();
  });
});

describe('quotes on a fee schedule', () => {
  it('the seed is the spec price list, in code and in the migration', () => {
    expect(SEED_FEES).toEqual({
      calloutFee: PRICE_LIST.calloutFee,
      punctureRepair: PRICE_LIST.punctureRepair,
      fittingPerTyre: PRICE_LIST.fittingPerTyre,
      balancingPerTyre: PRICE_LIST.balancingPerTyre,
      prepaidDiscount: PRICE_LIST.prepaidDiscount,
      cardSurchargeRate: 170n,
    });
    expect(
      readFileSync(
        join(__dirname, '../../prisma/migrations/20261125040000_card_surcharge_rate/migration.sql'),
        'utf8',
      ),
    ).toContain('"card_surcharge_rate" DECIMAL(4,2) NOT NULL DEFAULT 1.70');
    const sql = readFileSync(
      join(__dirname, '../../prisma/migrations/20261125030000_price_list/migration.sql'),
      'utf8',
    );
    expect(sql).toContain("'2000-01-01T00:00:00+08:00', 89.80, 40.00, 25.00, 15.00, 30.00");
  });
  it('use the schedule given: the changed fees, the changed discount', () => {
    const fees = { ...SEED_FEES, calloutFee: 9980n, fittingPerTyre: 3000n, prepaidDiscount: 2000n };
    const q = computeQuote({
      serviceType: 'new-tyres',
      tyreSize: '205/55R16',
      tyrePriceCents: 15000n,
      quantity: 2,
      prepaid: true,
      fees,
    });
    expect(q.items.map((i) => i.price)).toEqual(['300.00', '60.00', '30.00', '99.80']);
    expect(q).toMatchObject({ subtotal: '489.80', discount: '20.00', total: '469.80' });
    // Without a schedule, the kernel's list stands (today's quote).
    expect(
      priceQuote({ serviceType: 'puncture-repair', quantity: 1, tyrePriceCents: null, prepaid: false })
        ?.total,
    ).toBe(12980n);
  });
});

describe('effectiveLabel / scheduledLaterMessage (a change a later scheduled version would undo)', () => {
  it('names the date in Perth, with the time only when not Perth midnight', () => {
    expect(effectiveLabel(new Date('2027-01-01T00:00:00+08:00'))).toBe('1 Jan 2027 (Perth)');
    expect(effectiveLabel(new Date('2026-12-31T16:00:00Z'))).toBe('1 Jan 2027 (Perth)');
    expect(effectiveLabel(new Date('2032-03-10T14:30:00+08:00'))).toBe('10 Mar 2032 at 2:30 PM (Perth)');
    expect(scheduledLaterMessage('tyre', '1 Jan 2027 (Perth)')).toBe(
      'A change to this tyre is scheduled for 1 Jan 2027 (Perth). Cancel that scheduled change first, so it does not undo this one (then schedule it again with this change in it).',
    );
    expect(scheduledLaterMessage('fees', '1 Jan 2027 (Perth)')).toMatch(
      /^A new fee schedule is scheduled for 1 Jan 2027/,
    );
  });
});

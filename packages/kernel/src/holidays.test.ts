import { dayOfWeek } from './calendar';
import {
  easterSunday,
  isWaPublicHoliday,
  waPublicHoliday,
  waPublicHolidays,
  waPublicHolidaysBetween,
} from './holidays';

const dates = (year: number) => waPublicHolidays(year).map((h) => h.date);

describe('WA public holidays (Public and Bank Holidays Act 1972, as amended 2023)', () => {
  it('2025: the published dates (Australia Day moved to Monday 27 January)', () => {
    expect(dates(2025)).toEqual([
      '2025-01-01', // New Year's Day (Wed)
      '2025-01-27', // Australia Day (26th is a Sunday)
      '2025-03-03', // Labour Day
      '2025-04-18', // Good Friday
      '2025-04-20', // Easter Sunday
      '2025-04-21', // Easter Monday
      '2025-04-25', // ANZAC Day (Fri)
      '2025-06-02', // WA Day
      '2025-09-29', // King's Birthday
      '2025-12-25',
      '2025-12-26',
    ]);
  });

  it('2026: ANZAC Day on a Saturday and Boxing Day on a Saturday get Monday substitutes', () => {
    expect(dates(2026)).toEqual([
      '2026-01-01',
      '2026-01-26',
      '2026-03-02',
      '2026-04-03',
      '2026-04-05',
      '2026-04-06',
      '2026-04-25',
      '2026-04-27',
      '2026-06-01',
      '2026-09-28',
      '2026-12-25',
      '2026-12-26',
      '2026-12-28',
    ]);
    expect(waPublicHoliday('2026-04-27')).toEqual({
      date: '2026-04-27',
      name: 'ANZAC Day (additional day)',
      substitute: true,
    });
    expect(waPublicHoliday('2026-12-28')?.name).toBe('Boxing Day (additional day)');
  });

  it('2027: ANZAC Day on a Sunday, Christmas on a Saturday (Monday 27 and Tuesday 28 December)', () => {
    expect(dates(2027)).toEqual([
      '2027-01-01',
      '2027-01-26',
      '2027-03-01',
      '2027-03-26',
      '2027-03-28',
      '2027-03-29',
      '2027-04-25',
      '2027-04-26',
      '2027-06-07',
      '2027-09-27',
      '2027-12-25',
      '2027-12-26',
      '2027-12-27',
      '2027-12-28',
    ]);
  });

  it('New Year on a Saturday adds Monday 3 January (2028); Christmas on a Sunday adds Tuesday 27 (2022)', () => {
    expect(waPublicHoliday('2028-01-03')?.name).toBe("New Year's Day (additional day)");
    expect(dates(2022).filter((d) => d >= '2022-12-01')).toEqual(['2022-12-25', '2022-12-26', '2022-12-27']);
    expect(waPublicHoliday('2022-12-27')?.name).toBe('Christmas Day (additional day)');
  });

  it('every substitute is a weekday and every rule-day lands where it should', () => {
    for (let y = 2025; y <= 2040; y += 1) {
      for (const h of waPublicHolidays(y)) {
        if (h.substitute) expect([1, 2]).toContain(dayOfWeek(h.date));
        if (/Labour|Western Australia|King/.test(h.name)) expect(dayOfWeek(h.date)).toBe(1);
        if (h.name === 'Good Friday') expect(dayOfWeek(h.date)).toBe(5);
      }
    }
  });

  it('Easter Sunday by the Gregorian computus', () => {
    expect(['2024', '2025', '2026', '2027', '2028', '2038'].map((y) => easterSunday(Number(y)))).toEqual([
      '2024-03-31',
      '2025-04-20',
      '2026-04-05',
      '2027-03-28',
      '2028-04-16',
      '2038-04-25',
    ]);
  });

  it('answers per date and per range', () => {
    expect(isWaPublicHoliday('2026-06-01')).toBe(true);
    expect(isWaPublicHoliday('2026-06-02')).toBe(false);
    expect(isWaPublicHoliday('not-a-date')).toBe(false);
    expect(waPublicHolidaysBetween('2026-12-20', '2027-01-31').map((h) => h.date)).toEqual([
      '2026-12-25',
      '2026-12-26',
      '2026-12-28',
      '2027-01-01',
      '2027-01-26',
    ]);
  });
});

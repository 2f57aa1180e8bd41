import {
  closedHoliday,
  hasRoom,
  isoWeekday,
  noTechnicianReason,
  normaliseWeekdays,
  slotCapacity,
} from './capacity';

describe('capacity per slot (issue 19)', () => {
  it('is the technicians rostered that day minus those on leave', () => {
    expect(slotCapacity({ activeTechnicians: 3, rostered: 3, onLeave: 0 })).toBe(3);
    expect(slotCapacity({ activeTechnicians: 4, rostered: 3, onLeave: 1 })).toBe(2);
    expect(slotCapacity({ activeTechnicians: 2, rostered: 2, onLeave: 2 })).toBe(0);
  });
  it('is one job only when the business has no active technician at all (a one-person business)', () => {
    expect(slotCapacity({ activeTechnicians: 0, rostered: 0, onLeave: 0 })).toBe(1);
  });
  it('is 0 on a weekday nobody is rostered on while the business has technicians', () => {
    expect(slotCapacity({ activeTechnicians: 2, rostered: 0, onLeave: 0 })).toBe(0);
    expect(noTechnicianReason({ activeTechnicians: 2, rostered: 0, onLeave: 0 })).toBe(
      'No technician rostered',
    );
    expect(noTechnicianReason({ activeTechnicians: 2, rostered: 2, onLeave: 2 })).toBe(
      'No technician available (leave)',
    );
  });
  it('a slot is bookable while its live jobs and holds are fewer than its capacity', () => {
    expect(hasRoom(1, 2)).toBe(true);
    expect(hasRoom(2, 2)).toBe(false);
    expect(hasRoom(0, 0)).toBe(false);
  });
  it('ISO weekdays and roster lists', () => {
    expect(isoWeekday('2026-11-23')).toBe(1); // Monday
    expect(isoWeekday('2026-11-29')).toBe(7); // Sunday
    expect(normaliseWeekdays([5, 1, 1, 3])).toEqual([1, 3, 5]);
    expect(normaliseWeekdays([])).toEqual([]);
    expect(normaliseWeekdays([0])).toBeUndefined();
    expect(normaliseWeekdays([1.5])).toBeUndefined();
    expect(normaliseWeekdays('1,2')).toBeUndefined();
  });
  it('a WA public holiday is closed until an admin opens it', () => {
    expect(closedHoliday('2026-12-28', false)).toBe('Public holiday (Boxing Day (additional day))');
    expect(closedHoliday('2026-12-28', true)).toBeUndefined();
    expect(closedHoliday('2026-12-29', false)).toBeUndefined();
  });
});

import { perthInstant } from '@tyres/kernel';
import { planReminder, reminderDueAt } from './reminders';

describe('day-before reminder time', () => {
  it('is 5 pm Perth the day before (09:00 UTC)', () => {
    expect(reminderDueAt('2026-11-26').toISOString()).toBe('2026-11-25T09:00:00.000Z');
  });

  it('crosses month and year boundaries', () => {
    expect(reminderDueAt('2026-12-01')).toEqual(perthInstant('2026-11-30', '17:00'));
    expect(reminderDueAt('2027-01-01').toISOString()).toBe('2026-12-31T09:00:00.000Z');
  });

  it('is scheduled when booked before 5 pm the day before', () => {
    const now = perthInstant('2026-11-25', '16:59');
    expect(planReminder({ scheduledDate: '2026-11-26', timeSlot: '8-10 AM' }, now)).toEqual({
      kind: 'schedule',
      at: perthInstant('2026-11-25', '17:00'),
    });
  });

  it('is skipped when booked at or after 5 pm the day before', () => {
    for (const clock of ['17:00', '18:00', '23:59']) {
      const now = perthInstant('2026-11-25', clock);
      expect(planReminder({ scheduledDate: '2026-11-26', timeSlot: '2-4 PM' }, now)).toEqual({
        kind: 'skip',
        reason: 'too-late',
      });
    }
  });

  it('is skipped for a same-day booking, even one made just after midnight', () => {
    // 00:30 Perth on the 26th is still the 25th in UTC: the Perth date decides.
    const now = perthInstant('2026-11-26', '00:30');
    expect(planReminder({ scheduledDate: '2026-11-26', timeSlot: '2-4 PM' }, now).kind).toBe('skip');
  });
});

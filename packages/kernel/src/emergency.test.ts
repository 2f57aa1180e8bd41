import { EMERGENCY_RESPONSE_TIME, emergencySlot, isEmergencySlot } from './emergency';

// Tuesday 24 November 2026 in Perth (UTC+8).
const at = (hhmm: string, date = '2026-11-24') => new Date(`${date}T${hhmm}:00+08:00`);

describe('emergency callout "as soon as possible" (30-60 minutes)', () => {
  it('says the spec’s response time', () => expect(EMERGENCY_RESPONSE_TIME).toBe('30-60 minutes'));
  it('at 10:30 is the 10-12 AM slot already under way (arrival from 11:00), not 12-2 PM', () => {
    expect(emergencySlot(at('10:30'))).toEqual({ date: '2026-11-24', slot: '10-12 AM', started: true });
  });
  it('at 9:45 the earliest arrival (10:15) is in the 10-12 AM slot, not started yet', () => {
    expect(emergencySlot(at('09:45'))).toEqual({ date: '2026-11-24', slot: '10-12 AM', started: false });
  });
  it('from 8:00 until 15:29 on weekdays only', () => {
    expect(emergencySlot(at('07:59'))).toBeUndefined();
    expect(emergencySlot(at('08:00'))?.slot).toBe('8-10 AM');
    expect(emergencySlot(at('15:29'))?.slot).toBe('2-4 PM');
    expect(emergencySlot(at('15:30'))).toBeUndefined();
    expect(emergencySlot(at('10:30', '2026-11-28'))).toBeUndefined(); // Saturday
  });
  it('matches (date, slot) at a given moment', () => {
    expect(isEmergencySlot('2026-11-24', '12-2 PM', at('12:40'))).toBe(true);
    expect(isEmergencySlot('2026-11-24', '10-12 AM', at('12:40'))).toBe(false);
    expect(isEmergencySlot('2026-11-25', '12-2 PM', at('12:40'))).toBe(false);
  });
});

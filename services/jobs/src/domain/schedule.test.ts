import { SCHEDULE_STATUSES, scheduleStatusOf, selectionForSchedule } from './schedule';
import { JOB_STATUSES } from './status';

const tech = '00000000-0000-4000-8000-000000000001';

describe('schedule vocabulary', () => {
  it('maps every job status', () => {
    expect(scheduleStatusOf({ status: 'new', assignedTechnicianId: null })).toBe('pending');
    expect(scheduleStatusOf({ status: 'new', assignedTechnicianId: tech })).toBe('confirmed');
    expect(scheduleStatusOf({ status: 'in-progress', assignedTechnicianId: tech })).toBe('in_progress');
    expect(scheduleStatusOf({ status: 'completed', assignedTechnicianId: tech })).toBe('completed');
    expect(scheduleStatusOf({ status: 'invoiced', assignedTechnicianId: tech })).toBe('completed');
    expect(scheduleStatusOf({ status: 'paid', assignedTechnicianId: null })).toBe('completed');
    expect(scheduleStatusOf({ status: 'cancelled', assignedTechnicianId: tech })).toBe('cancelled');
  });

  it('each schedule filter selects exactly the jobs that map to it', () => {
    for (const schedule of SCHEDULE_STATUSES) {
      const selection = selectionForSchedule(schedule);
      for (const status of JOB_STATUSES) {
        for (const assignedTechnicianId of [null, tech]) {
          const selected =
            selection.statuses.includes(status) &&
            (selection.assigned === undefined || selection.assigned === (assignedTechnicianId !== null));
          expect([schedule, status, assignedTechnicianId, selected]).toEqual([
            schedule,
            status,
            assignedTechnicianId,
            scheduleStatusOf({ status, assignedTechnicianId }) === schedule,
          ]);
        }
      }
    }
  });
});

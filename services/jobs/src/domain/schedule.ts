import type { JobStatus } from './status';

/**
 * The schedule screen's vocabulary (spec section 2, "Schedule screen") mapped onto the stored job status.
 *
 * | schedule    | job status                      | meaning                                        |
 * |-------------|---------------------------------|------------------------------------------------|
 * | pending     | new, no technician assigned     | booked, waiting for an admin to assign someone |
 * | confirmed   | new, technician assigned        | booked and assigned, work not started          |
 * | in_progress | in-progress                     | technician en route / working                  |
 * | completed   | completed, invoiced, paid       | work done (billing state does not matter here) |
 * | cancelled   | cancelled                       | cancelled, slot freed                          |
 *
 * The technician's "pending (including confirmed)" card is pending + confirmed.
 */
export const SCHEDULE_STATUSES = ['pending', 'confirmed', 'in_progress', 'completed', 'cancelled'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export function scheduleStatusOf(job: {
  status: JobStatus;
  assignedTechnicianId: string | null;
}): ScheduleStatus {
  switch (job.status) {
    case 'new':
      return job.assignedTechnicianId ? 'confirmed' : 'pending';
    case 'in-progress':
      return 'in_progress';
    case 'completed':
    case 'invoiced':
    case 'paid':
      return 'completed';
    case 'cancelled':
      return 'cancelled';
  }
}

/** What a schedule filter selects: job statuses, and for new jobs whether they must be (un)assigned. */
export interface StatusSelection {
  statuses: JobStatus[];
  assigned?: boolean;
}

export function selectionForSchedule(status: ScheduleStatus): StatusSelection {
  switch (status) {
    case 'pending':
      return { statuses: ['new'], assigned: false };
    case 'confirmed':
      return { statuses: ['new'], assigned: true };
    case 'in_progress':
      return { statuses: ['in-progress'] };
    case 'completed':
      return { statuses: ['completed', 'invoiced', 'paid'] };
    case 'cancelled':
      return { statuses: ['cancelled'] };
  }
}

import { addDays, dayOfWeek, TIME_SLOT_LABELS, WEEKDAY_NAMES, type TimeSlot } from '@tyres/kernel';
import type { Job } from '../api/types';

/**
 * The schedule's rules without React: which week a date is in, where a job sits in the grid, the order a
 * technician visits today's jobs, and the links a phone opens. Dates are Perth calendar dates (`yyyy-MM-dd`); all
 * arithmetic is the kernel's.
 */

export const SLOTS: readonly TimeSlot[] = TIME_SLOT_LABELS;
/** The lane of jobs nobody is assigned to. */
export const UNASSIGNED_LANE = 'unassigned';

/** Monday of the week `date` is in (weeks run Monday to Sunday). */
export function weekStart(date: string): string {
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}

/** The seven dates of the week starting `monday`. */
export function weekDates(monday: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

const dayMonth = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', timeZone: 'UTC' });
/** "Mon 24 Nov" for a calendar date (formatting only: the date's UTC midnight). */
export function dayLabel(date: string): string {
  const short = WEEKDAY_NAMES[dayOfWeek(date)]!.slice(0, 3);
  return `${short} ${dayMonth.format(new Date(`${date}T00:00:00Z`))}`;
}

export function slotIndex(slot: string): number {
  const i = (SLOTS as readonly string[]).indexOf(slot);
  return i < 0 ? SLOTS.length : i;
}

/** Jobs a schedule shows: cancelled jobs have given their slot back and are left out. */
export function scheduledJobs(jobs: readonly Job[]): Job[] {
  return jobs.filter((job) => job.status !== 'cancelled');
}

/** The lane a job is drawn in: its technician, or Unassigned. */
export function laneOf(job: Pick<Job, 'assignedTechnicianId'>): string {
  return job.assignedTechnicianId ?? UNASSIGNED_LANE;
}

export const cellKey = (lane: string, date: string, slot: string) => `${lane}|${date}|${slot}`;

/** The grid: every shown job under the key of its lane, date and slot, each cell in visit order. */
export function placeJobs(jobs: readonly Job[]): Map<string, Job[]> {
  const cells = new Map<string, Job[]>();
  for (const job of visitOrder(scheduledJobs(jobs))) {
    const key = cellKey(laneOf(job), job.scheduledDate, job.timeSlot);
    const list = cells.get(key) ?? [];
    list.push(job);
    cells.set(key, list);
  }
  return cells;
}

/** Visit order: date, then slot (8-10 AM first), then job number (stable whatever order the list came in). */
export function visitOrder(jobs: readonly Job[]): Job[] {
  return [...jobs].sort(
    (a, b) =>
      a.scheduledDate.localeCompare(b.scheduledDate) ||
      slotIndex(a.timeSlot) - slotIndex(b.timeSlot) ||
      a.jobNumber.localeCompare(b.jobNumber) ||
      a.id.localeCompare(b.id),
  );
}

/** Jobs that can still be moved: not started on site, not finished, not cancelled. */
export function isMovable(job: Pick<Job, 'status'>): boolean {
  return job.status === 'new';
}

/** Google Maps directions to the job's address (opens the maps app on a phone). */
export function directionsUrl(job: Pick<Job, 'address' | 'suburb' | 'postcode'>): string {
  const destination = [job.address, job.suburb, `WA ${job.postcode}`].filter(Boolean).join(', ');
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`;
}

/** A tel: link, or null when there is no number to dial. */
export function telHref(phone: string | null | undefined): string | null {
  const digits = (phone ?? '').replace(/[^\d+]/g, '');
  return digits.length >= 6 ? `tel:${digits}` : null;
}

/** What a move changes: the date and slot (a reschedule), the technician (an assignment), or both. */
export interface MoveTarget {
  date: string;
  slot: TimeSlot;
  /** A technician id, or null for Unassigned. */
  technicianId: string | null;
}

export function moveChanges(job: Job, to: MoveTarget): { reschedule: boolean; assign: boolean } {
  return {
    reschedule: job.scheduledDate !== to.date || job.timeSlot !== to.slot,
    assign: (job.assignedTechnicianId ?? null) !== to.technicianId,
  };
}

/**
 * Who is free in a slot, as booking answers it (GET …/calendar/jobs/{jobId}/technician-suggestion for the job's own
 * slot, GET …/calendar/capacity for another): the free technicians, fewest jobs that day first, and the one to
 * suggest. A technician not in `free` is not free then: already busy in that slot, not rostered that day or on leave.
 */
export interface SlotAvailability {
  suggestedTechnicianId: string | null;
  freeTechnicianIds: string[];
  /** The date is a public holiday not opened for bookings (its name). */
  closedFor?: string;
}

/** What a not-free check reads of the roster: the weekdays worked and the leave of each technician. */
export interface RosterEntry {
  userId: string;
  /** ISO weekdays (1 = Monday ... 7 = Sunday). */
  weekdays: number[];
  leave: { startDate: string; endDate: string; reason: string }[];
}

/**
 * Why `to.technicianId` is not free at `to` for `job`, in words for a confirm warning, or null when booking says
 * they are free (or could not be asked: then the server alone decides). The most telling reason first: a closed
 * holiday, leave, not rostered that weekday, another job shown in that slot; else booking's plain "not free".
 */
export function notFreeReason({
  job,
  to,
  technicianName,
  availability,
  roster,
  jobs,
}: {
  job: Pick<Job, 'id'>;
  to: MoveTarget;
  technicianName: string;
  availability: SlotAvailability | undefined;
  roster: readonly RosterEntry[] | undefined;
  jobs: readonly Job[];
}): string | null {
  const techId = to.technicianId;
  if (!techId || !availability || availability.freeTechnicianIds.includes(techId)) return null;
  const when = `${dayLabel(to.date)}, ${to.slot}`;
  if (availability.closedFor) return `${dayLabel(to.date)} is a public holiday (${availability.closedFor}).`;
  const entry = roster?.find((r) => r.userId === techId);
  const leave = entry?.leave.find((l) => l.startDate <= to.date && to.date <= l.endDate);
  if (leave) return `${technicianName} is on leave on ${dayLabel(to.date)} (${leave.reason}).`;
  const isoWeekday = dayOfWeek(to.date) === 0 ? 7 : dayOfWeek(to.date);
  if (entry && !entry.weekdays.includes(isoWeekday))
    return `${technicianName} is not rostered on ${WEEKDAY_NAMES[dayOfWeek(to.date)]}s.`;
  const busy = scheduledJobs(jobs).find(
    (j) =>
      j.id !== job.id &&
      j.assignedTechnicianId === techId &&
      j.scheduledDate === to.date &&
      j.timeSlot === to.slot,
  );
  if (busy) return `${technicianName} already has job ${busy.jobNumber} at ${when}.`;
  return `${technicianName} is not free at ${when} (booked or not available).`;
}

/**
 * The technician choices of an assign selector: without availability, Unassigned then the technicians as listed;
 * with it, the suggested technician first, marked "(suggested: free)", then Unassigned, the other free ones
 * (fewest jobs that day first, "(free)") and last the ones not free in that slot ("(not free)").
 */
export function technicianChoices(
  unassignedValue: string,
  technicians: readonly { id: string; username: string }[],
  availability?: SlotAvailability,
): { value: string; label: string }[] {
  const unassigned = { value: unassignedValue, label: 'Unassigned' };
  if (!availability) return [unassigned, ...technicians.map((t) => ({ value: t.id, label: t.username }))];
  const rank = (id: string) => {
    const i = availability.freeTechnicianIds.indexOf(id);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const listed = technicians.filter((t) => t.id !== availability.suggestedTechnicianId);
  const free = listed
    .filter((t) => rank(t.id) < Number.MAX_SAFE_INTEGER)
    .sort((a, b) => rank(a.id) - rank(b.id));
  const notFree = listed.filter((t) => rank(t.id) === Number.MAX_SAFE_INTEGER);
  const suggested = technicians.find((t) => t.id === availability.suggestedTechnicianId);
  return [
    ...(suggested ? [{ value: suggested.id, label: `${suggested.username} (suggested: free)` }] : []),
    unassigned,
    ...free.map((t) => ({ value: t.id, label: `${t.username} (free)` })),
    ...notFree.map((t) => ({ value: t.id, label: `${t.username} (not free)` })),
  ];
}

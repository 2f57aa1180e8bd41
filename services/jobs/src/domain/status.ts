/**
 * Job status rules (spec section 4). Pure: no I/O.
 *
 * Dashboard vocabulary (stored): new → in-progress → completed → invoiced → paid, plus `cancelled` (a new or
 * in-progress job can be cancelled; that frees its slot). The schedule screen uses another vocabulary
 * (pending, confirmed, in_progress, completed, cancelled): see ./schedule.ts.
 */
export const JOB_STATUSES = ['new', 'in-progress', 'completed', 'invoiced', 'paid', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The statuses of the Jobs tab filter (spec section 2): everything but cancelled. */
export const DASHBOARD_STATUSES = ['new', 'in-progress', 'completed', 'invoiced', 'paid'] as const;

/** Allowed moves. Anything else is refused with 409 naming the current status. */
export const TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = Object.freeze({
  new: ['in-progress', 'cancelled'],
  'in-progress': ['completed', 'cancelled'],
  completed: ['invoiced'],
  invoiced: ['paid'],
  paid: [],
  cancelled: [],
});

export function isJobStatus(value: unknown): value is JobStatus {
  return typeof value === 'string' && (JOB_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The timestamp column a transition into `to` sets (spec: inProgressAt, completedAt, invoicedAt, paidAt). */
export const STATUS_TIMESTAMP = {
  'in-progress': 'inProgressAt',
  completed: 'completedAt',
  invoiced: 'invoicedAt',
  paid: 'paidAt',
  cancelled: 'cancelledAt',
} as const satisfies Partial<Record<JobStatus, string>>;
export type StatusTimestampField = (typeof STATUS_TIMESTAMP)[keyof typeof STATUS_TIMESTAMP];

export function timestampFieldFor(to: JobStatus): StatusTimestampField | undefined {
  return (STATUS_TIMESTAMP as Partial<Record<JobStatus, StatusTimestampField>>)[to];
}

/** Statuses whose job still needs its slot moved/freed through booking; later ones are history. */
export const RESCHEDULABLE: readonly JobStatus[] = ['new', 'in-progress'];

export function illegalTransitionMessage(jobNumber: string, from: JobStatus, to: JobStatus): string {
  const allowed = TRANSITIONS[from];
  const next = allowed.length ? ` From ${from} it can only move to ${allowed.join(' or ')}.` : '';
  return `Cannot change job ${jobNumber} from ${from} to ${to}: the job is currently ${from}.${next}`;
}

/** Accepts the schedule spelling `in_progress` as an alias of the stored `in-progress`. */
export function normaliseStatusInput(value: string): string {
  return value === 'in_progress' ? 'in-progress' : value;
}

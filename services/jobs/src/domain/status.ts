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
  return (JOB_STATUSES as readonly unknown[]).includes(value);
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

/**
 * Where a job's customer invoices take it (issue 12). An invoice may exist before the work is done (a prepaid
 * booking's invoice is paid at booking; staff may generate one early): it never moves a job that is not completed
 * yet, because the job's status follows the work. Once completed, a job with an active (not cancelled) invoice is
 * invoiced, and paid when every active invoice is paid; an invoiced job is paid when they all are.
 * Returns the steps in order; [] = the job stays where it is.
 */
export function invoiceSteps(status: JobStatus, invoiceStatuses: readonly string[]): JobStatus[] {
  const active = invoiceStatuses.filter((s) => s !== 'cancelled');
  if (active.length === 0) return [];
  const allPaid = active.every((s) => s === 'paid');
  if (status === 'completed') return allPaid ? ['invoiced', 'paid'] : ['invoiced'];
  if (status === 'invoiced' && allPaid) return ['paid'];
  return [];
}

/**
 * When a step takes effect: at `at` (the invoice's time), but never at or before `since` (when the job entered its
 * current status): an invoice made before the work was done takes effect just after it, so a job's status times,
 * and the projections ordering JobStatusChanged by time, stay in order.
 */
export function stepTime(at: Date, since: Date | null): Date {
  return since && at.getTime() <= since.getTime() ? new Date(since.getTime() + 1) : at;
}

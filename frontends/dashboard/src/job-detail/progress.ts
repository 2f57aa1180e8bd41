import type { Job } from '../api/types';

/** Job progress (spec section 4): the five steps and the timestamp each one records. */
export const PROGRESS_STEPS = [
  { label: 'Booking confirmed', field: 'createdAt' },
  { label: 'Technician en route', field: 'inProgressAt' },
  { label: 'Work completed', field: 'completedAt' },
  { label: 'Invoice sent', field: 'invoicedAt' },
  { label: 'Payment received', field: 'paidAt' },
] as const;

const ORDER = ['new', 'in-progress', 'completed', 'invoiced', 'paid'] as const;

export interface ProgressStep {
  label: string;
  at: string | null;
  done: boolean;
  current: boolean;
}

/** Each step is done when its timestamp is set or the status is past it (older rows may lack timestamps). */
export function jobProgress(
  job: Pick<Job, 'status' | 'createdAt' | 'inProgressAt' | 'completedAt' | 'invoicedAt' | 'paidAt'>,
): ProgressStep[] {
  const reached = ORDER.indexOf(job.status as (typeof ORDER)[number]);
  return PROGRESS_STEPS.map((step, index) => {
    const at = job[step.field] ?? null;
    const done = Boolean(at) || (reached >= 0 && index <= reached);
    return { label: step.label, at, done, current: reached === index };
  });
}

export type StatusAction =
  | { kind: 'start'; label: 'Start Work (En Route)'; to: 'in-progress' }
  | { kind: 'complete'; label: 'Complete Work'; to: 'completed' }
  | { kind: 'invoice'; label: 'Generate Invoice' }
  | { kind: 'paid'; label: 'Mark as Paid'; to: 'paid' }
  | { kind: 'done'; label: 'Job Complete' }
  | { kind: 'none' };

/** The one status action a job offers (spec section 4). */
export function statusAction(status: string): StatusAction {
  switch (status) {
    case 'new':
      return { kind: 'start', label: 'Start Work (En Route)', to: 'in-progress' };
    case 'in-progress':
      return { kind: 'complete', label: 'Complete Work', to: 'completed' };
    case 'completed':
      return { kind: 'invoice', label: 'Generate Invoice' };
    case 'invoiced':
      return { kind: 'paid', label: 'Mark as Paid', to: 'paid' };
    case 'paid':
      return { kind: 'done', label: 'Job Complete' };
    default:
      return { kind: 'none' };
  }
}

/** The en-route SMS text the dialog previews (the jobs service composes and sends the real one). */
export function enRouteSmsText(customerName: string, eta: string): string {
  const first = customerName.trim().split(/\s+/)[0] || 'there';
  return `Hi ${first}, your technician is on the way. Estimated arrival: ${eta} (about 30 minutes).`;
}

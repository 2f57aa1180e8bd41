import type { Identity } from '@tyres/service-kit';

/**
 * Who may see what in billing (README "Access"): admins every job, a technician only the jobs assigned to them and
 * not deleted. Anything else reads as "not found", so another technician's work is never revealed.
 */
export function canSeeJob(
  identity: Pick<Identity, 'id' | 'role'>,
  job: { assignedTechnicianId: string | null; deletedAt: Date | null },
): boolean {
  if (identity.role === 'admin') return true;
  return job.deletedAt === null && job.assignedTechnicianId === identity.id;
}

/** Line items a technician may change: on their own job's invoice while it is still a draft; admins always. */
export function mayEditItems(identity: Pick<Identity, 'role'>, invoice: { status: string }): boolean {
  return identity.role === 'admin' || invoice.status === 'draft';
}

/** A technician creates draft invoices only; the status is an admin's decision. */
export function maySetInvoiceStatus(identity: Pick<Identity, 'role'>, status: string): boolean {
  return identity.role === 'admin' || status === 'draft';
}

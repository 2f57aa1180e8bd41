import type { EventMeta } from '@tyres/events';
import { forbidden, notFound, type Identity } from '@tyres/service-kit';
import type { Tx } from '../db/client';
import type { JobsRepository } from '../db/jobs-repository';
import { technicianScope } from '../domain/access';
import type { JobRow } from '../domain/job-view';
import { ADMIN_ONLY, JOB_NOT_FOUND } from '../domain/messages';
import { SOURCE } from '../events/builders';
import type { BookingAuth } from './reservations';

/** Who is asking: the verified identity, the request id, and what to forward to booking. */
export interface Actor {
  identity: Identity;
  correlationId: string;
  auth: BookingAuth;
}

/** The meta of the events a request causes: correlated with the request. */
export const requestMeta = (actor: Actor): EventMeta => ({
  source: SOURCE,
  correlationId: actor.correlationId,
});

/**
 * Locks the job for a change by `actor` (`SELECT … FOR UPDATE`). A job the caller may not see is 404; an admin-only
 * change by a technician to their own job is 403. Visibility first: a technician learns nothing about other
 * people's jobs, only that they may not do this to their own.
 */
export async function lockJobFor(
  jobs: JobsRepository,
  tx: Tx,
  id: string,
  actor: Actor,
  adminOnly = false,
): Promise<JobRow> {
  const job = await jobs.lockVisible(tx, id, technicianScope(actor.identity));
  if (!job) throw notFound(JOB_NOT_FOUND);
  if (adminOnly && actor.identity.role !== 'admin') throw forbidden(ADMIN_ONLY);
  return job;
}

/** The job row after a write in the same transaction (it is locked already). */
export async function rereadJob(jobs: JobsRepository, tx: Tx, id: string): Promise<JobRow> {
  const row = await jobs.lockAny(tx, id);
  if (!row) throw new Error(`job ${id} vanished inside its own transaction`);
  return row;
}

import { randomUUID } from 'node:crypto';
import type { Outbox } from '@tyres/events';
import { badRequest, conflict, notFound } from '@tyres/service-kit';
import type { Db } from '../db/client';
import type { JobEditRow, JobEdits } from '../db/job-edits';
import type { JobsRepository } from '../db/jobs-repository';
import { technicianScope } from '../domain/access';
import {
  applyChanges,
  diffEdit,
  editableValues,
  editConflict,
  NOTHING_CHANGED,
  priceEditRefusal,
  type EditRequest,
  type FieldChange,
} from '../domain/job-edits';
import { JOB_NOT_FOUND } from '../domain/messages';
import { jobUpdated } from '../events/job-updated';
import { lockJobFor, requestMeta, rereadJob, type Actor } from './actor';

export interface JobEditDeps {
  db: Db;
  jobs: JobsRepository;
  edits: JobEdits;
  outbox: Outbox;
  wake: () => void;
  now?: () => Date;
}

export interface EditCommand extends EditRequest {
  reason: string;
  /** The edit version the admin's form was opened at (GET …/history `version`). */
  version: number;
}

export interface JobHistory {
  jobId: string;
  jobNumber: string;
  /** The job's edit version now (0 = never edited): what the next edit names. */
  version: number;
  edits: {
    version: number;
    editedAt: string;
    editedBy: { id: string; username: string };
    reason: string;
    changes: FieldChange[];
  }[];
}

const historyEntry = (row: JobEditRow): JobHistory['edits'][number] => ({
  version: row.version,
  editedAt: row.editedAt.toISOString(),
  editedBy: { id: row.editedBy, username: row.editedByName },
  reason: row.reason,
  changes: row.changes,
});

/**
 * Issue 19: an admin edits a job after booking (price, address, vehicle, notes, tyre details) with a reason. One
 * transaction: the job row locked (`SELECT … FOR UPDATE`), the version the form was opened at checked (a stale form
 * is 409, so two admins never silently overwrite each other), the fields written, the history row (who, when, why,
 * each field before and after) and JobUpdated (billing's projection, reporting's facts) in the outbox.
 */
export class JobEditUseCases {
  private readonly now: () => Date;

  constructor(private readonly deps: JobEditDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async edit(actor: Actor, id: string, command: EditCommand): Promise<void> {
    const { db, jobs, edits } = this.deps;
    const changed = await db.$transaction(async (tx) => {
      const job = await lockJobFor(jobs, tx, id, actor, true);
      const version = await edits.version(tx, id);
      if (command.version !== version)
        throw conflict(editConflict(job.jobNumber), { currentVersion: version }, 'edit_conflict');
      const before = editableValues(job);
      const { reason, version: _seen, ...request } = command;
      const changes = diffEdit(before, request);
      if (changes.length === 0) throw badRequest(NOTHING_CHANGED, undefined, 'nothing_changed');
      if (changes.some((c) => c.field === 'customerValue')) {
        const refusal = priceEditRefusal(job, await edits.activeInvoiceNumber(tx, id));
        if (refusal) throw conflict(refusal, undefined, 'price_locked');
      }
      const after = applyChanges(before, changes);
      const at = this.now();
      const next = version + 1;
      await edits.writeValues(tx, id, after);
      await edits.record(tx, {
        id: randomUUID(),
        jobId: id,
        version: next,
        editedBy: actor.identity.id,
        editedByName: actor.identity.username,
        editedAt: at,
        reason,
        changes,
      });
      const row = await rereadJob(jobs, tx, id);
      // The values as stored (an erased customer's job keeps its erased values: the triggers decide, not the edit).
      await this.deps.outbox.enqueue(tx, [
        jobUpdated(row, editableValues(row), { version: next, changes, by: actor.identity.id, at }, requestMeta(actor)),
      ]);
      return true;
    });
    if (changed) this.deps.wake();
  }

  /** The job's edits, newest first, and its edit version. Staff who may see the job may see its history. */
  async history(actor: Actor, id: string): Promise<JobHistory> {
    const { jobs, edits, db } = this.deps;
    const job = await jobs.findVisible(id, technicianScope(actor.identity));
    if (!job) throw notFound(JOB_NOT_FOUND);
    const rows = await edits.history(db, id);
    return {
      jobId: id,
      jobNumber: job.jobNumber,
      version: rows[0]?.version ?? 0,
      edits: rows.map(historyEntry),
    };
  }
}

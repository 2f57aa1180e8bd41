import { createEvent, JobUpdated, type EventEnvelope, type EventMeta } from '@tyres/events';
import type { EditableValues, FieldChange } from '../domain/job-edits';
import type { JobRow } from '../domain/job-view';

/**
 * Issue 19: JobUpdated, built from the job row after an admin's edit: every editable field's value (not only the
 * changed ones), so a consumer holding the newest version holds the whole truth.
 */
export function jobUpdated(
  job: JobRow,
  values: EditableValues,
  edit: { version: number; changes: readonly FieldChange[]; by: string; at: Date },
  meta: EventMeta,
): EventEnvelope {
  return createEvent(
    JobUpdated,
    {
      jobId: job.id,
      jobNumber: job.jobNumber,
      version: edit.version,
      changed: edit.changes.map((c) => c.field),
      status: job.status,
      ...values,
      updatedBy: edit.by,
      updatedAt: edit.at.toISOString(),
    },
    meta,
  );
}

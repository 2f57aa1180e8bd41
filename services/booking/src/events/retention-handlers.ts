/**
 * Issue 18 (privacy): booking learns when a job ended, so its photos can be deleted PHOTO_RETENTION_MONTHS later
 * (workers/photo-retention.ts): paid (JobStatusChanged to `paid`, which jobs emits once the invoice is paid), or
 * ended unpaid, cancelled (JobStatusChanged to `cancelled`: staff, the customer's manage page, a no-show) or deleted
 * (JobDeleted). The first of these counts (docs/decisions.md "Photos of jobs never paid"). Inbox names
 * `booking.photoRetentionOnJobPaid` and `booking.photoRetentionOnJobDeleted`: never rename them.
 */
import type { EventOf, Inbox, JobDeletedV1, JobStatusChangedV1 } from '@tyres/events';
import type { Tx } from '../db/client';
import { recordJobEnded } from '../db/photo-retention';

export function retentionHandlers(deps: { inbox: Inbox<Tx> }) {
  const onJobPaid = deps.inbox.handler<EventOf<typeof JobStatusChangedV1>>(
    'booking.photoRetentionOnJobPaid',
    async (tx, event) => {
      if (event.data.to !== 'paid' && event.data.to !== 'cancelled') return;
      await recordJobEnded(tx, event.data.jobId, new Date(event.data.changedAt));
    },
  );
  const onJobDeleted = deps.inbox.handler<EventOf<typeof JobDeletedV1>>(
    'booking.photoRetentionOnJobDeleted',
    async (tx, event) => {
      await recordJobEnded(tx, event.data.jobId, new Date(event.data.deletedAt));
    },
  );
  return { onJobPaid, onJobDeleted };
}

export type RetentionHandlers = ReturnType<typeof retentionHandlers>;

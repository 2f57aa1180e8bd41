/**
 * Issue 18 (privacy): the jobs service applies CustomerErased (booking erased a customer on request) and
 * BookingPhotosDeleted (photo retention).
 */
import type { BookingPhotosDeletedV1Data, CustomerErasedV1Data } from '@tyres/events';
import type { Tx } from '../db/client';
import { deletePhotoReferences, eraseJobs } from '../db/erasure';

export async function applyCustomerErasure(tx: Tx, data: CustomerErasedV1Data): Promise<void> {
  await eraseJobs(tx, {
    customerId: data.customerId,
    jobIds: data.jobIds,
    erasedAt: new Date(data.erasedAt),
  });
}

/** Issue 18 (privacy): BookingPhotosDeleted (retention): the job detail no longer lists those photos. */
export async function applyPhotosDeleted(tx: Tx, data: BookingPhotosDeletedV1Data): Promise<void> {
  await deletePhotoReferences(tx, data.jobId, data.photoIds);
}

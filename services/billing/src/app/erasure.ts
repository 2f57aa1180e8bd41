/** Issue 18 (privacy): billing applies CustomerErased (booking erased a customer on request). */
import type { CustomerErasedV1Data } from '@tyres/events';
import type { Tx } from '../db/client';
import { eraseBillingJobs } from '../db/erasure';

export async function applyCustomerErasure(tx: Tx, data: CustomerErasedV1Data): Promise<void> {
  await eraseBillingJobs(tx, {
    customerId: data.customerId,
    jobIds: data.jobIds,
    erasedAt: new Date(data.erasedAt),
  });
}

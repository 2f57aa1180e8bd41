/** Issue 18 (privacy): reporting applies CustomerErased (booking erased a customer on request). */
import type { CustomerErasedV1Data, SqlExecutor } from '@tyres/events';
import { eraseReportingJobs } from '../db/erasure';

export async function applyCustomerErasure(tx: SqlExecutor, data: CustomerErasedV1Data): Promise<void> {
  await eraseReportingJobs(tx, {
    customerId: data.customerId,
    jobIds: data.jobIds,
    erasedAt: new Date(data.erasedAt),
  });
}

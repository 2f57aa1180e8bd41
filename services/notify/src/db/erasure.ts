/**
 * Issue 18 (privacy): applying CustomerErased to the notify schema. The tombstones go in first; touching the rows
 * then runs the triggers of migration customer_erasure (booking records, deliveries, confirmations, review
 * progress). Messages to the customer's address or number without a job (manage links, requests by others) are
 * erased too, and their marketing contact row goes (nobody can be messaged at an address no service holds).
 */
import type { TimeSlot } from '@tyres/kernel';
import type { Prisma } from './generated/client';

type Tx = Prisma.TransactionClient;

/** The slots of these bookings (not personal: kept after the erasure), for their reminder jobs' ids. */
export async function slotsOfJobs(db: Pick<Tx, '$queryRawUnsafe'>, jobIds: string[]): Promise<ErasedSlot[]> {
  const rows = await db.$queryRawUnsafe<{ job_id: string; scheduled_date: string; time_slot: string }[]>(
    `SELECT job_id::text, to_char(scheduled_date, 'YYYY-MM-DD') AS scheduled_date, time_slot
       FROM notify.booking_records WHERE job_id = ANY($1::uuid[])`,
    jobIds,
  );
  return rows.map((r) => ({
    jobId: r.job_id,
    scheduledDate: r.scheduled_date,
    timeSlot: r.time_slot as TimeSlot,
  }));
}

export interface ErasedSlot {
  jobId: string;
  scheduledDate: string;
  timeSlot: TimeSlot;
}

export async function eraseNotifyJobs(
  tx: Tx,
  e: { customerId: string; jobIds: string[]; erasedAt: Date },
): Promise<{ slots: ErasedSlot[]; deliveries: number }> {
  if (e.jobIds.length === 0) return { slots: [], deliveries: 0 };
  // What the records said before: the contact details (to find messages without a job) and the slots (reminders).
  const records = await tx.$queryRawUnsafe<
    {
      job_id: string;
      customer_email: string;
      customer_phone: string;
      scheduled_date: string;
      time_slot: string;
    }[]
  >(
    `SELECT job_id::text, customer_email, customer_phone, to_char(scheduled_date, 'YYYY-MM-DD') AS scheduled_date, time_slot
       FROM notify.booking_records WHERE job_id = ANY($1::uuid[]) FOR UPDATE`,
    e.jobIds,
  );
  await tx.$executeRawUnsafe(
    `INSERT INTO notify.erased_jobs (job_id, customer_id, erased_at)
     SELECT unnest($1::uuid[]), $2::uuid, $3 ON CONFLICT (job_id) DO NOTHING`,
    e.jobIds,
    e.customerId,
    e.erasedAt,
  );
  const contacts = [
    ...new Set(records.flatMap((r) => [r.customer_email.toLowerCase(), r.customer_phone.toLowerCase()])),
  ].filter((c) => c && !c.endsWith('@erased.invalid') && c !== 'erased');
  await tx.$executeRawUnsafe(
    `UPDATE notify.booking_records SET updated_at = now() WHERE job_id = ANY($1::uuid[])`,
    e.jobIds,
  );
  await tx.$executeRawUnsafe(
    `UPDATE notify.confirmations SET updated_at = now() WHERE job_id = ANY($1::uuid[])`,
    e.jobIds,
  );
  await tx.$executeRawUnsafe(
    `UPDATE notify.review_progress SET updated_at = now() WHERE job_id = ANY($1::uuid[])`,
    e.jobIds,
  );
  // Messages of those jobs (the trigger erases them), then the ones to the same address without a job.
  const deliveries = await tx.$executeRawUnsafe(
    `UPDATE notify.deliveries SET updated_at = now() WHERE job_id = ANY($1::uuid[])`,
    e.jobIds,
  );
  const other = contacts.length
    ? await tx.$executeRawUnsafe(
        `UPDATE notify.deliveries
            SET recipient = 'erased', normalized_to = NULL, subject = NULL, body = 'Erased (privacy request)',
                html = NULL, reply_to = NULL, raw_message = NULL, headers = NULL,
                status = CASE WHEN status = 'sent' THEN status ELSE 'failed' END,
                last_error = CASE WHEN status = 'sent' THEN last_error
                                  ELSE 'withdrawn: the customer was erased (privacy request)' END,
                updated_at = now()
          WHERE job_id IS NULL AND lower(recipient) = ANY($1::text[])`,
        contacts,
      )
    : 0;
  await tx.$executeRawUnsafe(
    `UPDATE notify.delivery_attempts SET error = 'Erased (privacy request)'
      WHERE error IS NOT NULL AND delivery_id IN (SELECT id FROM notify.deliveries WHERE recipient = 'erased')`,
  );
  if (contacts.length) {
    // An opt-out outlives the erasure (Spam Act 2003: a withdrawn consent must stay honoured): the row of an
    // unsubscribed address keeps only a one-way hash of it (optOutKey) and the opt-out time, under a fresh token, so
    // a later booking with the same address gets no review request. Any other row goes.
    await tx.$executeRawUnsafe(
      `INSERT INTO notify.marketing_contacts (email, token, unsubscribed_at, created_at)
       SELECT 'optout:' || encode(sha256(convert_to(lower(email), 'UTF8')), 'hex'),
              replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
              unsubscribed_at, now()
         FROM notify.marketing_contacts
        WHERE lower(email) = ANY($1::text[]) AND unsubscribed_at IS NOT NULL
       ON CONFLICT (email) DO NOTHING`,
      contacts,
    );
    await tx.$executeRawUnsafe(
      `DELETE FROM notify.marketing_contacts WHERE lower(email) = ANY($1::text[])`,
      contacts,
    );
  }
  await tx.$executeRawUnsafe(
    `DELETE FROM notify.outbox_events WHERE published_at IS NOT NULL AND payload->'data'->>'jobId' = ANY($1::text[])`,
    e.jobIds,
  );
  return {
    slots: records.map((r) => ({
      jobId: r.job_id,
      scheduledDate: r.scheduled_date,
      timeSlot: r.time_slot as TimeSlot,
    })),
    deliveries: deliveries + other,
  };
}

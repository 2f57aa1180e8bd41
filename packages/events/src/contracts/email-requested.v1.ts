import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime } from './common';

/**
 * any service -> notify (BullMQ `email` queue, job id derived from `requestId`). Attachments are not carried
 * here; a service that must attach files (invoice PDFs) sends through its own email worker.
 */
export const EmailRequestedV1Data = z.object({
  requestId: id,
  to: z.email(),
  replyTo: z.email().nullable().optional(),
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(100_000),
  html: z.string().max(500_000).nullable().optional(),
  purpose: z.string().min(1).max(100),
  jobId: id.nullable(),
  requestedAt: isoDateTime,
});
export type EmailRequestedV1Data = z.infer<typeof EmailRequestedV1Data>;

export const EmailRequestedV1 = defineContract({
  type: 'email.requested.v1',
  name: 'EmailRequested',
  version: 1,
  schema: EmailRequestedV1Data,
});

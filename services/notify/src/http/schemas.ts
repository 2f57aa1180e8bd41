/**
 * The request schemas of notify's admin routes and the answers they give (routes.ts serialises, openapi.ts
 * documents with these, the integration suites check every answer against them).
 */
import { z } from 'zod';

/** Everything under this prefix is admin-only at the gateway, and again here (defence in depth). */
export const NOTIFICATIONS_API = '/api/dashboard/notifications';
export const QUEUES_UI_PATH = `${NOTIFICATIONS_API}/queues`;

/** GET /api/dashboard/notifications/deliveries. */
export const listQuery = z.object({
  channel: z.enum(['sms', 'email'], { error: 'channel must be sms or email' }).optional(),
  status: z.enum(['queued', 'sending', 'retrying', 'sent', 'failed'], { error: 'Unknown status' }).optional(),
  jobId: z.uuid({ error: 'jobId must be a UUID' }).optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

/** GET /api/dashboard/notifications/deliveries/:id. */
export const idParam = z.object({ id: z.uuid({ error: 'Delivery not found' }) });

/** The public unsubscribe API (issue 18, Spam Act 2003): routed as public by the gateway, rate limited there. */
export const UNSUBSCRIBE_API = '/api/unsubscribe';

/** The answer to an unknown, malformed or made-up unsubscribe link. */
export const UNSUBSCRIBE_NOT_FOUND = 'This unsubscribe link is not valid';

/** GET/POST /api/unsubscribe/:token. */
export const unsubscribeTokenParam = z.object({
  token: z.string().meta({ description: 'The token from the unsubscribe link (43 characters, base64url).' }),
});

// ---------------------------------------------------------------------------------------------------------------
// Answers

/** Timestamps travel as ISO 8601 strings. */
const Instant = z.string().meta({ format: 'date-time' });

const jobCounts = z.object({
  waiting: z.number().int(),
  active: z.number().int(),
  delayed: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
});

export const NotifyStatusSchema = z
  .object({
    transports: z
      .object({ sms: z.string(), email: z.string() })
      .meta({ description: '"local" means recorded here only, never delivered.' }),
    websocket: z.object({ connections: z.number().int() }),
    queues: z.object({ sms: jobCounts, email: jobCounts }),
  })
  .meta({ id: 'NotifyStatus' });

export const DeliverySummarySchema = z
  .object({
    id: z.string(),
    channel: z.enum(['sms', 'email']),
    purpose: z.string(),
    recipient: z.string(),
    normalizedTo: z.string().nullable(),
    subject: z.string().nullable(),
    preview: z.string().meta({ description: 'The first 160 characters of the text.' }),
    status: z.enum(['queued', 'sending', 'retrying', 'sent', 'failed']),
    transport: z.string().nullable(),
    delivered: z.boolean().meta({ description: 'Sent by a real transport (not "local").' }),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    lastError: z.string().nullable(),
    nextAttemptAt: Instant.nullable(),
    providerMessageId: z.string().nullable(),
    jobId: z.string().nullable(),
    requestedBy: z.string().nullable(),
    requestedAt: Instant,
    createdAt: Instant,
    updatedAt: Instant,
    sentAt: Instant.nullable(),
    failedAt: Instant.nullable(),
  })
  .meta({ id: 'DeliverySummary' });

export const DeliveryPageSchema = z
  .object({
    deliveries: z.array(DeliverySummarySchema),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `cursor` for the next page; null at the end.' }),
  })
  .meta({ id: 'DeliveryPage' });

export const DeliveryDetailSchema = DeliverySummarySchema.extend({
  body: z.string(),
  html: z.string().nullable(),
  replyTo: z.string().nullable(),
  rawMessage: z.string().nullable(),
  correlationId: z.string().nullable(),
  sourceEventId: z.string().nullable(),
  attemptLog: z.array(
    z.object({
      attempt: z.number().int(),
      outcome: z.string(),
      error: z.string().nullable(),
      transport: z.string(),
      durationMs: z.number().int(),
      at: Instant,
    }),
  ),
}).meta({ id: 'DeliveryDetail' });

export const UnsubscribeStatusSchema = z
  .object({
    unsubscribed: z.boolean().meta({ description: 'Whether the address gets no more review requests.' }),
    contact: z.string().meta({ description: 'The address, masked ("j***@example.com").' }),
  })
  .meta({ id: 'UnsubscribeStatus' });

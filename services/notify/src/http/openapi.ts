/**
 * notify's OpenAPI document (issue 17): the admin delivery log, the public unsubscribe API (issue 18), with the request schemas of schemas.ts. The
 * WebSocket (/ws, ws/) is not HTTP request/response and is described in services/notify/README.md; bull-board's own
 * pages and API under /queues are a third-party UI and are not described route by route.
 * test/integration/openapi.int.test.ts fails when routes.ts has a route this file does not describe.
 */
import {
  errors,
  json,
  serviceOpenApiDocument,
  STAFF_ERRORS,
  type OpenApiDocument,
  type RoutePaths,
} from '@tyres/service-kit';
import { z } from 'zod';
import {
  DeliveryDetailSchema,
  DeliveryPageSchema,
  idParam,
  listQuery,
  NOTIFICATIONS_API,
  NotifyStatusSchema,
  QUEUES_UI_PATH,
  UNSUBSCRIBE_API,
  UNSUBSCRIBE_NOT_FOUND,
  unsubscribeTokenParam,
  UnsubscribeStatusSchema,
} from './schemas';

const ADMIN = { 401: STAFF_ERRORS[401], 403: 'Only an admin can do that' } as const;
const security = [{ gatewayIdentity: [] }];

const UNSUBSCRIBE_TAGS = ['Unsubscribe'];

export const notifyPaths: RoutePaths = {
  [`${UNSUBSCRIBE_API}/{token}`]: {
    get: {
      summary: "Whether an unsubscribe link's address still gets review requests (the public page reads it)",
      description: 'Public (no session); rate limited per client at the gateway. Changes nothing.',
      tags: UNSUBSCRIBE_TAGS,
      requestParams: { path: unsubscribeTokenParam },
      responses: {
        '200': json('The address and whether it is unsubscribed', UnsubscribeStatusSchema),
        ...errors({ 404: UNSUBSCRIBE_NOT_FOUND, 429: 'Too many requests' }),
      },
    },
    post: {
      summary: 'Unsubscribe from review requests (marketing), at once',
      description:
        "Public (no session); the unsubscribe page and mail clients' one-click List-Unsubscribe-Post " +
        '(body `List-Unsubscribe=One-Click`, ignored) call it. Idempotent. Review requests still waiting for the ' +
        'address are withdrawn; booking confirmations, reminders, notices and receipts keep coming.',
      tags: UNSUBSCRIBE_TAGS,
      requestParams: { path: unsubscribeTokenParam },
      responses: {
        '200': json('Unsubscribed', UnsubscribeStatusSchema),
        ...errors({ 404: UNSUBSCRIBE_NOT_FOUND, 429: 'Too many requests' }),
      },
    },
  },
  [NOTIFICATIONS_API]: {
    get: {
      summary: 'Transports in use, open sockets and queue counts',
      tags: ['Notifications'],
      security,
      responses: {
        '200': json('Status', NotifyStatusSchema),
        ...errors({ ...ADMIN, 503: 'Queue counts are unavailable: Redis is not reachable' }),
      },
    },
  },
  [`${NOTIFICATIONS_API}/deliveries`]: {
    get: {
      summary: 'The delivery log (SMS and email), newest first',
      tags: ['Notifications'],
      security,
      requestParams: { query: listQuery },
      responses: {
        '200': json('A page of deliveries', DeliveryPageSchema),
        ...errors({
          400: [
            'channel must be sms or email',
            'Unknown status',
            'jobId must be a UUID',
            'limit must be a number',
            'Invalid cursor',
          ],
          ...ADMIN,
        }),
      },
    },
  },
  [`${NOTIFICATIONS_API}/deliveries/{id}`]: {
    get: {
      summary: 'One message with every delivery attempt',
      tags: ['Notifications'],
      security,
      requestParams: { path: idParam },
      responses: {
        '200': json('The message', DeliveryDetailSchema),
        ...errors({ ...ADMIN, 404: 'Delivery not found' }),
      },
    },
  },
  [QUEUES_UI_PATH]: {
    get: {
      summary: 'The queue dashboard (bull-board): inspect, retry and clean SMS and email jobs',
      description: 'A web page; its assets and its own JSON API live under this prefix.',
      tags: ['Notifications'],
      security,
      responses: {
        '200': { description: 'The page', content: { 'text/html': { schema: z.string() } } },
        ...errors(ADMIN),
      },
    },
  },
};

export const notifyOpenApi = (): OpenApiDocument =>
  serviceOpenApiDocument({
    service: 'notify',
    description:
      'SMS and email delivery (queued, retried, logged) and the dashboard live feed. The HTTP routes are the admin ' +
      'delivery log and the public unsubscribe link of review requests; staff browsers also hold a WebSocket at ' +
      "/ws (see the service's README). Any route may answer " +
      '503 while the database is unavailable, with the shared error body.',
    paths: notifyPaths,
  });

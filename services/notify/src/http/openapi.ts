/**
 * notify's OpenAPI document (issue 17): the admin delivery log, with the request schemas of schemas.ts. The
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
} from './schemas';

const ADMIN = { 401: STAFF_ERRORS[401], 403: 'Only an admin can do that' } as const;
const security = [{ gatewayIdentity: [] }];

export const notifyPaths: RoutePaths = {
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
      "delivery log; staff browsers also hold a WebSocket at /ws (see the service's README). Any route may answer " +
      '503 while the database is unavailable, with the shared error body.',
    paths: notifyPaths,
  });

/** Issue 18 (privacy): the erasure route (erasure-routes.ts) in booking's OpenAPI document, merged by openapi.ts. */
import { errors, json, jsonBody, STAFF_ERRORS, type RoutePaths } from '@tyres/service-kit';
import { z } from 'zod';
import { eraseCustomerSchema, ERASURE_MSG } from '../domain/erasure';

const ADMIN_ERRORS = { 401: STAFF_ERRORS[401], 403: 'Only an admin can do that' } as const;
const jobIdParam = z.object({ jobId: z.string().meta({ description: 'The job (a UUID).' }) });

export const ErasureResultSchema = z
  .object({
    customerId: z.string(),
    erasedAt: z.string().meta({ description: 'When the customer was erased (the first time), ISO 8601.' }),
    erasedByUserId: z.string(),
    jobIds: z.array(z.string()).meta({ description: "Every job of the customer's bookings." }),
    bookingIds: z.array(z.string()),
    alreadyErased: z
      .boolean()
      .meta({ description: 'true: the customer had been erased before; this request changed nothing.' }),
  })
  .meta({ id: 'CustomerErasure' });

export const erasurePaths: RoutePaths = {
  '/api/dashboard/bookings/{jobId}/erase-customer': {
    post: {
      summary:
        "Erase the customer of a job's booking on request (APP 11.2): personal data de-identified in every service, invoices kept",
      tags: ['Dashboard'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobIdParam },
      requestBody: jsonBody(eraseCustomerSchema),
      responses: {
        '200': json('The erasure (the same answer when asked again)', ErasureResultSchema),
        ...errors({
          400: [ERASURE_MSG.reasonRequired, ERASURE_MSG.reasonTooLong, ERASURE_MSG.confirmRequired],
          ...ADMIN_ERRORS,
          404: ERASURE_MSG.noBooking,
        }),
      },
    },
  },
};

/**
 * Reporting's OpenAPI document (issue 17): the three admin reports, with the period query that validates them
 * (period-query.ts) and the answers of responses.ts. test/integration/openapi.int.test.ts fails when routes.ts has
 * a route this file does not describe.
 */
import {
  errors,
  json,
  serviceOpenApiDocument,
  STAFF_ERRORS,
  type OpenApiDocument,
  type RouteOperation,
  type RoutePaths,
} from '@tyres/service-kit';
import { DATE_FORMAT_MESSAGE, ORDER_MESSAGE, periodQuery } from './period-query';
import { EnhancedPlSchema, GstReportSchema, PayablesReportSchema } from './responses';
import type { z } from 'zod';

const report = (summary: string, description: string, schema: z.ZodType): RouteOperation => ({
  summary,
  description: `${description} Inclusive Perth calendar dates; either bound may be left out. Answers carry Cache-Control: no-store.`,
  tags: ['Reports'],
  security: [{ gatewayIdentity: [] }],
  requestParams: { query: periodQuery },
  responses: {
    '200': json(summary, schema),
    ...errors({
      400: [DATE_FORMAT_MESSAGE('startDate'), DATE_FORMAT_MESSAGE('endDate'), ORDER_MESSAGE],
      401: STAFF_ERRORS[401],
      403: 'Only an admin can do that',
    }),
  },
});

export const reportingPaths: RoutePaths = {
  '/api/dashboard/reports/gst': {
    get: report(
      'GST report',
      'GST collected on issued customer invoices and paid on purchases and expenses, with both lists.',
      GstReportSchema,
    ),
  },
  '/api/dashboard/reports/purchases-payables': {
    get: report(
      'Purchases and payables',
      'Purchases by supplier and category, what is unpaid and overdue, and the payments due in the next 30 days.',
      PayablesReportSchema,
    ),
  },
  '/api/dashboard/reports/enhanced-pl': {
    get: report(
      'Enhanced profit and loss',
      'Revenue, costs and expenses ex GST, gross and net profit with margins, and the top categories.',
      EnhancedPlSchema,
    ),
  },
};

export const reportingOpenApi = (): OpenApiDocument =>
  serviceOpenApiDocument({
    service: 'reporting',
    description:
      'Read models built only from events: the dashboard GST, purchases/payables and enhanced P&L reports, admin ' +
      'only. Any route may also answer 503 while the database is unavailable, with the shared error body.',
    paths: reportingPaths,
  });

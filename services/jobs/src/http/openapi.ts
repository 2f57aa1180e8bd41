import {
  errors,
  json,
  jsonBody,
  serviceOpenApiDocument,
  type OpenApiDocument,
  type RoutePaths,
} from '@tyres/service-kit';
import { z } from 'zod';
import { JOB_STATUSES } from '../domain/status';
import {
  ADMIN_ONLY,
  BOOKING_UNAVAILABLE,
  JOB_NOT_FOUND,
  LINE_ITEM_NOT_FOUND,
  LINE_TOTAL_TOO_LARGE,
  NOTIFY_ONLY_WHEN_STARTING,
  PAST_DATE,
  SAVE_FAILED_AFTER_BOOKING,
  SLOT_PASSED,
  SLOT_TAKEN,
  TECHNICIAN_NOT_ASSIGNABLE,
  TECHNICIAN_NOT_FOUND,
} from '../domain/messages';
import { JOB_EDIT_MESSAGES, jobEditBody, JobHistorySchema } from './job-edit-schemas';
import { NOTHING_CHANGED } from '../domain/job-edits';
import {
  DashboardJobSchema,
  DetailedJobSchema,
  JobDeletedSchema,
  JobDetailSchema,
  JobStatusChangeSchema,
  LineItemDeletedSchema,
  LineItemSchema,
  TechnicianSchema,
} from './responses';
import {
  assignBody,
  BOTH_REQUIRED,
  INVALID_DATE,
  INVALID_SLOT,
  lineItemBody,
  lineItemPatch,
  listQueryFields,
  MAX_PAGE,
  MAX_PAGE_SIZE,
  MAX_SCHEDULED_RANGE_DAYS,
  rescheduleBody,
  statusBody,
  STATUS_MESSAGE,
  uuid,
} from './schemas';

/**
 * The jobs service's routes as OpenAPI 3.1 (issue 17): the request schemas are the ones the routes parse with
 * (./schemas.ts), the answers are ./responses.ts. The integration suites check every JSON answer against this
 * (OPENAPI_RESPONSE_CHECK=strict), and test/integration/openapi.int.test.ts fails when a route of the router is
 * missing here. Messages with a job number show it as {jobNumber}.
 */

// ------------------------------------------------------------------------------------------------ the answers' errors

/** requireStaff without an identity; the identity middleware for a token that does not verify. */
const NOT_SIGNED_IN = { 401: ['Not authenticated', 'Invalid identity token'] } as const;
/** An admin-only change by a technician to a job of their own (someone else's job is 404). */
const ADMIN_CHANGE = { ...NOT_SIGNED_IN, 403: ADMIN_ONLY } as const;

const LIST_QUERY_MESSAGES = [
  `status must be all or one of ${JOB_STATUSES.join(', ')}`,
  'scheduleStatus must be all or one of pending, confirmed, in_progress, completed, cancelled',
  'Filter by status or by scheduleStatus, not both',
  `page must be a whole number from 1 to ${MAX_PAGE}`,
  `pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
  'scheduledFrom must be a date YYYY-MM-DD',
  'scheduledTo must be a date YYYY-MM-DD',
  'scheduledFrom and scheduledTo go together',
  'scheduledTo must not be before scheduledFrom',
  `The scheduled date range is at most ${MAX_SCHEDULED_RANGE_DAYS} days`,
];

const LINE_ITEM_MESSAGES = [
  'Type is required',
  'Type must be at most 50 characters',
  'Category must be one of callout, tyre, labour, battery, note',
  'Please enter a description for the line item.',
  'Description must be at most 1000 characters',
  'Quantity must be a whole number of at least 1',
  'Quantity must be at most 10000',
  'Must be a valid decimal amount',
  LINE_TOTAL_TOO_LARGE,
];

/** Booking owns slot reservations; these are the answers when it cannot apply a slot change (app/slot-changes.ts). */
const BOOKING_FAILURES = {
  502: 'The booking service refused the slot change ({status}). Nothing was changed.',
  503: [BOOKING_UNAVAILABLE, SAVE_FAILED_AFTER_BOOKING],
} as const;

const ILLEGAL_TRANSITION = [
  'Cannot change job {jobNumber} from {from} to {to}: the job is currently {from}. From {from} it can only move to {allowed}.',
  // From a final status (paid, cancelled) there is nowhere to move.
  'Cannot change job {jobNumber} from {from} to {to}: the job is currently {from}.',
];

// ------------------------------------------------------------------------------------------------ parameters

const jobPath = z.object({ id: uuid.meta({ description: 'The job id' }) });
const lineItemPath = z.object({
  id: uuid.meta({ description: 'The job id' }),
  itemId: uuid.meta({ description: 'The line item id' }),
});

const PAGE_HEADERS = {
  'X-Total-Count': {
    description: 'Jobs matching the filters, all pages',
    schema: { type: 'integer' as const },
  },
  'X-Page': { description: 'This page (from 1)', schema: { type: 'integer' as const } },
  'X-Page-Size': { description: 'Jobs per page', schema: { type: 'integer' as const } },
  'X-Total-Pages': { description: 'Pages (at least 1)', schema: { type: 'integer' as const } },
  Link: {
    description: 'rel="prev" / rel="next" page addresses, when there are such pages',
    schema: { type: 'string' as const },
  },
};

const page = (description: string, item: z.ZodType) => ({
  ...json(description, z.array(item)),
  headers: PAGE_HEADERS,
});

const LIST_DESCRIPTION =
  "Newest first; a technician gets only the jobs assigned to them. Filter with `status` (dashboard vocabulary) or `scheduleStatus` (the schedule's), not both, and/or with `scheduledFrom` and `scheduledTo` together (Perth dates YYYY-MM-DD, both inclusive, at most " +
  MAX_SCHEDULED_RANGE_DAYS +
  ' days: the schedule calendar asks for its week or day). The body is a plain array; the totals are headers.';

export const jobsPaths: RoutePaths = {
  '/api/dashboard/jobs': {
    get: {
      operationId: 'listJobs',
      tags: ['jobs'],
      summary: 'Jobs (dashboard list)',
      description: LIST_DESCRIPTION,
      security: [{ gatewayIdentity: [] }],
      requestParams: { query: listQueryFields },
      responses: {
        '200': page('A page of jobs', DashboardJobSchema),
        ...errors({ 400: LIST_QUERY_MESSAGES, ...NOT_SIGNED_IN }),
      },
    },
  },
  '/api/dashboard/jobs-with-details': {
    get: {
      operationId: 'listJobsWithDetails',
      tags: ['jobs'],
      summary: 'Jobs with details (schedule, jobs tab)',
      description: LIST_DESCRIPTION,
      security: [{ gatewayIdentity: [] }],
      requestParams: { query: listQueryFields },
      responses: {
        '200': page('A page of detailed jobs', DetailedJobSchema),
        ...errors({ 400: LIST_QUERY_MESSAGES, ...NOT_SIGNED_IN }),
      },
    },
  },
  '/api/dashboard/jobs/{id}': {
    get: {
      operationId: 'getJob',
      tags: ['jobs'],
      summary: 'One job with its line items',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobPath },
      responses: {
        '200': json('The job', JobDetailSchema),
        ...errors({ ...NOT_SIGNED_IN, 404: JOB_NOT_FOUND }),
      },
    },
    patch: {
      operationId: 'editJob',
      tags: ['jobs'],
      summary:
        'Edit a job after booking (admin): price, address, vehicle, notes, tyre details, with a reason',
      description:
        'Only the fields sent change; `reason` is required and `version` is the edit version the form was opened at (GET …/history): another edit since then is 409, nothing is overwritten unseen. The price is a decimal string, 0 or more, at most 2 places, at most 99999999.99 (the money limit of invoice lines). The price of a job with an invoice that is not cancelled, of a paid job or of a cancelled job cannot change (409): change the invoice, or cancel it and generate it again. Each edit is kept in the history and announced as JobUpdated (billing, reporting).',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobPath },
      requestBody: jsonBody(jobEditBody()),
      responses: {
        '200': json('The job as it is now', JobDetailSchema),
        ...errors({
          400: [...JOB_EDIT_MESSAGES, NOTHING_CHANGED],
          ...ADMIN_CHANGE,
          404: JOB_NOT_FOUND,
          409: [
            'Job {jobNumber} was changed by someone else since you opened it. Reload it and try again.',
            'Job {jobNumber} has invoice {invoiceNumber}, so its price cannot change here. Change the amount on the invoice, or cancel the invoice, change the price and generate the invoice again.',
            'Job {jobNumber} is cancelled: its price can no longer be changed.',
            'Job {jobNumber} is paid: its price can no longer be changed. Record a refund or a new invoice in billing instead.',
          ],
        }),
      },
    },
    delete: {
      operationId: 'deleteJob',
      tags: ['jobs'],
      summary: 'Delete a job (admin)',
      description:
        'Soft delete; frees the time slot at booking. Refused while the job has a customer invoice that is not deleted.',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobPath },
      responses: {
        '200': json('The job was deleted', JobDeletedSchema),
        ...errors({
          ...ADMIN_CHANGE,
          404: JOB_NOT_FOUND,
          409: 'Job {jobNumber} has a customer invoice ({invoiceNumber}) and cannot be deleted. Delete the invoice first.',
          ...BOOKING_FAILURES,
        }),
      },
    },
  },
  '/api/dashboard/jobs/{id}/history': {
    get: {
      operationId: 'getJobHistory',
      tags: ['jobs'],
      summary: "A job's edits after booking, newest first, and its edit version",
      description:
        'Who changed what, when and why: each changed field before and after. For an erased customer the personal values and the reason are blanked.',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobPath },
      responses: {
        '200': json('The history', JobHistorySchema),
        ...errors({ ...NOT_SIGNED_IN, 404: JOB_NOT_FOUND }),
      },
    },
  },
  '/api/dashboard/jobs/{id}/status': {
    patch: {
      operationId: 'changeJobStatus',
      tags: ['jobs'],
      summary: 'Move a job to another status',
      description:
        'Along the status arrows only. `cancelled` is admin only and frees the slot at booking. `notifyCustomer` with `in-progress` asks notify to text the customer that the technician is on the way.',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobPath },
      requestBody: jsonBody(statusBody),
      responses: {
        '200': json('The job as it is now', JobStatusChangeSchema),
        ...errors({
          400: [
            'Status is required',
            STATUS_MESSAGE,
            'notifyCustomer must be true or false',
            NOTIFY_ONLY_WHEN_STARTING,
          ],
          ...ADMIN_CHANGE,
          404: JOB_NOT_FOUND,
          409: ILLEGAL_TRANSITION,
          ...BOOKING_FAILURES,
        }),
      },
    },
  },
  '/api/dashboard/jobs/{jobId}/assign': {
    patch: {
      operationId: 'assignJob',
      tags: ['jobs'],
      summary: 'Assign a job to a technician, or unassign it (admin)',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: z.object({ jobId: uuid.meta({ description: 'The job id' }) }) },
      requestBody: jsonBody(assignBody, '`technicianId` null, "" or "unassigned" unassigns.'),
      responses: {
        '200': json('The job as it is now', JobDetailSchema),
        ...errors({
          400: ['Select a technician or Unassigned', TECHNICIAN_NOT_ASSIGNABLE],
          ...ADMIN_CHANGE,
          404: JOB_NOT_FOUND,
          409: 'Job {jobNumber} is cancelled and cannot be assigned.',
        }),
      },
    },
  },
  '/api/dashboard/jobs/{id}/reschedule': {
    put: {
      operationId: 'rescheduleJob',
      tags: ['jobs'],
      summary: 'Move a job to another date and time slot (admin)',
      description:
        'Only new and in-progress jobs, to a slot that has not passed (Perth time). Booking holds the slot; when it refuses, nothing changes.',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobPath },
      requestBody: jsonBody(rescheduleBody),
      responses: {
        '200': json('The job as it is now', JobDetailSchema),
        ...errors({
          400: [
            BOTH_REQUIRED,
            INVALID_DATE,
            INVALID_SLOT,
            PAST_DATE,
            SLOT_PASSED,
            // Booking's refusal of a date past its horizon, passed on as it is.
            'Bookings open {days} days ahead. Please choose a date on or before {date}.',
          ],
          ...ADMIN_CHANGE,
          404: JOB_NOT_FOUND,
          409: [
            'Job {jobNumber} is {status} and can no longer be rescheduled.',
            SLOT_TAKEN,
            'The booking service holds no time slot reservation for this job, so it cannot be moved.',
          ],
          ...BOOKING_FAILURES,
        }),
      },
    },
  },
  '/api/dashboard/jobs/{id}/line-items': {
    get: {
      operationId: 'listJobLineItems',
      tags: ['line items'],
      summary: "A job's line items",
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobPath },
      responses: {
        '200': json('The line items, oldest first', z.array(LineItemSchema)),
        ...errors({ ...NOT_SIGNED_IN, 404: JOB_NOT_FOUND }),
      },
    },
    post: {
      operationId: 'addJobLineItem',
      tags: ['line items'],
      summary: 'Add a line item (admin)',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobPath },
      requestBody: jsonBody(lineItemBody),
      responses: {
        '201': json('The new line item (totals and margin computed here)', LineItemSchema),
        ...errors({ 400: LINE_ITEM_MESSAGES, ...ADMIN_CHANGE, 404: JOB_NOT_FOUND }),
      },
    },
  },
  '/api/dashboard/jobs/{id}/line-items/{itemId}': {
    patch: {
      operationId: 'updateJobLineItem',
      tags: ['line items'],
      summary: 'Change a line item (admin)',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: lineItemPath },
      requestBody: jsonBody(lineItemPatch),
      responses: {
        '200': json('The line item as it is now', LineItemSchema),
        ...errors({
          400: [...LINE_ITEM_MESSAGES, 'Nothing to update'],
          ...ADMIN_CHANGE,
          404: [JOB_NOT_FOUND, LINE_ITEM_NOT_FOUND],
        }),
      },
    },
    delete: {
      operationId: 'deleteJobLineItem',
      tags: ['line items'],
      summary: 'Delete a line item (admin)',
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: lineItemPath },
      responses: {
        '200': json('The line item was deleted', LineItemDeletedSchema),
        ...errors({ ...ADMIN_CHANGE, 404: [JOB_NOT_FOUND, LINE_ITEM_NOT_FOUND] }),
      },
    },
  },
  '/api/dashboard/technicians': {
    get: {
      operationId: 'listTechnicians',
      tags: ['technicians'],
      summary: 'Active technicians (a technician gets only themselves)',
      security: [{ gatewayIdentity: [] }],
      responses: {
        '200': json('Active technicians by username', z.array(TechnicianSchema)),
        ...errors(NOT_SIGNED_IN),
      },
    },
  },
  '/api/dashboard/technicians/{id}/jobs': {
    get: {
      operationId: 'listTechnicianJobs',
      tags: ['technicians'],
      summary: "A technician's jobs (admin, or the technician themselves)",
      description: LIST_DESCRIPTION,
      security: [{ gatewayIdentity: [] }],
      requestParams: {
        path: z.object({ id: uuid.meta({ description: 'The technician (user) id' }) }),
        query: listQueryFields,
      },
      responses: {
        '200': page('A page of detailed jobs', DetailedJobSchema),
        ...errors({ 400: LIST_QUERY_MESSAGES, ...NOT_SIGNED_IN, 404: TECHNICIAN_NOT_FOUND }),
      },
    },
  },
};

export const jobsOpenApi = (): OpenApiDocument =>
  serviceOpenApiDocument({
    service: 'jobs',
    description:
      'Job lifecycle, assignment, schedule, reschedule, edits after booking with their history, line items and the technician directory, behind the gateway (`/api/dashboard/jobs*`, `/api/dashboard/technicians*`). Every route needs the identity the gateway signs; a technician only ever sees jobs assigned to them (anything else is 404 "Job not found"). Any route may also answer 503 while the database is unavailable, 400 `malformed_json` / `malformed_url`, 413 or 415 from the body parser.',
    paths: jobsPaths,
  });

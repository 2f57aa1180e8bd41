import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { JOB_STATUSES, LINE_ITEM_CATEGORIES, MONEY_PATTERN } from '@tyres/kernel';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { JsonPage } from '../domain/job-view';
import { SCHEDULE_STATUSES } from '../domain/schedule';

/**
 * A page of a list: the body stays a plain array (what the spec's calls expect); the totals are headers
 * (X-Total-Count, X-Page, X-Page-Size, X-Total-Pages) and a Link header with rel="next" / rel="prev".
 */
export async function sendPage(
  req: Request,
  res: Response,
  page: JsonPage,
  q: { page: number; pageSize: number },
): Promise<void> {
  const totalPages = Math.max(1, Math.ceil(page.total / q.pageSize));
  res.setHeader('X-Total-Count', String(page.total));
  res.setHeader('X-Page', String(q.page));
  res.setHeader('X-Page-Size', String(q.pageSize));
  res.setHeader('X-Total-Pages', String(totalPages));
  const links: string[] = [];
  const link = (p: number, rel: string) => {
    const params = new URLSearchParams(req.query as Record<string, string>);
    params.set('page', String(p));
    params.set('pageSize', String(q.pageSize));
    links.push(`<${req.baseUrl}${req.path}?${params.toString()}>; rel="${rel}"`);
  };
  if (q.page > 1) link(q.page - 1, 'prev');
  if (q.page < totalPages) link(q.page + 1, 'next');
  if (links.length) res.setHeader('Link', links.join(', '));
  // Postgres built the JSON array (src/db/job-json.ts); send it as is, compressed for clients that accept it.
  await sendJson(req, res, page.body);
}

const gzip = promisify(zlib.gzip);
/** Below this a compressed answer saves too little to be worth the CPU. */
const COMPRESS_MIN_BYTES = 2048;

/**
 * JSON text, gzip-compressed (level 1, on libuv's thread pool) when the client accepts it and the body is large:
 * a page of 50 jobs is ~46 KiB of JSON and ~6 KiB compressed, which is what the gateway then has to move.
 */
async function sendJson(req: Request, res: Response, body: string): Promise<void> {
  res.type('application/json');
  res.vary('Accept-Encoding');
  if (body.length >= COMPRESS_MIN_BYTES && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(await gzip(body, { level: 1 }));
    return;
  }
  res.send(body);
}

// ---------------------------------------------------------------------------------------------------------------
// What the routes answer, as the OpenAPI document (./openapi.ts) describes it and the integration suites check it.
// The shapes are src/domain/job-view.ts; the list documents are built by Postgres (src/db/job-json.ts).

/** Money on the wire: a decimal string with exactly two places (Postgres numeric(10,2)::text), e.g. "139.00". */
export const MoneySchema = z.string().regex(MONEY_PATTERN).meta({
  id: 'Money',
  description: 'A decimal amount in AUD with exactly two places, e.g. "139.00".',
  example: '139.00',
});

/** Ids are Postgres uuids; `guid` (any 8-4-4-4-12 hex) so ids minted by other services' tests are not refused. */
const Id = z.guid();
const Instant = z.iso.datetime().meta({ description: 'An instant, ISO-8601 UTC with milliseconds.' });
const NullableInstant = Instant.nullable();
const PerthDate = z.iso.date().meta({ description: 'A Perth calendar date, YYYY-MM-DD.' });

export const JobPhotoSchema = z
  .object({ id: Id, type: z.string(), originalName: z.string() })
  .meta({ id: 'JobPhoto', description: 'Photo metadata; the image itself is served by booking.' });

/** Spec section 3, "Job (dashboard)" (DashboardJob). */
const dashboardJobFields = {
  id: Id,
  jobNumber: z.string(),
  status: z.enum(JOB_STATUSES),
  serviceType: z.string(),
  tyreSize: z.string().nullable(),
  tyreQuantity: z.number().int().nullable(),
  address: z.string(),
  suburb: z.string(),
  postcode: z.string(),
  scheduledDate: PerthDate,
  timeSlot: z.string().meta({ description: 'One of the booking time slots, e.g. "8-10 AM".' }),
  customerValue: MoneySchema,
  assignedTechnicianId: Id.nullable(),
  createdAt: Instant,
  inProgressAt: NullableInstant,
  completedAt: NullableInstant,
  invoicedAt: NullableInstant,
  paidAt: NullableInstant,
  customer: z.object({ name: z.string(), phone: z.string(), email: z.string() }),
  vehicle: z.object({
    make: z.string(),
    model: z.string(),
    year: z.number().int(),
    registration: z.string(),
  }),
  photos: z.array(JobPhotoSchema),
};

export const DashboardJobSchema = z.strictObject(dashboardJobFields).meta({
  id: 'DashboardJob',
  description: 'A job as the dashboard lists it (spec section 3, "Job (dashboard)").',
});

/** jobs-with-details, a technician's jobs and the job detail (DetailedJob). */
const detailedJobFields = {
  ...dashboardJobFields,
  scheduledDay: z.string().meta({ description: 'The weekday of scheduledDate, e.g. "Monday".' }),
  scheduleStatus: z.enum(SCHEDULE_STATUSES),
  assignedTechnician: z.object({ id: Id, username: z.string() }).nullable(),
  paymentMethod: z.string(),
  paymentStatus: z.string(),
  tyreBrand: z.string().nullable(),
  notes: z.string().nullable(),
  purchaseCost: MoneySchema.nullable(),
  hasCustomerInvoice: z.boolean(),
  cancelledAt: NullableInstant,
  updatedAt: Instant,
};

export const DetailedJobSchema = z.strictObject(detailedJobFields).meta({
  id: 'DetailedJob',
  description: 'A job with what the schedule and the job screens use.',
});

export const LineItemSchema = z
  .strictObject({
    id: Id,
    jobId: Id,
    type: z.string(),
    category: z.enum(LINE_ITEM_CATEGORIES),
    description: z.string(),
    quantity: z.number().int(),
    unitCost: MoneySchema,
    totalCost: MoneySchema,
    unitPrice: MoneySchema,
    totalPrice: MoneySchema,
    profitMargin: z
      .string()
      .regex(MONEY_PATTERN)
      .nullable()
      .meta({ description: 'Percent of the price, two places ("42.45"); null when the price is 0.' }),
    createdAt: Instant,
  })
  .meta({ id: 'JobLineItem' });

export const JobDetailSchema = z
  .strictObject({ ...detailedJobFields, lineItems: z.array(LineItemSchema) })
  .meta({ id: 'JobDetail', description: 'The detailed job and its line items.' });

export const JobStatusChangeSchema = z
  .strictObject({
    ...detailedJobFields,
    lineItems: z.array(LineItemSchema),
    smsRequested: z.boolean().meta({
      description: 'Whether the en-route SMS was asked of notify (notifyCustomer on starting work).',
    }),
  })
  .meta({ id: 'JobStatusChange' });

export const JobDeletedSchema = z
  .strictObject({
    success: z.literal(true),
    message: z.string().meta({ example: 'Job JOB-000123 deleted' }),
    id: Id,
    jobNumber: z.string(),
  })
  .meta({ id: 'JobDeleted' });

export const LineItemDeletedSchema = z
  .strictObject({ success: z.literal(true), message: z.literal('Line item deleted'), id: Id })
  .meta({ id: 'JobLineItemDeleted' });

export const TechnicianSchema = z
  .strictObject({
    id: Id,
    username: z.string(),
    email: z
      .string()
      .nullable()
      .meta({ description: 'null until the user service has told jobs the address.' }),
    role: z.literal('technician'),
    isActive: z.literal(true),
  })
  .meta({ id: 'Technician' });

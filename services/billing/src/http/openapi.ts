import {
  ErrorBodySchema,
  errors,
  json,
  jsonBody,
  serviceOpenApiDocument,
  type OpenApiDocument,
  type RoutePaths,
} from '@tyres/service-kit';
import { z } from 'zod';
import {
  AMOUNT_TOO_LARGE,
  INVOICE_NOT_FOUND,
  JOB_NOT_FOUND,
  SAVE_INVOICE_FIRST,
} from '../app/customer-invoices';
import { ADD_LINE_ITEM, CUSTOMER_ERASED_NO_EMAIL } from '../app/invoice-documents';
import { MAX_LINE_QUANTITY } from '../domain/constants';
import { PAY_MSG } from '../domain/pay-invoice';
import { surchargeRateUnavailable } from './booking-client';
import { TEST_CARDS_HELP } from '../domain/test-cards';
import {
  createExpenseSchema,
  createInvoiceSchema,
  createItemSchema,
  createPurchaseSchema,
  emailInvoiceSchema,
  listExpensesQuery,
  listInvoicesQuery,
  listRefundsQuery,
  M,
  paymentIntentSchema,
  testConfirmSchema,
  updateExpenseSchema,
  updateInvoiceSchema,
  updateItemSchema,
  updatePurchaseSchema,
} from './schemas';
import {
  EmailDeliverySchema,
  ExpenseSchema,
  InvoiceItemSchema,
  InvoiceSchema,
  InvoiceSummarySchema,
  MoneySchema,
  PurchaseInvoiceSchema,
  RefundSchema,
} from './serialize';
import { REFUND_NOT_FAILED, REFUND_NOT_FOUND } from '../app/refunds';

/**
 * The billing service's routes as OpenAPI 3.1 (issue 17): request schemas are the ones the routes parse with
 * (./schemas.ts), answers are ./serialize.ts's. The integration suites check every JSON answer against this
 * (OPENAPI_RESPONSE_CHECK=strict), and test/integration/openapi.int.test.ts fails when a route of the routers is
 * missing here. Messages with a value in them show it in braces ({invoiceNumber}).
 */

// ------------------------------------------------------------------------------------------------ the answers' errors

/** requireStaff / requireAdmin without an identity; the identity middleware for a token that does not verify. */
const NOT_SIGNED_IN = { 401: ['Not authenticated', 'Invalid identity token'] } as const;
/** requireAdmin for a technician. */
const ADMIN_ONLY = { ...NOT_SIGNED_IN, 403: 'Only an admin can do that' } as const;
const ACCOUNTING_DATE =
  '{Invoice date|Due date|Expense date|Paid date} must be between 1 Jan 2000 and {today + 5 years}';
const IDEMPOTENCY_KEY =
  'Idempotency-Key must be 8 to 128 letters, digits, dots, colons, dashes or underscores';
const IDEMPOTENCY_REUSED = 'This Idempotency-Key was already used for a different request';
const ALREADY_INVOICED = 'Job {jobNumber} already has invoice {invoiceNumber}';
const ITEMS_NOT_EDITABLE = 'Only an admin can change the line items of an invoice that is no longer a draft';
const ITEM_NOT_FOUND = 'Line item not found';
const QUEUE_UNAVAILABLE = 'Invoice PDFs and emails are unavailable right now. Please try again in a minute.';
const MUST_BE = 'Must be {max} characters or fewer';

const INVOICE_FIELD_MESSAGES = [
  M.dueDateRequired,
  'Invoice date is required',
  M.date,
  M.decimal,
  M.amountNonNegative,
  M.tooLarge,
  M.invalidStatus,
  M.invalidAmountType,
  ACCOUNTING_DATE,
];
const ITEM_MESSAGES = [
  M.lineItemDescription,
  MUST_BE,
  M.invalidCategory,
  M.quantityPositive,
  `Quantity must be ${MAX_LINE_QUANTITY} or fewer`,
  M.unitPriceRequired,
  M.decimal,
  M.unitPriceNonNegative,
  'gstFree must be true or false',
  AMOUNT_TOO_LARGE,
];
const PURCHASE_MESSAGES = [
  M.invoiceNumberRequired,
  M.supplierNameRequired,
  'Invoice date is required',
  M.totalNumber,
  M.totalPositive,
  M.decimal,
  M.tooLarge,
  M.date,
  'gstFree must be true or false',
  'isPaid must be true or false',
  MUST_BE,
  ACCOUNTING_DATE,
];
const EXPENSE_MESSAGES = [
  M.supplierNameRequired,
  M.descriptionRequired,
  M.totalNumber,
  M.totalPositive,
  M.decimal,
  M.tooLarge,
  M.categoryRequired,
  M.invalidCategory,
  M.expenseDateRequired,
  M.date,
  'gstFree must be true or false',
  'isPaid must be true or false',
  MUST_BE,
  ACCOUNTING_DATE,
];

// ------------------------------------------------------------------------------------------------ parameters

const uuidParam = (description: string) =>
  z.string().meta({ description: `${description} (a UUID; anything else is 404)`, format: 'uuid' });
const invoicePath = z.object({ id: uuidParam('The customer invoice id') });
const itemPath = z.object({
  id: uuidParam('The customer invoice id'),
  itemId: uuidParam('The line item id'),
});
const jobPath = z.object({ jobId: uuidParam('The job id') });
const purchasePath = z.object({ id: uuidParam('The purchase invoice id') });
const expensePath = z.object({ id: uuidParam('The expense id') });
const refundPath = z.object({ id: uuidParam('The refund id') });
const idempotencyHeader = z.object({
  'idempotency-key': z.string().optional().meta({
    description:
      'Repeating a request with the same key replays the first answer (Idempotent-Replayed: true).',
  }),
});

const STAFF = [{ gatewayIdentity: [] }];

// ------------------------------------------------------------------------------------------------ answers

const done = (message: string) =>
  z.strictObject({ success: z.literal(true), message: z.string().meta({ example: message }) });
const invoiceAnswer = (message: string) => done(message).extend({ customerInvoice: InvoiceSchema });
const itemAnswer = (message: string) =>
  done(message).extend({ item: InvoiceItemSchema, customerInvoice: InvoiceSchema });

const PdfRequestSchema = z
  .strictObject({
    downloadUrl: z.string().meta({ example: '/api/dashboard/customer-invoices/{id}/pdf' }),
    filename: z.string().meta({ example: 'INV-000123.pdf' }),
    invoiceNumber: z.string(),
    status: z.enum(['ready', 'pending']),
  })
  .meta({ id: 'InvoicePdfRequest' });

const EmailSentSchema = z
  .strictObject({
    success: z.literal(true),
    message: z.string(),
    to: z.string(),
    transport: z.enum(['smtp', 'local']),
    delivered: z
      .boolean()
      .meta({ description: 'False when the local transport recorded it (no SMTP configured).' }),
    deliveryId: z.guid().optional(),
    sentAt: z.iso.datetime().optional(),
    customerInvoice: InvoiceSchema.optional().meta({
      description: 'Absent if the invoice was deleted meanwhile.',
    }),
  })
  .meta({ id: 'InvoiceEmailSent' });

const EmailQueuedSchema = z
  .strictObject({
    success: z.literal(true),
    queued: z.literal(true),
    message: z.string().meta({ example: 'Invoice email to customer@example.com is queued' }),
    to: z.string(),
    transport: z.enum(['smtp', 'local']),
  })
  .meta({ id: 'InvoiceEmailQueued' });

const PaymentIntentSchema = z
  .strictObject({
    clientSecret: z.string(),
    originalAmount: MoneySchema,
    surchargeRate: z.string().meta({
      example: '1.7%',
      description:
        'The card surcharge rate this payment is charged at, stored with it: the rate in force when the amount was shown (a prepaid quote: when quoted; an invoice: when this intent was made).',
    }),
    surchargeAmount: MoneySchema,
    totalAmount: MoneySchema,
    message: z
      .string()
      .meta({ description: 'The card surcharge notice (and the test-mode label in test mode).' }),
    paymentIntentId: z.string(),
    currency: z.literal('AUD'),
    mode: z.enum(['live', 'test']),
    testMode: z.boolean(),
  })
  .meta({ id: 'PaymentIntent' });

const PaymentConfigSchema = z
  .strictObject({
    mode: z.enum(['live', 'test']),
    testMode: z.boolean(),
    surchargeRate: z.string().meta({
      example: '0.017',
      description:
        'The card surcharge rate in force now (booking’s price list) as a decimal fraction ("0.017" = 1.70%), the shape old clients read. A payment is charged at the rate its intent states (surchargeRate there).',
    }),
    surchargeRatePercent: z.string().meta({
      example: '1.70',
      description: 'The same rate as a percentage with two places, as the price list stores it.',
    }),
    surchargeRateLabel: z.string().meta({
      example: '1.7%',
      description: 'The same rate as the business writes it, for printing ("1.7%", "1.5%", "2%").',
    }),
    message: z.string().optional().meta({ description: 'Test mode only.' }),
    confirmUrl: z
      .literal('/api/payments/test-mode/confirm')
      .optional()
      .meta({ description: 'Test mode only.' }),
  })
  .meta({ id: 'PaymentConfig' });

const testConfirmation = {
  paymentIntentId: z.string(),
  mode: z.literal('test'),
  testMode: z.literal(true),
  message: z.string(),
};
const TestConfirmedSchema = z
  .strictObject({ ...testConfirmation, status: z.literal('succeeded') })
  .meta({ id: 'TestPaymentConfirmed' });
const TestDeclinedSchema = z
  .strictObject({
    ...testConfirmation,
    status: z.literal('failed'),
    code: z.string().meta({ example: 'card_declined' }),
    declineCode: z.string().optional(),
  })
  .meta({ id: 'TestPaymentDeclined' });

const WebhookReceivedSchema = z
  .strictObject({
    received: z.literal(true),
    duplicate: z
      .boolean()
      .meta({ description: 'The event id was seen before: acknowledged without a second effect.' }),
    outcome: z.enum([
      'duplicate',
      'ignored',
      'succeeded',
      'failed',
      'canceled',
      'refund',
      'invoice-paid',
      'invoice-already-paid',
    ]),
  })
  .meta({ id: 'StripeWebhookReceived' });

// ---------------------------------------------------------------------------- paying an invoice online (issue 18)

const payTokenPath = z.object({
  token: z.string().meta({ description: 'The pay link’s token (from the invoice email or PDF)' }),
});

const PayInvoiceLineSchema = z.strictObject({
  description: z.string(),
  quantity: z.number().int(),
  unitPrice: MoneySchema,
  totalPrice: MoneySchema,
  gstFree: z.boolean(),
});

const PayInvoiceSchema = z
  .strictObject({
    invoiceNumber: z.string().meta({ example: 'INV-2026-000123' }),
    invoiceDate: z.string().meta({ example: '2026-11-25' }),
    dueDate: z.string().nullable(),
    customerFirstName: z.string().meta({ description: 'The only personal data the page shows.' }),
    status: z.enum(['unpaid', 'overdue', 'paid', 'cancelled']),
    amountType: z.enum(['inclusive', 'exclusive']),
    lines: z.array(PayInvoiceLineSchema),
    subtotalAmount: MoneySchema,
    gstAmount: MoneySchema,
    totalAmount: MoneySchema,
    surchargeRate: z.string().meta({
      example: '1.7%',
      description: 'The card surcharge rate in force now (booking price list); empty once paid or cancelled.',
    }),
    surchargeAmount: MoneySchema.meta({
      description:
        'What paying by card adds, GST included (the rate in force, half-up, kernel rule); 0.00 once paid or cancelled.',
    }),
    surchargeGstAmount: MoneySchema.meta({
      description: 'The GST in surchargeAmount (the surcharge is taxable).',
    }),
    amountToPay: MoneySchema.meta({
      description: 'totalAmount + surchargeAmount; 0.00 once paid or cancelled.',
    }),
    paidAt: z.string().nullable(),
    currency: z.literal('AUD'),
  })
  .meta({ id: 'PayInvoice' });

const InvoicePaymentIntentSchema = PaymentIntentSchema.extend({
  invoiceNumber: z.string(),
}).meta({ id: 'InvoicePaymentIntent' });

const CI = '/api/dashboard/customer-invoices';
const SURCHARGE_RATE_UNAVAILABLE = surchargeRateUnavailable().message;

export const billingPaths: RoutePaths = {
  // --- customer invoices ------------------------------------------------------------------------------------------
  [CI]: {
    get: {
      operationId: 'listCustomerInvoices',
      tags: ['customer invoices'],
      summary: 'Customer invoices (admin)',
      description:
        'Newest first, without items. `search` matches the invoice number, job number or customer name. X-Total-Count is every match.',
      security: STAFF,
      requestParams: { query: listInvoicesQuery },
      responses: {
        '200': {
          ...json('A page of invoices', z.array(InvoiceSummarySchema)),
          headers: {
            'X-Total-Count': { description: 'Invoices matching, all pages', schema: { type: 'integer' } },
          },
        },
        ...errors({ 400: [M.invalidStatus, 'Invalid job id'], ...ADMIN_ONLY }),
      },
    },
    post: {
      operationId: 'createCustomerInvoice',
      tags: ['customer invoices'],
      summary: 'Create an invoice (the new invoice page; its lines follow one call each)',
      description:
        'Tax inclusive unless amountType says exclusive. Before the job is completed it may have one active invoice; after, more (extra work). A technician makes drafts of their own jobs only.',
      security: STAFF,
      requestParams: { header: idempotencyHeader },
      requestBody: jsonBody(createInvoiceSchema),
      responses: {
        '201': json('The invoice', invoiceAnswer('Invoice created successfully')),
        ...errors({
          400: [M.selectJob, ...INVOICE_FIELD_MESSAGES, IDEMPOTENCY_KEY],
          ...NOT_SIGNED_IN,
          403: 'Only an admin can set the status of an invoice',
          404: JOB_NOT_FOUND,
          409: [ALREADY_INVOICED, IDEMPOTENCY_REUSED],
        }),
      },
    },
  },
  [`${CI}/email-log`]: {
    get: {
      operationId: 'listInvoiceEmails',
      tags: ['customer invoices'],
      summary: 'The latest invoice emails of all invoices (admin)',
      security: STAFF,
      requestParams: {
        query: z.object({
          limit: z.string().optional().meta({ description: '1 to 200, default 50; anything else is 50.' }),
        }),
      },
      responses: {
        '200': json('Newest first', z.array(EmailDeliverySchema)),
        ...errors(ADMIN_ONLY),
      },
    },
  },
  [`${CI}/generate/{jobId}`]: {
    post: {
      operationId: 'generateCustomerInvoice',
      tags: ['customer invoices'],
      summary: "Generate the job's invoice from its booking (tax inclusive, draft, due in 30 days)",
      security: STAFF,
      requestParams: { path: jobPath, header: idempotencyHeader },
      responses: {
        '201': json('The invoice', invoiceAnswer('Invoice INV-000123 generated successfully')),
        ...errors({
          400: [AMOUNT_TOO_LARGE, IDEMPOTENCY_KEY],
          ...NOT_SIGNED_IN,
          404: JOB_NOT_FOUND,
          409: [ALREADY_INVOICED, 'A cancelled job cannot be invoiced', IDEMPOTENCY_REUSED],
        }),
      },
    },
  },
  [`${CI}/job/{jobId}`]: {
    get: {
      operationId: 'listJobCustomerInvoices',
      tags: ['customer invoices'],
      summary: "A job's invoices with their items, newest first",
      security: STAFF,
      requestParams: { path: jobPath },
      responses: {
        '200': json('The invoices ([] when none)', z.array(InvoiceSchema)),
        ...errors({ ...NOT_SIGNED_IN, 404: JOB_NOT_FOUND }),
      },
    },
  },
  [`${CI}/{id}`]: {
    get: {
      operationId: 'getCustomerInvoice',
      tags: ['customer invoices'],
      summary: 'One invoice with its items',
      security: STAFF,
      requestParams: { path: invoicePath },
      responses: {
        '200': json('The invoice', InvoiceSchema),
        ...errors({ ...NOT_SIGNED_IN, 404: INVOICE_NOT_FOUND }),
      },
    },
    patch: {
      operationId: 'updateCustomerInvoice',
      tags: ['customer invoices'],
      summary: 'Edit an invoice, or set its status (admin)',
      description:
        'With line items the amounts are theirs (amounts sent are ignored); without, subtotalAmount (ex-GST) is taken and GST is 10% of it.',
      security: STAFF,
      requestParams: { path: invoicePath },
      requestBody: jsonBody(updateInvoiceSchema),
      responses: {
        '200': json('The invoice as it is now', invoiceAnswer('Invoice updated successfully')),
        ...errors({
          400: [...INVOICE_FIELD_MESSAGES, 'An invoice cannot be moved to another job'],
          ...ADMIN_ONLY,
          404: INVOICE_NOT_FOUND,
          409: 'Another active invoice exists for this job ({invoiceNumber})',
        }),
      },
    },
    delete: {
      operationId: 'deleteCustomerInvoice',
      tags: ['customer invoices'],
      summary: 'Delete an invoice (admin)',
      security: STAFF,
      requestParams: { path: invoicePath },
      responses: {
        '200': json('Deleted', done('Invoice deleted successfully')),
        ...errors({ ...ADMIN_ONLY, 404: INVOICE_NOT_FOUND }),
      },
    },
  },
  [`${CI}/{id}/items`]: {
    get: {
      operationId: 'listCustomerInvoiceItems',
      tags: ['customer invoices'],
      summary: "An invoice's line items",
      security: STAFF,
      requestParams: { path: invoicePath },
      responses: {
        '200': json('The items', z.array(InvoiceItemSchema)),
        ...errors({ ...NOT_SIGNED_IN, 404: INVOICE_NOT_FOUND }),
      },
    },
    post: {
      operationId: 'addCustomerInvoiceItem',
      tags: ['customer invoices'],
      summary: 'Add a line item (totals recomputed here; a technician only while the invoice is a draft)',
      security: STAFF,
      requestParams: { path: invoicePath },
      requestBody: jsonBody(createItemSchema),
      responses: {
        '201': json('The item and the invoice', itemAnswer('Line item added successfully')),
        ...errors({
          400: ITEM_MESSAGES,
          ...NOT_SIGNED_IN,
          403: ITEMS_NOT_EDITABLE,
          404: SAVE_INVOICE_FIRST,
        }),
      },
    },
  },
  [`${CI}/{id}/items/{itemId}`]: {
    patch: {
      operationId: 'updateCustomerInvoiceItem',
      tags: ['customer invoices'],
      summary: 'Change a line item',
      security: STAFF,
      requestParams: { path: itemPath },
      requestBody: jsonBody(updateItemSchema),
      responses: {
        '200': json('The item and the invoice', itemAnswer('Line item updated successfully')),
        ...errors({
          400: ITEM_MESSAGES,
          ...NOT_SIGNED_IN,
          403: ITEMS_NOT_EDITABLE,
          404: [INVOICE_NOT_FOUND, ITEM_NOT_FOUND],
        }),
      },
    },
    delete: {
      operationId: 'deleteCustomerInvoiceItem',
      tags: ['customer invoices'],
      summary: 'Delete a line item',
      security: STAFF,
      requestParams: { path: itemPath },
      responses: {
        '200': json(
          'The invoice',
          done('Line item deleted successfully').extend({ customerInvoice: InvoiceSchema }),
        ),
        ...errors({ ...NOT_SIGNED_IN, 403: ITEMS_NOT_EDITABLE, 404: [INVOICE_NOT_FOUND, ITEM_NOT_FOUND] }),
      },
    },
  },
  [`${CI}/{id}/pdf`]: {
    post: {
      operationId: 'requestCustomerInvoicePdf',
      tags: ['customer invoices'],
      summary: "Build the invoice's PDF (the pdf worker; waits a bounded time)",
      security: STAFF,
      requestParams: { path: invoicePath },
      responses: {
        '200': json('Built: download it at downloadUrl', PdfRequestSchema),
        '202': json('Still being built (status pending): ask again', PdfRequestSchema),
        ...errors({
          400: ADD_LINE_ITEM,
          ...NOT_SIGNED_IN,
          404: INVOICE_NOT_FOUND,
          503: QUEUE_UNAVAILABLE,
        }),
        '500': {
          description: 'Error: "Failed to generate the invoice PDF. Please try again."',
          content: { 'application/json': { schema: ErrorBodySchema } },
        },
      },
    },
    get: {
      operationId: 'downloadCustomerInvoicePdf',
      tags: ['customer invoices'],
      summary: "Download the PDF of the invoice's current version",
      security: STAFF,
      requestParams: { path: invoicePath },
      responses: {
        '200': {
          description: 'The PDF, as an attachment named after the invoice (INV-000123.pdf)',
          headers: {
            'Content-Disposition': {
              description: 'attachment; filename="INV-000123.pdf"',
              schema: { type: 'string' },
            },
          },
          content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
        },
        ...errors({
          ...NOT_SIGNED_IN,
          404: [
            INVOICE_NOT_FOUND,
            'No PDF has been generated for the current version of this invoice. Generate the PDF first.',
          ],
          503: QUEUE_UNAVAILABLE,
        }),
      },
    },
  },
  [`${CI}/{id}/email`]: {
    post: {
      operationId: 'emailCustomerInvoice',
      tags: ['customer invoices'],
      summary: 'Email the invoice PDF to the customer (or `to`)',
      description:
        'The same recipient, invoice version and Idempotency-Key send once. Without SMTP the local transport records the message (transport local, delivered false).',
      security: STAFF,
      requestParams: { path: invoicePath, header: idempotencyHeader },
      requestBody: { ...jsonBody(emailInvoiceSchema), required: false },
      responses: {
        '200': json('Sent (or recorded by the local transport); the invoice is now sent', EmailSentSchema),
        '202': json('Still queued', EmailQueuedSchema),
        ...errors({
          400: [ADD_LINE_ITEM, 'Valid email required'],
          ...NOT_SIGNED_IN,
          404: INVOICE_NOT_FOUND,
          409: CUSTOMER_ERASED_NO_EMAIL,
          502: 'Failed to send the invoice email: {reason}',
          503: QUEUE_UNAVAILABLE,
        }),
      },
    },
  },
  [`${CI}/{id}/emails`]: {
    get: {
      operationId: 'listCustomerInvoiceEmails',
      tags: ['customer invoices'],
      summary: "The invoice's email log",
      security: STAFF,
      requestParams: { path: invoicePath },
      responses: {
        '200': json('Newest first', z.array(EmailDeliverySchema)),
        ...errors({ ...NOT_SIGNED_IN, 404: INVOICE_NOT_FOUND }),
      },
    },
  },
  [`${CI}/{id}/emails/{deliveryId}/message`]: {
    get: {
      operationId: 'getRecordedInvoiceEmail',
      tags: ['customer invoices'],
      summary: 'The recorded message of a local-transport email (RFC 822, the PDF attached)',
      security: STAFF,
      requestParams: {
        path: z.object({
          id: uuidParam('The customer invoice id'),
          deliveryId: uuidParam('The email delivery id'),
        }),
      },
      responses: {
        '200': {
          description: 'The message as an .eml attachment',
          content: { 'message/rfc822': { schema: z.string() } },
        },
        ...errors({ ...NOT_SIGNED_IN, 404: [INVOICE_NOT_FOUND, 'Email not found'] }),
      },
    },
  },

  // --- purchase invoices ------------------------------------------------------------------------------------------
  '/api/dashboard/purchase-invoices': {
    post: {
      operationId: 'createPurchaseInvoice',
      tags: ['purchase invoices'],
      summary:
        "Add a supplier's invoice to a job (GST = total ÷ 11 unless gstFree; totalIncGst accepted for totalAmount)",
      security: STAFF,
      requestBody: jsonBody(createPurchaseSchema),
      responses: {
        '201': json(
          'The purchase invoice',
          done('Purchase invoice added successfully').extend({ purchaseInvoice: PurchaseInvoiceSchema }),
        ),
        ...errors({ 400: [M.jobRequired, ...PURCHASE_MESSAGES], ...NOT_SIGNED_IN, 404: JOB_NOT_FOUND }),
      },
    },
  },
  '/api/dashboard/purchase-invoices/job/{jobId}': {
    get: {
      operationId: 'listJobPurchaseInvoices',
      tags: ['purchase invoices'],
      summary: "A job's purchase invoices",
      security: STAFF,
      requestParams: { path: jobPath },
      responses: {
        '200': json('The purchase invoices', z.array(PurchaseInvoiceSchema)),
        ...errors({ ...NOT_SIGNED_IN, 404: JOB_NOT_FOUND }),
      },
    },
  },
  '/api/dashboard/purchase-invoices/{id}': {
    patch: {
      operationId: 'updatePurchaseInvoice',
      tags: ['purchase invoices'],
      summary: 'Change a purchase invoice (isPaid sets or clears paidAt)',
      security: STAFF,
      requestParams: { path: purchasePath },
      requestBody: jsonBody(updatePurchaseSchema),
      responses: {
        '200': json(
          'The purchase invoice as it is now',
          done('Purchase invoice updated successfully').extend({ purchaseInvoice: PurchaseInvoiceSchema }),
        ),
        ...errors({ 400: PURCHASE_MESSAGES, ...NOT_SIGNED_IN, 404: 'Purchase invoice not found' }),
      },
    },
    delete: {
      operationId: 'deletePurchaseInvoice',
      tags: ['purchase invoices'],
      summary: 'Delete a purchase invoice',
      security: STAFF,
      requestParams: { path: purchasePath },
      responses: {
        '200': json('Deleted', done('Purchase invoice deleted successfully')),
        ...errors({ ...NOT_SIGNED_IN, 404: 'Purchase invoice not found' }),
      },
    },
  },

  // --- business expenses (admin) ----------------------------------------------------------------------------------
  '/api/dashboard/business-expenses': {
    get: {
      operationId: 'listBusinessExpenses',
      tags: ['business expenses'],
      summary: 'Business expenses, newest expense date first (admin)',
      security: STAFF,
      requestParams: { query: listExpensesQuery },
      responses: {
        '200': json('The expenses', z.array(ExpenseSchema)),
        ...errors({ 400: M.invalidCategory, ...ADMIN_ONLY }),
      },
    },
    post: {
      operationId: 'createBusinessExpense',
      tags: ['business expenses'],
      summary: 'Add an expense (GST = amount ÷ 11 unless gstFree; totalIncGst accepted for amount)',
      security: STAFF,
      requestBody: jsonBody(createExpenseSchema),
      responses: {
        '201': json('The expense', done('Expense created successfully').extend({ expense: ExpenseSchema })),
        ...errors({ 400: EXPENSE_MESSAGES, ...ADMIN_ONLY }),
      },
    },
  },
  '/api/dashboard/business-expenses/{id}': {
    get: {
      operationId: 'getBusinessExpense',
      tags: ['business expenses'],
      summary: 'One expense (admin)',
      security: STAFF,
      requestParams: { path: expensePath },
      responses: {
        '200': json('The expense', ExpenseSchema),
        ...errors({ ...ADMIN_ONLY, 404: 'Expense not found' }),
      },
    },
    patch: {
      operationId: 'updateBusinessExpense',
      tags: ['business expenses'],
      summary: 'Change an expense (admin)',
      security: STAFF,
      requestParams: { path: expensePath },
      requestBody: jsonBody(updateExpenseSchema),
      responses: {
        '200': json(
          'The expense as it is now',
          done('Expense updated successfully').extend({ expense: ExpenseSchema }),
        ),
        ...errors({ 400: EXPENSE_MESSAGES, ...ADMIN_ONLY, 404: 'Expense not found' }),
      },
    },
    delete: {
      operationId: 'deleteBusinessExpense',
      tags: ['business expenses'],
      summary: 'Delete an expense (admin)',
      security: STAFF,
      requestParams: { path: expensePath },
      responses: {
        '200': json('Deleted', done('Expense deleted successfully')),
        ...errors({ ...ADMIN_ONLY, 404: 'Expense not found' }),
      },
    },
  },
  '/api/dashboard/business-expenses/{id}/mark-paid': {
    patch: {
      operationId: 'markBusinessExpensePaid',
      tags: ['business expenses'],
      summary: 'Mark an expense paid now (admin)',
      security: STAFF,
      requestParams: { path: expensePath },
      responses: {
        '200': json('The expense', done('Expense marked as paid').extend({ expense: ExpenseSchema })),
        ...errors({ ...ADMIN_ONLY, 404: 'Expense not found' }),
      },
    },
  },

  // --- refunds of cancelled prepaid bookings (issue 18) ------------------------------------------------------------
  '/api/dashboard/refunds': {
    get: {
      operationId: 'listRefunds',
      tags: ['refunds'],
      summary: 'Refunds of cancelled prepaid bookings, newest first (admin)',
      description:
        'One refund per cancellation, with its status; a failed one shows its last error and can be retried. X-Total-Count is every match.',
      security: STAFF,
      requestParams: { query: listRefundsQuery },
      responses: {
        '200': {
          ...json('A page of refunds', z.array(RefundSchema)),
          headers: {
            'X-Total-Count': { description: 'Refunds matching, all pages', schema: { type: 'integer' } },
          },
        },
        ...errors({ 400: M.invalidStatus, ...ADMIN_ONLY }),
      },
    },
  },
  '/api/dashboard/refunds/{id}/retry': {
    post: {
      operationId: 'retryRefund',
      tags: ['refunds'],
      summary: 'Request a failed refund from Stripe again (admin)',
      description:
        'The refund goes back to `requested` and the refund worker asks Stripe again (same idempotency key unless Stripe had reported the refund itself failed).',
      security: STAFF,
      requestParams: { path: refundPath },
      responses: {
        '202': json('Retry requested', done('Refund retry requested').extend({ refund: RefundSchema })),
        ...errors({ ...ADMIN_ONLY, 404: REFUND_NOT_FOUND, 409: REFUND_NOT_FAILED }),
      },
    },
  },

  // --- payments (public, behind the gateway's rate limits) --------------------------------------------------------
  '/api/create-payment-intent-token': {
    post: {
      operationId: 'createPaymentIntent',
      tags: ['payments'],
      summary: "A card payment for a booking token: the booking's price plus the 1.7% card surcharge",
      description: 'The same booking gets the same PaymentIntent while its amount is unchanged.',
      requestBody: jsonBody(paymentIntentSchema),
      responses: {
        '200': json(
          'The PaymentIntent to confirm with Stripe.js (or the test-mode page)',
          PaymentIntentSchema,
        ),
        ...errors({
          400: [M.bookingTokenRequired, 'Invalid booking token', 'This booking has no amount to pay online'],
          404: 'Booking not found or has expired',
          409: ['This booking has already been paid', 'This booking is not awaiting an online payment'],
          502: 'Unable to initialize payment. Please try again.',
        }),
      },
    },
  },
  '/api/pay/{token}': {
    get: {
      operationId: 'getPayInvoice',
      tags: ['payments'],
      summary:
        'The invoice of a "Pay now" link: lines, GST, total, the 1.7% card surcharge and the amount to pay',
      description:
        'Public (rate-limited by the gateway). Shows the customer’s first name only. A paid or cancelled invoice answers with its status (the page shows "already paid").',
      requestParams: { path: payTokenPath },
      responses: {
        '200': json('The invoice as the pay page shows it', PayInvoiceSchema),
        ...errors({ 404: PAY_MSG.linkNotFound, 503: SURCHARGE_RATE_UNAVAILABLE }),
      },
    },
  },
  '/api/pay/{token}/payment-intent': {
    post: {
      operationId: 'createInvoicePaymentIntent',
      tags: ['payments'],
      summary:
        'The card payment of an invoice: its total plus the card surcharge in force now, stored with the payment (one PaymentIntent per invoice and amount)',
      description:
        'Concurrent and repeated calls get the same PaymentIntent while the invoice’s amount is unchanged (Stripe idempotency key per invoice and amount, metadata invoiceId). Confirm it with Stripe.js, or with /api/payments/test-mode/confirm in test mode.',
      requestParams: { path: payTokenPath },
      responses: {
        '200': json('The PaymentIntent to confirm', InvoicePaymentIntentSchema),
        ...errors({
          404: PAY_MSG.linkNotFound,
          409: [PAY_MSG.alreadyPaid, PAY_MSG.cancelled, PAY_MSG.nothingToPay],
          502: PAY_MSG.setupFailed,
          503: SURCHARGE_RATE_UNAVAILABLE,
        }),
      },
    },
  },
  '/api/payments/config': {
    get: {
      operationId: 'getPaymentConfig',
      tags: ['payments'],
      summary: 'Live (Stripe.js) or the labelled test mode, and the card surcharge rate in force',
      responses: {
        '200': json('The checkout settings', PaymentConfigSchema),
        ...errors({ 503: SURCHARGE_RATE_UNAVAILABLE }),
      },
    },
  },
  '/api/payments/test-mode/confirm': {
    post: {
      operationId: 'confirmTestPayment',
      tags: ['payments'],
      summary: 'Test mode only: confirm a test PaymentIntent with a Stripe test card number',
      requestBody: jsonBody(testConfirmSchema),
      responses: {
        '200': json('Paid (or already paid)', TestConfirmedSchema),
        '402': json('The test card is one Stripe declines', TestDeclinedSchema),
        ...errors({
          400: ['Client secret is required', M.cardNumberRequired, TEST_CARDS_HELP],
          404: ['Test mode is not enabled: payments are confirmed by Stripe', 'Payment not found'],
          409: ['The payment could not be confirmed', PAY_MSG.alreadyPaid],
        }),
      },
    },
  },
  '/api/payments/webhook': {
    post: {
      operationId: 'stripeWebhook',
      tags: ['payments'],
      summary: 'Stripe webhook: PaymentIntent events, verified against the raw body',
      description:
        'The `Stripe-Signature` header signs the raw bytes with STRIPE_WEBHOOK_SECRET. A replayed event (same id) is acknowledged without a second effect.',
      requestParams: {
        header: z.object({
          'stripe-signature': z
            .string()
            .meta({ description: 'Stripe’s signature of the raw body (t=…,v1=…)' }),
        }),
      },
      requestBody: {
        required: true,
        description: 'The Stripe event exactly as Stripe sent it (read raw; any content type).',
        content: { 'application/json': { schema: z.looseObject({ id: z.string(), type: z.string() }) } },
      },
      responses: {
        '200': json('Received', WebhookReceivedSchema),
        ...errors({
          400: [
            'Missing Stripe-Signature header',
            'Stripe webhooks are not set up here: STRIPE_WEBHOOK_SECRET is not configured, so no signature can be verified',
            'Invalid Stripe signature',
            'Malformed Stripe event',
          ],
          503: 'The payment was recorded; a follow-up step failed and will be retried',
        }),
      },
    },
  },
};

export const billingOpenApi = (): OpenApiDocument =>
  serviceOpenApiDocument({
    service: 'billing',
    description:
      'Customer invoices (PDF, email), purchase invoices, business expenses and card payments (Stripe). Dashboard routes need the identity the gateway signs; a technician sees only the jobs assigned to them (anything else is 404). Money is a string with two decimals, dates YYYY-MM-DD (Perth), instants ISO-8601. Any route may also answer 503 while the database is unavailable, 400 `malformed_json` / `malformed_url`, 413 or 415 from the body parser.',
    paths: billingPaths,
  });

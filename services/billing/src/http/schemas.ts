import { z } from 'zod';
import { AMOUNT_TYPES } from '@tyres/kernel';
import { SAVE_INVOICE_FIRST } from '../app/customer-invoices';
import { ADD_LINE_ITEM } from '../app/invoice-documents';
import {
  CUSTOMER_INVOICE_STATUSES,
  EXPENSE_CATEGORIES,
  MAX_LINE_QUANTITY,
  STAFF_LINE_ITEM_CATEGORIES,
} from '../domain/constants';
import {
  flag,
  money,
  MESSAGES,
  optionalDate,
  optionalInstant,
  optionalMoney,
  optionalText,
  positiveQuantity,
  requiredDate,
  requiredText,
} from './fields';

/** Every message the spec names (sections 5 and 8), in one place. */
export const M = {
  selectJob: 'Please select a job for this invoice.',
  dueDateRequired: 'Due date is required',
  lineItemDescription: 'Please enter a description for the line item.',
  addLineItem: ADD_LINE_ITEM,
  saveInvoiceFirst: SAVE_INVOICE_FIRST,
  invoiceNumberRequired: 'Invoice number is required',
  supplierNameRequired: 'Supplier name is required',
  totalPositive: 'Total must be greater than $0',
  totalNumber: 'Total must be a valid number',
  categoryRequired: 'Category is required',
  expenseDateRequired: 'Expense date is required',
  descriptionRequired: 'Description is required',
  quantityPositive: 'Quantity must be a positive whole number',
  quantityTooLarge: `Quantity must be ${MAX_LINE_QUANTITY} or fewer`,
  unitPriceRequired: 'Unit price is required',
  unitPriceNonNegative: 'Unit price cannot be negative',
  amountNonNegative: 'Amount cannot be negative',
  invalidStatus: 'Invalid status',
  invalidCategory: 'Invalid category',
  invalidAmountType: "Amount type must be 'inclusive' or 'exclusive'",
  jobRequired: 'Job is required',
  bookingTokenRequired: 'Booking token is required',
  cardNumberRequired: 'Card number is required',
  ...MESSAGES,
} as const;

const status = z.enum(CUSTOMER_INVOICE_STATUSES, { error: M.invalidStatus });
const invoiceAmount = optionalMoney({ invalid: M.decimal, nonNegative: M.amountNonNegative });
/** Tax inclusive (line amounts include GST) or tax exclusive (GST added on top). */
const amountType = z.enum(AMOUNT_TYPES as ['inclusive', 'exclusive'], { error: M.invalidAmountType });
const gstFree = flag('gstFree must be true or false');
/** A field the forms send that the server computes itself; accepted and not read. */
const ignored = (why: string) =>
  z
    .any()
    .optional()
    .meta({ description: `Ignored: ${why}.` });

// --- customer invoices ---------------------------------------------------------------------------------------

export const createInvoiceSchema = z.object({
  jobId: z.string({ error: M.selectJob }).trim().min(1, M.selectJob),
  status: status.nullish().transform((v) => v ?? 'draft'),
  dueDate: requiredDate(M.dueDateRequired),
  invoiceDate: optionalDate(),
  /** A new invoice is tax inclusive unless the page says otherwise. */
  amountType: amountType.nullish().transform((v) => v ?? 'inclusive'),
  subtotalAmount: invoiceAmount,
  gstAmount: invoiceAmount,
  totalAmount: invoiceAmount,
});

export const updateInvoiceSchema = z.object({
  jobId: z.string().optional(),
  status: status.optional(),
  dueDate: requiredDate(M.dueDateRequired).optional(),
  invoiceDate: requiredDate('Invoice date is required').optional(),
  amountType: amountType.optional(),
  subtotalAmount: invoiceAmount,
  gstAmount: invoiceAmount,
  totalAmount: invoiceAmount,
});

/** Staff choose among the spec's categories; the card surcharge line is made by billing only. */
const category = z.enum(STAFF_LINE_ITEM_CATEGORIES, { error: M.invalidCategory });

export const createItemSchema = z.object({
  description: requiredText(M.lineItemDescription, 1000),
  category: category.nullish().transform((v) => v ?? 'labour'),
  quantity: positiveQuantity(M.quantityPositive, MAX_LINE_QUANTITY, M.quantityTooLarge),
  unitPrice: money({
    required: M.unitPriceRequired,
    invalid: M.decimal,
    nonNegative: M.unitPriceNonNegative,
  }),
  /** The line carries no GST. */
  gstFree: gstFree.optional().default(false),
  /** Ignored: the line total is computed on the server (quantity × unit price). */
  totalPrice: ignored('the line total is quantity × unit price, computed here'),
});

export const updateItemSchema = z.object({
  description: requiredText(M.lineItemDescription, 1000).optional(),
  category: category.optional(),
  quantity: positiveQuantity(M.quantityPositive, MAX_LINE_QUANTITY, M.quantityTooLarge).optional(),
  unitPrice: money({
    required: M.unitPriceRequired,
    invalid: M.decimal,
    nonNegative: M.unitPriceNonNegative,
  }).optional(),
  gstFree: gstFree.optional(),
  totalPrice: ignored('the line total is quantity × unit price, computed here'),
});

export const listInvoicesQuery = z.object({
  status: z
    .union([status, z.literal('all'), z.literal('')])
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
  search: z.string().max(200).optional(),
  jobId: z.string().uuid('Invalid job id').optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const emailInvoiceSchema = z
  .object({
    to: z
      .string()
      .trim()
      .email('Valid email required')
      .optional()
      .or(z.literal('').transform(() => undefined)),
  })
  .default({});

// --- purchase invoices ----------------------------------------------------------------------------------------

const total = () => money({ required: M.totalNumber, invalid: M.totalNumber, positive: M.totalPositive });
/** The dialog's field is totalIncGst; the API's totalAmount. Either is accepted. */
const withTotalAlias = (key: 'totalAmount' | 'amount') => (body: unknown) => {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if (b[key] === undefined && b.totalIncGst !== undefined) return { ...b, [key]: b.totalIncGst };
  }
  return body;
};

export const createPurchaseSchema = z.preprocess(
  withTotalAlias('totalAmount'),
  z.object({
    jobId: z.string({ error: M.jobRequired }).trim().min(1, M.jobRequired),
    invoiceNumber: requiredText(M.invoiceNumberRequired, 100),
    supplierName: requiredText(M.supplierNameRequired, 200),
    invoiceDate: optionalDate(),
    totalAmount: total(),
    /** Ignored: GST is total / 11 (none when GST-free), computed on the server. */
    gstAmount: ignored('GST is total ÷ 11 (none when GST-free), computed here'),
    gstFree: gstFree.optional().default(false),
    /** Ignored: always cost-of-goods-sold. */
    category: ignored('always cost-of-goods-sold'),
    dueDate: optionalDate(),
    isPaid: flag('isPaid must be true or false').optional().default(false),
    paidAt: optionalInstant(),
    notes: optionalText(5000).optional(),
  }),
);

export const updatePurchaseSchema = z.preprocess(
  withTotalAlias('totalAmount'),
  z.object({
    invoiceNumber: requiredText(M.invoiceNumberRequired, 100).optional(),
    supplierName: requiredText(M.supplierNameRequired, 200).optional(),
    invoiceDate: requiredDate('Invoice date is required').optional(),
    totalAmount: total().optional(),
    gstAmount: ignored('GST is the amount ÷ 11 (none when GST-free), computed here'),
    gstFree: gstFree.optional(),
    dueDate: optionalDate(),
    isPaid: flag('isPaid must be true or false').optional(),
    paidAt: optionalInstant(),
    notes: optionalText(5000).optional(),
  }),
);

// --- business expenses ----------------------------------------------------------------------------------------

const expenseCategory = z
  .any()
  .optional()
  .transform((value: unknown, ctx) => {
    if (value === undefined || value === null || value === '') {
      ctx.addIssue({ code: 'custom', message: M.categoryRequired });
      return z.NEVER;
    }
    const parsed = z.enum(EXPENSE_CATEGORIES).safeParse(value);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: M.invalidCategory });
      return z.NEVER;
    }
    return parsed.data;
  })
  .meta({ override: { type: 'string', enum: [...EXPENSE_CATEGORIES] } });

export const createExpenseSchema = z.preprocess(
  withTotalAlias('amount'),
  z.object({
    supplierName: requiredText(M.supplierNameRequired, 200),
    invoiceNumber: optionalText(100),
    description: requiredText(M.descriptionRequired, 1000),
    amount: total(),
    gstAmount: ignored('GST is the amount ÷ 11 (none when GST-free), computed here'),
    gstFree: gstFree.optional().default(false),
    category: expenseCategory,
    expenseDate: requiredDate(M.expenseDateRequired),
    dueDate: optionalDate().transform((v) => v ?? null),
    isPaid: flag('isPaid must be true or false').optional().default(false),
    notes: optionalText(5000),
  }),
);

export const updateExpenseSchema = z.preprocess(
  withTotalAlias('amount'),
  z.object({
    supplierName: requiredText(M.supplierNameRequired, 200).optional(),
    invoiceNumber: optionalText(100).optional(),
    description: requiredText(M.descriptionRequired, 1000).optional(),
    amount: total().optional(),
    gstAmount: ignored('GST is the amount ÷ 11 (none when GST-free), computed here'),
    gstFree: gstFree.optional(),
    category: expenseCategory.optional(),
    expenseDate: requiredDate(M.expenseDateRequired).optional(),
    dueDate: optionalDate(),
    isPaid: flag('isPaid must be true or false').optional(),
    notes: optionalText(5000).optional(),
  }),
);

export const listExpensesQuery = z.object({
  category: z
    .union([z.enum(EXPENSE_CATEGORIES, { error: M.invalidCategory }), z.literal('all'), z.literal('')])
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
  paid: z.enum(['true', 'false', 'paid', 'unpaid', 'all', '']).optional(),
  isPaid: z.enum(['true', 'false']).optional(),
});

// --- payments ---------------------------------------------------------------------------------------------------

export const paymentIntentSchema = z.object({
  bookingToken: z
    .string({ error: M.bookingTokenRequired })
    .trim()
    .min(1, M.bookingTokenRequired)
    .max(200, 'Invalid booking token'),
});

export const testConfirmSchema = z.object({
  clientSecret: z.string({ error: 'Client secret is required' }).min(1, 'Client secret is required').max(300),
  cardNumber: z.string({ error: M.cardNumberRequired }).trim().min(1, M.cardNumberRequired).max(30),
});

export const listRefundsQuery = z.object({
  status: z
    .enum(['requested', 'pending', 'succeeded', 'failed', 'all', ''], { error: M.invalidStatus })
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

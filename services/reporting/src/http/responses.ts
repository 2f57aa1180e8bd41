/**
 * The reports' answers as zod schemas (for the OpenAPI document and the contract check in the tests). The
 * serialisers are domain/reports.ts (payables, P&L) and the pre-rendered GST day blocks (db/day-summaries.ts).
 */
import { z } from 'zod';

/** Dollars as a decimal string with two places, e.g. "133.56" (negative for a refund or a loss). */
const Money = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ id: 'Money', description: 'Dollars as a decimal string with two places, e.g. "139.00".' });
const Percentage = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ description: 'Percent with two places, e.g. "42.50" ("0.00" when the whole is zero).' });
const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const PayableSource = z.enum(['purchase-invoice', 'business-expense']);

export const GstReportSchema = z
  .object({
    gstCollected: Money,
    gstPaid: Money,
    netGST: Money.meta({ description: 'Collected − paid: positive is owed to the ATO, negative a refund.' }),
    customerInvoices: z.array(
      z.object({
        invoiceNumber: z.string(),
        customerName: z.string(),
        subtotal: Money,
        gstAmount: Money,
        totalAmount: Money,
        issueDate: IsoDate,
        status: z.string(),
      }),
    ),
    purchaseInvoices: z.array(
      z.object({
        invoiceNumber: z.string().nullable(),
        supplierName: z.string(),
        subtotal: Money,
        gstAmount: Money,
        totalAmount: Money,
        invoiceDate: IsoDate,
        isPaid: z.boolean(),
        source: PayableSource,
      }),
    ),
  })
  .meta({ id: 'GstReport' });

const groupSums = {
  totalAmount: Money,
  paidAmount: Money,
  unpaidAmount: Money,
  invoiceCount: z.number().int(),
};

export const PayablesReportSchema = z
  .object({
    totalPurchases: Money,
    totalPaid: Money,
    totalPayables: Money,
    overduePurchases: Money,
    purchasesBySupplier: z.array(z.object({ supplierName: z.string(), ...groupSums })),
    purchasesByCategory: z.array(z.object({ category: z.string(), ...groupSums })),
    upcomingPayments: z.array(
      z.object({
        id: z.string(),
        supplierName: z.string(),
        invoiceNumber: z.string().nullable(),
        totalAmount: Money,
        dueDate: IsoDate,
        daysUntilDue: z.number().int().meta({ description: 'Negative when overdue.' }),
        source: PayableSource,
      }),
    ),
  })
  .meta({ id: 'PayablesReport' });

const CategoryShare = z.object({ category: z.string(), amount: Money, percentage: Percentage });

export const EnhancedPlSchema = z
  .object({
    revenue: z.object({ customerInvoices: Money, jobRevenue: Money, totalRevenue: Money }),
    expenses: z.object({ jobCosts: Money, businessExpenses: Money, totalExpenses: Money }),
    profit: z.object({
      grossProfit: Money,
      grossMargin: Percentage,
      netProfit: Money,
      netMargin: Percentage,
    }),
    breakdown: z.object({
      topRevenueStreams: z.array(CategoryShare),
      topExpenseCategories: z.array(CategoryShare),
    }),
  })
  .meta({ id: 'EnhancedPl' });

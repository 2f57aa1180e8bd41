import type {
  CustomerInvoiceIssuedV1Data,
  ExpenseRecordedV1Data,
  PurchaseInvoiceRecordedV1Data,
} from '@tyres/events';
import type {
  BusinessExpense,
  CustomerInvoice,
  CustomerInvoiceItem,
  JobSnapshot,
  PurchaseInvoice,
} from '../db/generated/client';
import type { CustomerInvoiceStatus, ExpenseCategory, LineItemCategory } from '../domain/constants';
import { fromDbDate, fromDbDateOrNull, perthDate } from '../domain/dates';
import { effectiveStatus } from '../domain/invoice-status';
import { moneyString } from '../domain/money';

export type InvoiceWithJobAndItems = CustomerInvoice & { job: JobSnapshot; items: CustomerInvoiceItem[] };

type InvoiceSnapshot = Omit<CustomerInvoiceIssuedV1Data, 'issuedAt'>;
type PurchaseSnapshot = Omit<PurchaseInvoiceRecordedV1Data, 'recordedAt'>;
type ExpenseSnapshot = Omit<ExpenseRecordedV1Data, 'recordedAt'>;

/** The whole invoice as it stands, for CustomerInvoiceIssued / CustomerInvoiceUpdated (reporting upserts it). */
export function invoiceSnapshot(invoice: InvoiceWithJobAndItems, now: Date = new Date()): InvoiceSnapshot {
  const dueDate = fromDbDateOrNull(invoice.dueDate);
  return {
    invoiceId: invoice.id,
    invoiceNumber: invoice.invoiceNumber,
    jobId: invoice.jobId,
    jobNumber: invoice.job.jobNumber,
    customerName: invoice.job.customerName,
    status: effectiveStatus(invoice.status as CustomerInvoiceStatus, dueDate, perthDate(now)),
    invoiceDate: fromDbDate(invoice.invoiceDate),
    dueDate,
    subtotalAmount: moneyString(invoice.subtotalAmount),
    gstAmount: moneyString(invoice.gstAmount),
    totalAmount: moneyString(invoice.totalAmount),
    items: [...invoice.items]
      .sort((a, b) => a.position - b.position)
      .map((item) => ({
        id: item.id,
        description: item.description,
        category: item.category as LineItemCategory,
        quantity: item.quantity,
        unitPrice: moneyString(item.unitPrice),
        totalPrice: moneyString(item.totalPrice),
      })),
    sentAt: invoice.sentAt?.toISOString() ?? null,
    paidAt: invoice.paidAt?.toISOString() ?? null,
    updatedAt: invoice.updatedAt.toISOString(),
  };
}

export function purchaseSnapshot(p: PurchaseInvoice): PurchaseSnapshot {
  return {
    purchaseInvoiceId: p.id,
    jobId: p.jobId,
    invoiceNumber: p.invoiceNumber,
    supplierName: p.supplierName,
    invoiceDate: fromDbDate(p.invoiceDate),
    dueDate: fromDbDateOrNull(p.dueDate),
    subtotal: moneyString(p.subtotal),
    gstAmount: moneyString(p.gstAmount),
    totalAmount: moneyString(p.totalAmount),
    category: p.category as ExpenseCategory,
    isPaid: p.isPaid,
    paidAt: p.paidAt?.toISOString() ?? null,
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function expenseSnapshot(e: BusinessExpense): ExpenseSnapshot {
  return {
    expenseId: e.id,
    expenseDate: fromDbDate(e.expenseDate),
    supplierName: e.supplierName,
    invoiceNumber: e.invoiceNumber,
    description: e.description,
    amount: moneyString(e.amount),
    gstAmount: moneyString(e.gstAmount),
    category: e.category as ExpenseCategory,
    dueDate: fromDbDateOrNull(e.dueDate),
    isPaid: e.isPaid,
    paidAt: e.paidAt?.toISOString() ?? null,
    updatedAt: e.updatedAt.toISOString(),
  };
}

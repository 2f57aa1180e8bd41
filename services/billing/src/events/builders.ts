import type {
  CustomerInvoiceIssuedV2Data,
  ExpenseRecordedV1Data,
  PurchaseInvoiceRecordedV1Data,
} from '@tyres/events';
import { dateFromDb, perthDate, type AmountType } from '@tyres/kernel';
import type { InvoiceWithJobAndItems } from '../db/customer-invoices';
import type { BusinessExpense, PurchaseInvoice } from '../db/generated/client';
import type { CustomerInvoiceStatus, ExpenseCategory, LineItemCategory } from '../domain/constants';
import { effectiveStatus } from '../domain/invoice-status';
import { moneyString } from '../domain/money';

type InvoiceSnapshot = Omit<CustomerInvoiceIssuedV2Data, 'issuedAt'>;
type PurchaseSnapshot = Omit<PurchaseInvoiceRecordedV1Data, 'recordedAt'>;
type ExpenseSnapshot = Omit<ExpenseRecordedV1Data, 'recordedAt'>;

/**
 * The whole invoice as it stands, for CustomerInvoiceIssued / CustomerInvoiceUpdated v2 (reporting upserts it):
 * its amount type, ex-GST subtotal, GST and total, GST-free lines, and the card payment that paid it at booking.
 */
export function invoiceSnapshot(invoice: InvoiceWithJobAndItems, now: Date = new Date()): InvoiceSnapshot {
  const dueDate = invoice.dueDate && dateFromDb(invoice.dueDate);
  return {
    invoiceId: invoice.id,
    invoiceNumber: invoice.invoiceNumber,
    jobId: invoice.jobId,
    jobNumber: invoice.job.jobNumber,
    customerName: invoice.job.customerName,
    status: effectiveStatus(invoice.status as CustomerInvoiceStatus, dueDate, perthDate(now)),
    amountType: invoice.amountType as AmountType,
    invoiceDate: dateFromDb(invoice.invoiceDate),
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
        gstFree: item.gstFree,
      })),
    paymentIntentId: invoice.paymentIntentId,
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
    invoiceDate: dateFromDb(p.invoiceDate),
    dueDate: p.dueDate && dateFromDb(p.dueDate),
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
    expenseDate: dateFromDb(e.expenseDate),
    supplierName: e.supplierName,
    invoiceNumber: e.invoiceNumber,
    description: e.description,
    amount: moneyString(e.amount),
    gstAmount: moneyString(e.gstAmount),
    category: e.category as ExpenseCategory,
    dueDate: e.dueDate && dateFromDb(e.dueDate),
    isPaid: e.isPaid,
    paidAt: e.paidAt?.toISOString() ?? null,
    updatedAt: e.updatedAt.toISOString(),
  };
}

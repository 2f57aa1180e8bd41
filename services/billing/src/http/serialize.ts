import type {
  BusinessExpense,
  CustomerInvoice,
  CustomerInvoiceItem,
  EmailDelivery,
  JobSnapshot,
  PurchaseInvoice,
} from '../db/generated/client';
import type { CustomerInvoiceStatus } from '../domain/constants';
import { dateFromDb, daysBetween } from '@tyres/kernel';
import type { IsoDate } from '../domain/dates';
import { effectiveStatus } from '../domain/invoice-status';
import { moneyString } from '../domain/money';

/** Shapes on the wire (spec section 3 "Shapes used by screens"): money as 2-decimal strings, dates YYYY-MM-DD. */

export function jobSummary(job: JobSnapshot) {
  return {
    id: job.jobId,
    jobNumber: job.jobNumber,
    status: job.status,
    serviceType: job.serviceType,
    scheduledDate: dateFromDb(job.scheduledDate),
    timeSlot: job.timeSlot,
    address: job.address,
    suburb: job.suburb,
    postcode: job.postcode,
    customerValue: moneyString(job.customerValue),
    assignedTechnicianId: job.assignedTechnicianId,
    customer: { name: job.customerName, email: job.customerEmail, phone: job.customerPhone },
    vehicle: {
      make: job.vehicleMake,
      model: job.vehicleModel,
      year: job.vehicleYear,
      color: job.vehicleColor,
      registration: job.vehicleRegistration,
    },
  };
}

export function itemDto(item: CustomerInvoiceItem) {
  return {
    id: item.id,
    customerInvoiceId: item.customerInvoiceId,
    description: item.description,
    category: item.category,
    quantity: item.quantity,
    unitPrice: moneyString(item.unitPrice),
    totalPrice: moneyString(item.totalPrice),
    gstFree: item.gstFree,
  };
}

export function invoiceDto(
  invoice: CustomerInvoice & { job: JobSnapshot; items?: CustomerInvoiceItem[] },
  today: IsoDate,
  options: { items?: boolean } = {},
) {
  const dueDate = invoice.dueDate && dateFromDb(invoice.dueDate);
  const status = effectiveStatus(invoice.status as CustomerInvoiceStatus, dueDate, today);
  return {
    id: invoice.id,
    jobId: invoice.jobId,
    invoiceNumber: invoice.invoiceNumber,
    status,
    isOverdue: status === 'overdue',
    daysUntilDue: dueDate ? daysBetween(today, dueDate) : null,
    invoiceDate: dateFromDb(invoice.invoiceDate),
    dueDate,
    subtotalAmount: moneyString(invoice.subtotalAmount),
    gstAmount: moneyString(invoice.gstAmount),
    totalAmount: moneyString(invoice.totalAmount),
    amountType: invoice.amountType,
    paymentIntentId: invoice.paymentIntentId,
    pdfPath: invoice.pdfPath,
    sentAt: invoice.sentAt?.toISOString() ?? null,
    paidAt: invoice.paidAt?.toISOString() ?? null,
    createdAt: invoice.createdAt.toISOString(),
    updatedAt: invoice.updatedAt.toISOString(),
    jobNumber: invoice.job.jobNumber,
    customerName: invoice.job.customerName,
    job: jobSummary(invoice.job),
    ...(options.items ? { items: (invoice.items ?? []).map(itemDto) } : {}),
  };
}

export function purchaseDto(p: PurchaseInvoice) {
  return {
    id: p.id,
    jobId: p.jobId,
    invoiceNumber: p.invoiceNumber,
    supplierName: p.supplierName,
    invoiceDate: dateFromDb(p.invoiceDate),
    totalAmount: moneyString(p.totalAmount),
    gstAmount: moneyString(p.gstAmount),
    subtotal: moneyString(p.subtotal),
    gstFree: p.gstFree,
    category: p.category,
    dueDate: p.dueDate && dateFromDb(p.dueDate),
    isPaid: p.isPaid,
    paidAt: p.paidAt?.toISOString() ?? null,
    notes: p.notes,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function expenseDto(e: BusinessExpense) {
  return {
    id: e.id,
    supplierName: e.supplierName,
    invoiceNumber: e.invoiceNumber,
    description: e.description,
    amount: moneyString(e.amount),
    gstAmount: moneyString(e.gstAmount),
    gstFree: e.gstFree,
    category: e.category,
    expenseDate: dateFromDb(e.expenseDate),
    dueDate: e.dueDate && dateFromDb(e.dueDate),
    isPaid: e.isPaid,
    paidAt: e.paidAt?.toISOString() ?? null,
    notes: e.notes,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export function emailDeliveryDto(d: EmailDelivery) {
  return {
    id: d.id,
    customerInvoiceId: d.customerInvoiceId,
    invoiceNumber: d.invoiceNumber,
    to: d.to,
    subject: d.subject,
    transport: d.transport,
    /** The local transport records the message instead of delivering it. */
    delivered: d.transport === 'smtp' && d.status === 'sent',
    status: d.status,
    messageId: d.messageId,
    error: d.error,
    attachments: d.attachments,
    createdAt: d.createdAt.toISOString(),
    sentAt: d.sentAt?.toISOString() ?? null,
  };
}

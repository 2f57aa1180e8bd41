import { randomUUID } from 'node:crypto';
import { Decimal } from '@prisma/client/runtime/client';
import type {
  BusinessExpense,
  CustomerInvoice,
  CustomerInvoiceItem,
  EmailDelivery,
  JobSnapshot,
  PurchaseInvoice,
} from '../db/generated/client';
import { billingOpenApi } from './openapi';
import {
  EmailDeliverySchema,
  emailDeliveryDto,
  ExpenseSchema,
  expenseDto,
  InvoiceSchema,
  InvoiceSummarySchema,
  invoiceDto,
  PurchaseInvoiceSchema,
  purchaseDto,
} from './serialize';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
const at = new Date('2026-11-24T02:30:00.000Z');

const job: JobSnapshot = {
  jobId: randomUUID(),
  jobNumber: 'JOB-000123',
  status: 'completed',
  serviceType: 'new-tyres',
  scheduledDate: day('2026-11-24'),
  timeSlot: '10-12 AM',
  address: '12 Example Street',
  suburb: 'Rockingham',
  postcode: '6168',
  tyreSize: '205/55R16',
  tyreQuantity: 4,
  tyreBrand: null,
  notes: null,
  customerValue: new Decimal('675.80'),
  paymentMethod: 'onsite',
  paymentStatus: 'pending',
  customerName: 'Alex Driver',
  customerEmail: 'alex@example.com',
  customerPhone: '0412345678',
  vehicleMake: 'Toyota',
  vehicleModel: 'Corolla',
  vehicleYear: 2018,
  vehicleColor: null,
  vehicleRegistration: '1ABC234',
  assignedTechnicianId: null,
  assignmentAt: null,
  statusAt: at,
  completedAt: at,
  deletedAt: null,
  cancellationEventId: null,
  editVersion: 0,
  quoteLines: null,
  bookedAt: at,
  updatedAt: at,
};

const invoiceRow: CustomerInvoice = {
  id: randomUUID(),
  jobId: job.jobId,
  invoiceNumber: 'INV-000123',
  invoiceDate: day('2026-11-24'),
  dueDate: null,
  subtotalAmount: new Decimal('614.36'),
  gstAmount: new Decimal('61.44'),
  totalAmount: new Decimal('675.8'),
  status: 'draft',
  amountType: 'inclusive',
  paymentIntentId: null,
  pdfPath: null,
  sentAt: null,
  paidAt: null,
  revision: 1,
  createdBy: null,
  createdAt: at,
  updatedAt: at,
};

const item: CustomerInvoiceItem = {
  id: randomUUID(),
  customerInvoiceId: invoiceRow.id,
  description: 'Card surcharge 1.7%',
  category: 'surcharge',
  gstFree: false,
  quantity: 1,
  unitPrice: new Decimal('11.49'),
  totalPrice: new Decimal('11.49'),
  position: 0,
  createdAt: at,
  updatedAt: at,
};

describe("the billing service's OpenAPI document", () => {
  const doc = billingOpenApi();
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, pathItem]) =>
    METHODS.flatMap((method) => {
      const op = (pathItem as Record<string, unknown>)[method] as
        | {
            operationId?: string;
            security?: unknown[];
            parameters?: { in: string; name: string }[];
            responses: Record<string, { content?: Record<string, unknown> }>;
          }
        | undefined;
      return op ? [{ path, method, op }] : [];
    }),
  );

  it('names every operation once, declares its path parameters, a success answer and, for staff routes, 401', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(operations.length);
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect({ where, params: declared.sort() }).toEqual({ where, params: inPath.sort() });
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect({ where, success: success.length > 0 }).toEqual({ where, success: true });
      if (op.security) expect({ where, has401: '401' in op.responses }).toEqual({ where, has401: true });
    }
  });

  it('documents the PDF download as application/pdf and the webhook’s stripe-signature header', () => {
    const pdf = doc.paths?.['/api/dashboard/customer-invoices/{id}/pdf']?.get?.responses?.['200'] as {
      content: Record<string, unknown>;
    };
    expect(Object.keys(pdf.content)).toEqual(['application/pdf']);
    const webhook = doc.paths?.['/api/payments/webhook']?.post as {
      parameters: { in: string; name: string }[];
    };
    expect(webhook.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'stripe-signature' }),
    );
  });
});

describe('the response schemas describe what the serialisers return', () => {
  const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

  it('customer invoices, with and without items (money as two-decimal strings)', () => {
    const full = invoiceDto({ ...invoiceRow, job, items: [item] }, '2026-11-24', { items: true });
    expect(InvoiceSchema.parse(wire(full)).totalAmount).toBe('675.80');
    const summary = invoiceDto({ ...invoiceRow, job }, '2026-11-24');
    expect(InvoiceSummarySchema.safeParse(wire(summary)).success).toBe(true);
    // A serialiser change that drops or renames a field fails here.
    expect(InvoiceSchema.safeParse(wire({ ...full, totalAmount: undefined })).success).toBe(false);
    expect(InvoiceSchema.safeParse(wire({ ...full, totalAmount: 675.8 })).success).toBe(false);
  });

  it('purchase invoices, business expenses and the email log', () => {
    const purchase: PurchaseInvoice = {
      id: randomUUID(),
      jobId: job.jobId,
      supplierName: 'Tyre Wholesale',
      invoiceNumber: 'TW-1',
      invoiceDate: day('2026-11-20'),
      totalAmount: new Decimal('440'),
      gstAmount: new Decimal('40'),
      gstFree: false,
      subtotal: new Decimal('400'),
      category: 'cost-of-goods-sold',
      dueDate: null,
      isPaid: true,
      paidAt: at,
      notes: null,
      createdBy: null,
      createdAt: at,
      updatedAt: at,
    };
    expect(PurchaseInvoiceSchema.safeParse(wire(purchaseDto(purchase))).success).toBe(true);
    const expense: BusinessExpense = {
      id: randomUUID(),
      expenseDate: day('2026-11-01'),
      supplierName: 'Fuel Co',
      invoiceNumber: null,
      description: 'Fuel',
      amount: new Decimal('110'),
      gstAmount: new Decimal('10'),
      gstFree: false,
      category: 'fuel',
      dueDate: day('2026-12-01'),
      isPaid: false,
      paidAt: null,
      notes: 'van',
      createdBy: null,
      createdAt: at,
      updatedAt: at,
    };
    expect(ExpenseSchema.safeParse(wire(expenseDto(expense))).success).toBe(true);
    const email: EmailDelivery = {
      id: randomUUID(),
      jobKey: 'email-1',
      customerInvoiceId: invoiceRow.id,
      invoiceNumber: 'INV-000123',
      to: 'alex@example.com',
      subject: 'Invoice INV-000123',
      transport: 'local',
      status: 'sent',
      messageId: null,
      error: null,
      rawMessage: 'raw',
      attachments: [{ filename: 'INV-000123.pdf', contentType: 'application/pdf', size: 1234 }],
      requestedBy: null,
      createdAt: at,
      sentAt: at,
    };
    expect(EmailDeliverySchema.safeParse(wire(emailDeliveryDto(email))).success).toBe(true);
  });
});

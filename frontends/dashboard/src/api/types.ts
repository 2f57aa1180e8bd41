/**
 * Shapes the dashboard reads (product spec section 3, "Shapes used by screens"), plus the few extra fields the
 * services answer that the screens use when present (all optional, so a leaner answer still renders).
 */
import type { AmountType } from '@tyres/kernel';
import type {
  CustomerInvoiceStatus,
  ExpenseCategory,
  InvoiceLineCategory,
  JobStatus,
  ScheduleStatus,
} from '../lib/constants';

export interface JobPhoto {
  id: string;
  type: string;
  originalName: string;
}

/** Job (dashboard). */
export interface Job {
  id: string;
  jobNumber: string;
  status: JobStatus;
  serviceType: string;
  tyreSize: string | null;
  tyreQuantity: number | null;
  address: string;
  suburb: string;
  postcode: string;
  scheduledDate: string;
  timeSlot: string;
  customerValue: string;
  assignedTechnicianId: string | null;
  createdAt: string;
  inProgressAt: string | null;
  completedAt: string | null;
  invoicedAt: string | null;
  paidAt: string | null;
  customer: { name: string; phone: string; email: string };
  vehicle: {
    make: string;
    model: string;
    year: number | string;
    registration: string;
    color?: string | null;
  };
  photos: JobPhoto[];
  // jobs-with-details and the job detail add these:
  scheduleStatus?: ScheduleStatus;
  assignedTechnician?: { id: string; username: string } | null;
  paymentMethod?: string;
  paymentStatus?: string;
  tyreBrand?: string | null;
  notes?: string | null;
  hasCustomerInvoice?: boolean;
}

export interface Technician {
  id: string;
  username: string;
  email?: string | null;
}

/** Purchase invoice (dashboard). */
export interface PurchaseInvoice {
  id: string;
  jobId: string;
  invoiceNumber: string;
  supplierName: string;
  invoiceDate: string;
  totalAmount: string;
  gstAmount: string;
  category: string;
  isPaid: boolean;
  paidAt: string | null;
  /** A GST-free purchase (gstAmount 0.00); absent in answers from before GST-free purchases existed. */
  gstFree?: boolean;
}

export interface CustomerInvoiceItem {
  id: string;
  description: string;
  /** 'surcharge' only on the card surcharge line billing adds to a prepaid booking's invoice. */
  category: InvoiceLineCategory;
  quantity: number;
  unitPrice: string;
  totalPrice: string;
  gstFree?: boolean;
}

/** Customer invoice (dashboard). */
export interface CustomerInvoice {
  id: string;
  jobId: string;
  invoiceNumber: string;
  status: CustomerInvoiceStatus;
  invoiceDate: string;
  dueDate: string | null;
  /** Tax inclusive (line amounts include GST) or exclusive (GST added); absent = from before amount types: exclusive. */
  amountType?: AmountType;
  /** The Stripe payment a prepaid booking's invoice was paid with. */
  paymentIntentId?: string | null;
  /** Ex-GST amount (total − GST), whatever the amount type. */
  subtotalAmount: string;
  gstAmount: string;
  /** What the customer pays. */
  totalAmount: string;
  job?: {
    id?: string;
    jobNumber: string;
    serviceType?: string;
    customer: { name: string; email?: string; phone?: string };
  } | null;
  items?: CustomerInvoiceItem[];
  jobNumber?: string;
  customerName?: string;
  daysUntilDue?: number | null;
  sentAt?: string | null;
  paidAt?: string | null;
}

/** Time slot as the time slot management tab reads it. */
export interface TimeSlot {
  id?: string;
  slot: string;
  isAvailable: boolean;
  blockedReason: string | null;
  isBlocked?: boolean;
  state?: string;
  booking?: { jobId: string; jobNumber: string; kind?: string } | null;
}

/** Business expense. */
export interface BusinessExpense {
  id: string;
  supplierName: string;
  invoiceNumber: string | null;
  description: string;
  amount: string;
  gstAmount: string;
  category: ExpenseCategory;
  expenseDate: string;
  dueDate: string | null;
  isPaid: boolean;
  paidAt?: string | null;
  notes: string | null;
  /** A GST-free expense (gstAmount 0.00). */
  gstFree?: boolean;
}

/** A staff account (GET /api/admin/users). */
export interface StaffUser {
  id: string;
  username: string;
  email: string | null;
  role: 'admin' | 'technician';
  isActive: boolean;
  createdAt?: string;
}

export interface GstReport {
  gstCollected: string;
  gstPaid: string;
  netGST: string;
  customerInvoices: {
    invoiceNumber: string;
    customerName: string;
    subtotal: string;
    gstAmount: string;
    totalAmount: string;
    issueDate: string;
    status: string;
  }[];
  purchaseInvoices: {
    invoiceNumber: string;
    supplierName: string;
    subtotal: string;
    gstAmount: string;
    totalAmount: string;
    invoiceDate: string;
    isPaid: boolean;
  }[];
}

export interface AmountBreakdown {
  totalAmount: string;
  paidAmount: string;
  unpaidAmount: string;
  invoiceCount: number;
}

export interface PayablesReport {
  totalPurchases: string;
  totalPaid: string;
  totalPayables: string;
  overduePurchases: string | number;
  purchasesBySupplier: (AmountBreakdown & { supplierName: string })[];
  purchasesByCategory: (AmountBreakdown & { category: string })[];
  upcomingPayments: {
    id: string;
    supplierName: string;
    invoiceNumber: string;
    totalAmount: string;
    dueDate: string;
    daysUntilDue: number;
  }[];
}

export interface BreakdownEntry {
  category: string;
  amount: string;
  percentage: string | number;
}

export interface EnhancedPlReport {
  revenue: { customerInvoices: string; jobRevenue: string; totalRevenue: string };
  expenses: { jobCosts: string; businessExpenses: string; totalExpenses: string };
  profit: {
    grossProfit: string;
    grossMargin: string | number;
    netProfit: string;
    netMargin: string | number;
  };
  breakdown: { topRevenueStreams: BreakdownEntry[]; topExpenseCategories: BreakdownEntry[] };
}

/** Notification (WebSocket message). */
export interface BookingNotification {
  type: 'new_booking' | 'job_assigned';
  data: {
    id: string;
    jobNumber: string;
    serviceType: string;
    suburb: string;
    timeSlot: string;
    createdAt: string;
    scheduledDate?: string;
  };
}

export interface AddressSuggestion {
  streetAddress: string;
  fullAddress: string;
  suburb: string;
  postcode: string;
}

/** A page of a paginated list: the items and the total the server counted (X-Total-Count). */
export type { Page } from '@tyres/platform';

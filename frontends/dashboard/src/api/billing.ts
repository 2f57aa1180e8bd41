import { useState } from 'react';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { ApiError, downloadFile } from '@tyres/platform';
import { billingApi } from './client';
import {
  CUSTOMER_INVOICE_STATUSES,
  EXPENSE_CATEGORIES,
  INVOICE_LIST_REFRESH_MS,
  type CustomerInvoiceStatus,
  type ExpenseCategory,
  type LineItemCategory,
} from '../lib/constants';
import { invalidateJobs } from './jobs';
import { keys } from './keys';
import { failureReported, failureToast } from './mutation-toasts';
import type { AmountType } from '@tyres/kernel';
import type { PurchaseInvoice } from './types';

/** Billing service calls (spec section 7: purchase invoices, customer invoices, expenses). */

// --- purchase invoices ---------------------------------------------------------------------------------------

export function usePurchaseInvoices(jobId: string | null | undefined) {
  return useQuery({
    queryKey: keys.purchaseInvoices(jobId ?? ''),
    queryFn: () =>
      billingApi.get('/api/dashboard/purchase-invoices/job/{jobId}', { params: { jobId: jobId ?? '' } }),
    enabled: Boolean(jobId),
  });
}

export interface PurchaseInvoiceInput {
  invoiceNumber: string;
  supplierName: string;
  invoiceDate: string;
  totalAmount: string;
  gstAmount: string;
  /** No GST in the total (gstAmount is then 0.00). */
  gstFree: boolean;
}

export function useSavePurchaseInvoice(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: string; values: PurchaseInvoiceInput; isPaid?: boolean }) =>
      input.id
        ? billingApi.patch('/api/dashboard/purchase-invoices/{id}', {
            params: { id: input.id },
            body: input.values,
          })
        : billingApi.post('/api/dashboard/purchase-invoices', {
            body: { jobId, ...input.values, category: 'cost-of-goods-sold', isPaid: input.isPaid ?? false },
          }),
    meta: failureToast<{ id?: string }>({
      errorTitle: (input) => (input.id ? 'Update Failed' : 'Add Failed'),
      errorFallback: (input) =>
        input.id ? 'Failed to update purchase invoice.' : 'Failed to add purchase invoice.',
    }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.purchaseInvoices(jobId) }),
  });
}

/** Clicking the paid badge: isPaid flips and paidAt becomes now or null. */
export function useTogglePurchasePaid(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoice: PurchaseInvoice) =>
      billingApi.patch('/api/dashboard/purchase-invoices/{id}', {
        params: { id: invoice.id },
        body: { isPaid: !invoice.isPaid, paidAt: invoice.isPaid ? null : new Date().toISOString() },
      }),
    meta: failureToast({ errorTitle: 'Update Failed', errorFallback: 'Failed to update payment status.' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.purchaseInvoices(jobId) }),
  });
}

export function useDeletePurchaseInvoice(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      billingApi.delete('/api/dashboard/purchase-invoices/{id}', { params: { id } }),
    meta: failureToast({ errorTitle: 'Delete Failed', errorFallback: 'Failed to delete purchase invoice.' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.purchaseInvoices(jobId) }),
  });
}

// --- customer invoices ---------------------------------------------------------------------------------------

export function invalidateInvoices(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.invoicesRoot }),
    queryClient.invalidateQueries({ queryKey: keys.jobInvoicesRoot }),
  ]).then(() => undefined);
}

/** The invoice list: server-side search, status filter and paging; refetched every 30 s. */
export function useInvoicesPage(params: { search: string; status: string; page: number; pageSize: number }) {
  return useQuery({
    queryKey: keys.invoicesList(params),
    queryFn: () =>
      billingApi.page('/api/dashboard/customer-invoices', {
        query: {
          search: params.search.trim() || undefined,
          status: CUSTOMER_INVOICE_STATUSES.find((status) => status === params.status),
          limit: params.pageSize,
          offset: (params.page - 1) * params.pageSize,
        },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: INVOICE_LIST_REFRESH_MS,
  });
}

export function useInvoice(id: string | null | undefined) {
  return useQuery({
    queryKey: keys.invoice(id ?? ''),
    queryFn: () => billingApi.get('/api/dashboard/customer-invoices/{id}', { params: { id: id ?? '' } }),
    enabled: Boolean(id),
  });
}

export function useJobInvoices(jobId: string | null | undefined, enabled = true) {
  return useQuery({
    queryKey: keys.jobInvoices(jobId ?? ''),
    queryFn: () =>
      billingApi.get('/api/dashboard/customer-invoices/job/{jobId}', { params: { jobId: jobId ?? '' } }),
    enabled: Boolean(jobId) && enabled,
  });
}

/**
 * POST .../generate/{jobId}: builds a tax inclusive invoice from the job (its total is the job's price). A job that
 * already has an invoice answers 409 "Job {jobNumber} already has invoice {invoiceNumber}".
 */
export function useGenerateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) =>
      billingApi.post('/api/dashboard/customer-invoices/generate/{jobId}', { params: { jobId } }),
    meta: failureToast({
      errorTitle: 'Invoice Generation Failed',
      errorFallback: 'Failed to generate invoice.',
      // Not a failure: the job is invoiced already (the screen shows that invoice).
      quietWhen: (error) => existingInvoiceMessage(error) !== undefined,
    }),
    onSettled: () => Promise.all([invalidateInvoices(queryClient), invalidateJobs(queryClient)]),
  });
}

/**
 * What staff set on an invoice. Its totals are not among them: billing computes subtotal, GST and total from the
 * lines and the amount type (switching the type keeps the line amounts as entered).
 */
export interface InvoiceFields {
  status: CustomerInvoiceStatus;
  /** Billing requires one (a blank is refused with "Due date is required"). */
  dueDate: string;
  amountType: AmountType;
}

export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InvoiceFields & { jobId: string }) =>
      billingApi.post('/api/dashboard/customer-invoices', { body: input }),
    meta: failureToast({ errorTitle: 'Creation Failed', errorFallback: 'Failed to create invoice.' }),
    onSettled: () => invalidateInvoices(queryClient),
  });
}

export function useUpdateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; fields: Partial<InvoiceFields> }) =>
      billingApi.patch('/api/dashboard/customer-invoices/{id}', {
        params: { id: input.id },
        body: input.fields,
      }),
    meta: failureToast({ errorTitle: 'Save Failed', errorFallback: 'Failed to save invoice.' }),
    onSettled: () => Promise.all([invalidateInvoices(queryClient), invalidateJobs(queryClient)]),
  });
}

export function useDeleteInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      billingApi.delete('/api/dashboard/customer-invoices/{id}', { params: { id } }),
    meta: failureToast({ errorTitle: 'Delete Failed', errorFallback: 'Failed to delete invoice.' }),
    onSettled: () => Promise.all([invalidateInvoices(queryClient), invalidateJobs(queryClient)]),
  });
}

export interface LineItemInput {
  description: string;
  /** Left out only for the card surcharge line, whose category staff cannot set. */
  category?: LineItemCategory;
  quantity: number;
  unitPrice: string;
  totalPrice: string;
  gstFree: boolean;
}

/** Line items live on the server only once the invoice exists: without an id this refuses. */
export function addInvoiceItem(invoiceId: string | null | undefined, item: LineItemInput) {
  if (!invoiceId) return Promise.reject(new Error('Invoice must be saved first'));
  return billingApi.post('/api/dashboard/customer-invoices/{id}/items', {
    params: { id: invoiceId },
    body: item,
  });
}

const addItemFailure = failureToast<LineItemInput>({
  errorTitle: 'Creation Failed',
  errorFallback: (item) => `Failed to create line item: ${item.description}`,
});

/**
 * Adds a line to an invoice created moments ago (the new invoice page), whose id the hook cannot know yet. Nothing
 * to refresh: the page leaves for the invoice list or editor, which load it afresh.
 */
export function useAddInvoiceItem() {
  return useMutation({
    mutationFn: (input: LineItemInput & { invoiceId: string }) => {
      const { invoiceId, ...item } = input;
      return addInvoiceItem(invoiceId, item);
    },
    meta: addItemFailure,
  });
}

export function useInvoiceItemMutations(invoiceId: string | null | undefined) {
  const queryClient = useQueryClient();
  const refresh = () => invalidateInvoices(queryClient);
  return {
    add: useMutation({
      mutationFn: (item: LineItemInput) => addInvoiceItem(invoiceId, item),
      meta: addItemFailure,
      onSettled: refresh,
    }),
    update: useMutation({
      mutationFn: (input: { itemId: string; item: Partial<LineItemInput> }) =>
        billingApi.patch('/api/dashboard/customer-invoices/{id}/items/{itemId}', {
          params: { id: invoiceId ?? '', itemId: input.itemId },
          body: input.item,
        }),
      meta: failureToast({ errorTitle: 'Update Failed', errorFallback: 'Failed to update line item.' }),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (itemId: string) =>
        billingApi.delete('/api/dashboard/customer-invoices/{id}/items/{itemId}', {
          params: { id: invoiceId ?? '', itemId },
        }),
      meta: failureToast({ errorTitle: 'Delete Failed', errorFallback: 'Failed to delete line item.' }),
      onSettled: refresh,
    }),
  };
}

/** POST .../{id}/pdf: billing renders the PDF and answers where to download it. */
export function requestInvoicePdf(id: string) {
  return billingApi.post('/api/dashboard/customer-invoices/{id}/pdf', { params: { id } });
}

/**
 * The PDF button: billing renders the invoice, then the browser downloads it. The two steps fail with their own
 * toasts; resolves to the file name once downloaded, undefined when a step failed (already toasted).
 */
export function useInvoicePdfDownload() {
  const render = useMutation({
    mutationFn: requestInvoicePdf,
    meta: failureToast({
      errorTitle: 'PDF Generation Failed',
      errorFallback: 'Failed to generate the invoice PDF.',
    }),
  });
  const download = useMutation({
    mutationFn: (pdf: { downloadUrl: string; filename: string }) =>
      downloadFile(pdf.downloadUrl, pdf.filename),
    meta: failureToast({
      errorTitle: 'Download Failed',
      errorFallback: 'Failed to download the invoice PDF.',
    }),
  });
  // One busy flag over both steps (no gap between them where the button would flicker).
  const [isPending, setPending] = useState(false);
  return {
    isPending,
    run: async (invoiceId: string): Promise<string | undefined> => {
      setPending(true);
      try {
        const pdf = await render.mutateAsync(invoiceId).catch(failureReported);
        if (!pdf) return undefined;
        const downloaded = await download.mutateAsync(pdf).then(() => true, failureReported);
        return downloaded ? pdf.filename : undefined;
      } finally {
        setPending(false);
      }
    },
  };
}

/** The invoice number in billing's 409 "Job {jobNumber} already has invoice {invoiceNumber}", else null. */
export function existingInvoiceNumber(message: string | null | undefined): string | null {
  return /already has invoice (\S+)/i.exec(message ?? '')?.[1] ?? null;
}

/** The server's message when generating answered 409 "Job … already has invoice …", else undefined. */
export function existingInvoiceMessage(error: unknown): string | undefined {
  const message = error instanceof ApiError && error.status === 409 ? error.serverMessage : undefined;
  return message && existingInvoiceNumber(message) ? message : undefined;
}

/** The invoice email action (billing: POST .../{id}/email). */
export function useEmailInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      billingApi.post('/api/dashboard/customer-invoices/{id}/email', { params: { id }, body: {} }),
    meta: failureToast({ errorTitle: 'Invoice Email Failed', errorFallback: 'Failed to email the invoice.' }),
    onSettled: () => invalidateInvoices(queryClient),
  });
}

// --- business expenses ---------------------------------------------------------------------------------------

export function useExpenses(params: { category: string; paid: string }) {
  return useQuery({
    queryKey: keys.expenses(params),
    queryFn: async () =>
      (
        await billingApi.page('/api/dashboard/business-expenses', {
          query: {
            category: EXPENSE_CATEGORIES.find((category) => category === params.category),
            paid: params.paid === 'paid' || params.paid === 'unpaid' ? params.paid : undefined,
          },
        })
      ).items,
    placeholderData: keepPreviousData,
  });
}

export interface ExpenseInput {
  supplierName: string;
  invoiceNumber: string | null;
  description: string;
  amount: string;
  gstAmount: string;
  category: ExpenseCategory;
  expenseDate: string;
  dueDate: string | null;
  isPaid: boolean;
  notes: string | null;
  /** No GST in the amount (gstAmount is then 0.00). */
  gstFree: boolean;
}

export function useExpenseMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.expensesRoot });
  return {
    save: useMutation({
      mutationFn: (input: { id?: string; values: ExpenseInput }) =>
        input.id
          ? billingApi.patch('/api/dashboard/business-expenses/{id}', {
              params: { id: input.id },
              body: input.values,
            })
          : billingApi.post('/api/dashboard/business-expenses', { body: input.values }),
      meta: failureToast<{ id?: string }>({
        errorTitle: 'Error',
        errorFallback: (input) => (input.id ? 'Failed to update expense' : 'Failed to create expense'),
      }),
      onSettled: refresh,
    }),
    markPaid: useMutation({
      mutationFn: (id: string) =>
        billingApi.patch('/api/dashboard/business-expenses/{id}/mark-paid', { params: { id } }),
      meta: failureToast({ errorTitle: 'Error', errorFallback: 'Failed to mark as paid' }),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        billingApi.delete('/api/dashboard/business-expenses/{id}', { params: { id } }),
      meta: failureToast({ errorTitle: 'Error', errorFallback: 'Failed to delete expense' }),
      onSettled: refresh,
    }),
  };
}

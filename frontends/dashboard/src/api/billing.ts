import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { apiJson } from '@tyres/platform';
import { INVOICE_LIST_REFRESH_MS } from '../lib/constants';
import { downloadFile, getPage, withQuery } from './http';
import { invalidateJobs } from './jobs';
import { keys } from './keys';
import type { AmountType } from '@tyres/kernel';
import type { BusinessExpense, CustomerInvoice, CustomerInvoiceItem, PurchaseInvoice } from './types';

/** Billing service calls (spec section 7: purchase invoices, customer invoices, expenses). */

// --- purchase invoices ---------------------------------------------------------------------------------------

export function usePurchaseInvoices(jobId: string | null | undefined) {
  return useQuery<PurchaseInvoice[]>({
    queryKey: keys.purchaseInvoices(jobId ?? ''),
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
        ? apiJson<PurchaseInvoice>('PATCH', `/api/dashboard/purchase-invoices/${input.id}`, input.values)
        : apiJson<PurchaseInvoice>('POST', '/api/dashboard/purchase-invoices', {
            jobId,
            ...input.values,
            category: 'cost-of-goods-sold',
            isPaid: input.isPaid ?? false,
          }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.purchaseInvoices(jobId) }),
  });
}

/** Clicking the paid badge: isPaid flips and paidAt becomes now or null. */
export function useTogglePurchasePaid(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoice: PurchaseInvoice) =>
      apiJson<PurchaseInvoice>('PATCH', `/api/dashboard/purchase-invoices/${invoice.id}`, {
        isPaid: !invoice.isPaid,
        paidAt: invoice.isPaid ? null : new Date().toISOString(),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.purchaseInvoices(jobId) }),
  });
}

export function useDeletePurchaseInvoice(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<unknown>('DELETE', `/api/dashboard/purchase-invoices/${id}`),
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
      getPage<CustomerInvoice>(
        withQuery('/api/dashboard/customer-invoices', {
          search: params.search.trim() || undefined,
          status: params.status !== 'all' ? params.status : undefined,
          limit: params.pageSize,
          offset: (params.page - 1) * params.pageSize,
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: INVOICE_LIST_REFRESH_MS,
  });
}

export function useInvoice(id: string | null | undefined) {
  return useQuery<CustomerInvoice>({ queryKey: keys.invoice(id ?? ''), enabled: Boolean(id) });
}

export function useJobInvoices(jobId: string | null | undefined, enabled = true) {
  return useQuery<CustomerInvoice[]>({
    queryKey: keys.jobInvoices(jobId ?? ''),
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
      apiJson<{ customerInvoice: CustomerInvoice; message?: string }>(
        'POST',
        `/api/dashboard/customer-invoices/generate/${jobId}`,
      ),
    onSettled: () => Promise.all([invalidateInvoices(queryClient), invalidateJobs(queryClient)]),
  });
}

/**
 * What staff set on an invoice. Its totals are not among them: billing computes subtotal, GST and total from the
 * lines and the amount type (switching the type keeps the line amounts as entered).
 */
export interface InvoiceFields {
  status: string;
  dueDate: string | null;
  amountType: AmountType;
}

export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InvoiceFields & { jobId: string }) =>
      apiJson<{
        success?: boolean;
        message?: string;
        customerInvoice: { id: string; invoiceNumber?: string };
      }>('POST', '/api/dashboard/customer-invoices', input),
    onSettled: () => invalidateInvoices(queryClient),
  });
}

export function useUpdateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; fields: Partial<InvoiceFields> }) =>
      apiJson<unknown>('PATCH', `/api/dashboard/customer-invoices/${input.id}`, input.fields),
    onSettled: () => Promise.all([invalidateInvoices(queryClient), invalidateJobs(queryClient)]),
  });
}

export function useDeleteInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<unknown>('DELETE', `/api/dashboard/customer-invoices/${id}`),
    onSettled: () => Promise.all([invalidateInvoices(queryClient), invalidateJobs(queryClient)]),
  });
}

export interface LineItemInput {
  description: string;
  category: string;
  quantity: number;
  unitPrice: string;
  totalPrice: string;
  gstFree: boolean;
}

/** Line items live on the server only once the invoice exists: without an id this refuses. */
export function addInvoiceItem(invoiceId: string | null | undefined, item: LineItemInput) {
  if (!invoiceId) return Promise.reject(new Error('Invoice must be saved first'));
  return apiJson<{ success?: boolean; item?: CustomerInvoiceItem }>(
    'POST',
    `/api/dashboard/customer-invoices/${invoiceId}/items`,
    item,
  );
}

export function useInvoiceItemMutations(invoiceId: string | null | undefined) {
  const queryClient = useQueryClient();
  const refresh = () => invalidateInvoices(queryClient);
  return {
    add: useMutation({
      mutationFn: (item: LineItemInput) => addInvoiceItem(invoiceId, item),
      onSettled: refresh,
    }),
    update: useMutation({
      mutationFn: (input: { itemId: string; item: Partial<LineItemInput> }) =>
        apiJson<unknown>(
          'PATCH',
          `/api/dashboard/customer-invoices/${invoiceId}/items/${input.itemId}`,
          input.item,
        ),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (itemId: string) =>
        apiJson<unknown>('DELETE', `/api/dashboard/customer-invoices/${invoiceId}/items/${itemId}`),
      onSettled: refresh,
    }),
  };
}

/** POST .../{id}/pdf, then the download itself. The two failures have their own toasts. */
export async function requestInvoicePdf(
  id: string,
): Promise<{ downloadUrl: string; filename: string; invoiceNumber: string }> {
  return apiJson('POST', `/api/dashboard/customer-invoices/${id}/pdf`);
}
export { downloadFile };

/** The invoice email action (billing: POST .../{id}/email). */
export function useEmailInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiJson<{ message?: string; to?: string }>('POST', `/api/dashboard/customer-invoices/${id}/email`, {}),
    onSettled: () => invalidateInvoices(queryClient),
  });
}

// --- business expenses ---------------------------------------------------------------------------------------

export function useExpenses(params: { category: string; paid: string }) {
  return useQuery({
    queryKey: keys.expenses(params),
    queryFn: async () =>
      (
        await getPage<BusinessExpense>(
          withQuery('/api/dashboard/business-expenses', {
            category: params.category !== 'all' ? params.category : undefined,
            paid: params.paid !== 'all' ? params.paid : undefined,
          }),
        )
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
  category: string;
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
          ? apiJson<BusinessExpense>('PATCH', `/api/dashboard/business-expenses/${input.id}`, input.values)
          : apiJson<BusinessExpense>('POST', '/api/dashboard/business-expenses', input.values),
      onSettled: refresh,
    }),
    markPaid: useMutation({
      mutationFn: (id: string) =>
        apiJson<BusinessExpense>('PATCH', `/api/dashboard/business-expenses/${id}/mark-paid`),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => apiJson<unknown>('DELETE', `/api/dashboard/business-expenses/${id}`),
      onSettled: refresh,
    }),
  };
}

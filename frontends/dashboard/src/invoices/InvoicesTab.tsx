import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import {
  invalidateInvoices,
  useDeleteInvoice,
  useEmailInvoice,
  useInvoicePdfDownload,
  useInvoicesPage,
} from '../api/billing';
import { failureReported } from '../api/mutation-toasts';
import { invalidateJobs } from '../api/jobs';
import type { CustomerInvoiceSummary } from '../api/types';
import { billingApi } from '../api/client';
import { ResponsiveList } from '../components/ResponsiveList';
import { InvoiceStatusTag } from '../components/StatusTag';
import { useNotify } from '../hooks/useNotify';
import { usePageParam, useUrlParam } from '../hooks/useUrlParam';
import { INVOICES_PAGE_SIZE, type CustomerInvoiceStatus } from '../lib/constants';
import { formatShortDate } from '../lib/dates';
import { AMOUNT_TYPE_LABEL } from '@tyres/kernel';
import { formatMoney } from '../lib/money';
import { dueBadge } from './due';
import { amountTypeOf } from './line-items';
import { RefundsPanel } from './RefundsPanel';
import { InvoiceEditDialog, STATUS_OPTIONS } from './InvoiceEditDialog';
import { SelectJobDialog } from './SelectJobDialog';

const STATUS_FILTER = [{ value: 'all', label: 'All statuses' }, ...STATUS_OPTIONS];
export const BULK_FAILURE = 'Failed to update selected invoices. Some may have been updated.';

/**
 * Sets one status on many invoices: one PATCH per invoice (spec section 4). Resolves to the ids that failed.
 */
export async function bulkSetStatus(
  ids: readonly string[],
  status: CustomerInvoiceStatus,
  patch: (id: string, body: { status: CustomerInvoiceStatus }) => Promise<unknown> = (id, body) =>
    billingApi.patch('/api/dashboard/customer-invoices/{id}', { params: { id }, body }),
): Promise<string[]> {
  const results = await Promise.allSettled(ids.map((id) => patch(id, { status })));
  return ids.filter((_, i) => results[i]!.status === 'rejected');
}

const customerOf = (i: CustomerInvoiceSummary) => i.job?.customer?.name ?? i.customerName ?? '—';
const jobNumberOf = (i: CustomerInvoiceSummary) => i.job?.jobNumber ?? i.jobNumber ?? '—';

function DueBadge({ invoice }: { invoice: CustomerInvoiceSummary }) {
  const badge = dueBadge(invoice);
  return (
    <div className="dash-cell-stack">
      <span>{formatShortDate(invoice.dueDate)}</span>
      {badge && (
        <Tag color={badge.color} className="dash-due-badge">
          {badge.text}
        </Tag>
      )}
    </div>
  );
}

/** The total with what it means: "Amounts include GST" or "GST added". */
function InvoiceTotal({ invoice }: { invoice: CustomerInvoiceSummary }) {
  return (
    <div className="dash-cell-stack dash-cell-stack--end">
      <span className="dash-money">{formatMoney(invoice.totalAmount)}</span>
      <span className="dash-muted dash-small dash-nowrap">{AMOUNT_TYPE_LABEL[amountTypeOf(invoice)]}</span>
    </div>
  );
}

function InvoiceActions({ invoice, onEdit }: { invoice: CustomerInvoiceSummary; onEdit: () => void }) {
  const notify = useNotify();
  const { modal } = App.useApp();
  const email = useEmailInvoice();
  const remove = useDeleteInvoice();
  const pdf = useInvoicePdfDownload();

  const onPdf = async () => {
    const filename = await pdf.run(invoice.id);
    if (filename) notify.success('PDF Downloaded', filename);
  };

  const onEmail = () =>
    email
      .mutateAsync(invoice.id)
      .then(
        (answer) =>
          notify.success(
            'Invoice Emailed',
            answer?.message ?? `Invoice ${invoice.invoiceNumber} has been emailed to the customer.`,
          ),
        failureReported,
      );

  const onDelete = () =>
    modal.confirm({
      title: `Delete invoice ${invoice.invoiceNumber}?`,
      content: `Are you sure you want to delete invoice ${invoice.invoiceNumber}? This action cannot be undone.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        remove
          .mutateAsync(invoice.id)
          .then(
            () => notify.success('Invoice Deleted', `Invoice ${invoice.invoiceNumber} has been deleted.`),
            failureReported,
          ),
    });

  return (
    <Space size={4} wrap>
      <Button size="small" onClick={onEdit} aria-label={`Edit invoice ${invoice.invoiceNumber}`}>
        Edit
      </Button>
      <Button
        size="small"
        loading={pdf.isPending}
        onClick={() => void onPdf()}
        aria-label={`Download PDF of invoice ${invoice.invoiceNumber}`}
      >
        PDF
      </Button>
      <Button
        size="small"
        loading={email.isPending}
        onClick={() => void onEmail()}
        aria-label={`Email invoice ${invoice.invoiceNumber}`}
      >
        Email
      </Button>
      <Button size="small" danger onClick={onDelete} aria-label={`Delete invoice ${invoice.invoiceNumber}`}>
        Delete
      </Button>
    </Space>
  );
}

/** Invoice management (admins): search, status filter, bulk status change, table/cards, edit, PDF, email. */
export function InvoicesTab() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [search, setSearch] = useUrlParam('q');
  const [searchInput, setSearchInput] = useState(search);
  const [status, setStatus] = useUrlParam('status', 'all');
  const [page, setPage] = usePageParam();
  const [editing, setEditing] = useUrlParam('invoice');
  const [selected, setSelected] = useState<string[]>([]);
  const [bulkStatus, setBulkStatus] = useState<CustomerInvoiceStatus | undefined>(undefined);
  const [bulkBusy, setBulkBusy] = useState(false);
  const [selectJob, setSelectJob] = useState(false);
  const query = useInvoicesPage({ search, status, page, pageSize: INVOICES_PAGE_SIZE });
  const invoices = query.data?.items ?? [];
  const total = query.data?.total ?? 0;

  // Search as you type, 300 ms after the last key.
  useEffect(() => {
    if (searchInput === search) return;
    const timer = setTimeout(() => setSearch(searchInput, { page: null }), 300);
    return () => clearTimeout(timer);
  }, [searchInput, search, setSearch]);

  // A selection only covers invoices on screen: pruned when a new page arrives (adjusted while rendering, as React
  // recommends for state that follows other data, rather than in an effect that would render twice).
  const [selectionPage, setSelectionPage] = useState(query.data);
  if (selectionPage !== query.data) {
    setSelectionPage(query.data);
    const ids = new Set(invoices.map((i) => i.id));
    const kept = selected.filter((id) => ids.has(id));
    if (kept.length !== selected.length) setSelected(kept);
  }

  const applyBulk = async () => {
    if (!bulkStatus || selected.length === 0) return;
    setBulkBusy(true);
    try {
      const failed = await bulkSetStatus(selected, bulkStatus);
      if (failed.length > 0) {
        notify.invalid('Bulk Update Failed', BULK_FAILURE);
        setSelected(failed);
      } else {
        notify.success(
          'Invoices Updated',
          `${selected.length} invoice${selected.length === 1 ? '' : 's'} set to ${bulkStatus}.`,
        );
        setSelected([]);
        setBulkStatus(undefined);
      }
    } finally {
      setBulkBusy(false);
      await Promise.all([invalidateInvoices(queryClient), invalidateJobs(queryClient)]);
    }
  };

  const columns: TableColumnsType<CustomerInvoiceSummary> = [
    {
      title: 'Invoice #',
      dataIndex: 'invoiceNumber',
      key: 'number',
      render: (v: string) => <strong className="dash-nowrap">{v}</strong>,
    },
    {
      title: 'Job #',
      key: 'job',
      render: (_: unknown, i) => <span className="dash-nowrap">{jobNumberOf(i)}</span>,
    },
    { title: 'Customer', key: 'customer', render: (_: unknown, i) => customerOf(i) },
    {
      title: 'Invoice Date',
      dataIndex: 'invoiceDate',
      key: 'date',
      render: (v: string) => formatShortDate(v),
    },
    { title: 'Due Date', key: 'due', render: (_: unknown, i) => <DueBadge invoice={i} /> },
    {
      title: 'Status',
      dataIndex: 'status',
      key: 'status',
      render: (v: string) => <InvoiceStatusTag status={v} />,
    },
    {
      title: 'Total',
      key: 'total',
      align: 'right',
      render: (_: unknown, i) => <InvoiceTotal invoice={i} />,
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_: unknown, i) => <InvoiceActions invoice={i} onEdit={() => setEditing(i.id)} />,
    },
  ];

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => (on ? [...s, id] : s.filter((x) => x !== id)));

  return (
    <>
      <section className="dash-panel" aria-labelledby="dash-invoices-title">
        <div className="dash-panel__bar">
          <h2 id="dash-invoices-title" className="dash-panel__title">
            Invoices
            {query.data && <span className="dash-panel__count"> ({total})</span>}
          </h2>
          <Button type="primary" onClick={() => setSelectJob(true)}>
            Create Invoice
          </Button>
        </div>
        <div className="dash-filters">
          <Input.Search
            aria-label="Search invoices"
            placeholder="Search invoice, job or customer"
            allowClear
            value={searchInput}
            onChange={(e) => setSearchInput(e.target.value)}
            onSearch={(v) => setSearch(v, { page: null })}
            className="dash-filter dash-filter--search"
          />
          <Select
            aria-label="Filter invoices by status"
            value={status}
            onChange={(v) => setStatus(v, { page: null })}
            options={STATUS_FILTER}
            className="dash-filter"
          />
        </div>

        {selected.length > 0 && (
          <div className="dash-bulk" role="region" aria-label="Bulk actions">
            <span>
              <strong>{selected.length}</strong> selected
            </span>
            <Select
              aria-label="New status for selected invoices"
              placeholder="Set status"
              value={bulkStatus}
              onChange={setBulkStatus}
              options={STATUS_OPTIONS}
              className="dash-filter"
            />
            <Button type="primary" disabled={!bulkStatus} loading={bulkBusy} onClick={() => void applyBulk()}>
              Apply
            </Button>
            <Button onClick={() => setSelected([])}>Clear</Button>
          </div>
        )}

        <ResponsiveList<CustomerInvoiceSummary>
          query={query}
          items={invoices}
          rowKey={(invoice) => invoice.id}
          errorTitle="Failed to fetch invoices"
          loadingText="Loading invoices..."
          emptyText="No invoices found"
          columns={columns}
          cardsHeader={
            <Checkbox
              className="dash-select-all"
              checked={selected.length === invoices.length}
              indeterminate={selected.length > 0 && selected.length < invoices.length}
              onChange={(e) => setSelected(e.target.checked ? invoices.map((i) => i.id) : [])}
            >
              Select all
            </Checkbox>
          }
          renderCard={(invoice) => (
            <li key={invoice.id}>
              <article className="dash-card" aria-labelledby={`inv-${invoice.id}`}>
                <header className="dash-card__head">
                  <Checkbox
                    checked={selected.includes(invoice.id)}
                    onChange={(e) => toggle(invoice.id, e.target.checked)}
                    aria-label={`Select invoice ${invoice.invoiceNumber}`}
                  />
                  <h3 id={`inv-${invoice.id}`} className="dash-card__title">
                    {invoice.invoiceNumber}
                  </h3>
                  <InvoiceStatusTag status={invoice.status} />
                </header>
                <dl className="dash-card__facts">
                  <div>
                    <dt>Customer</dt>
                    <dd>{customerOf(invoice)}</dd>
                  </div>
                  <div>
                    <dt>Job</dt>
                    <dd>{jobNumberOf(invoice)}</dd>
                  </div>
                  <div>
                    <dt>Due</dt>
                    <dd>
                      <DueBadge invoice={invoice} />
                    </dd>
                  </div>
                  <div>
                    <dt>Total</dt>
                    <dd>
                      <InvoiceTotal invoice={invoice} />
                    </dd>
                  </div>
                </dl>
                <InvoiceActions invoice={invoice} onEdit={() => setEditing(invoice.id)} />
              </article>
            </li>
          )}
          rowSelection={{ selectedRowKeys: selected, onChange: setSelected }}
          pagination={{ page, pageSize: INVOICES_PAGE_SIZE, total, onChange: setPage }}
        />
        <InvoiceEditDialog invoiceId={editing || null} onClose={() => setEditing(null)} />
        <SelectJobDialog open={selectJob} onClose={() => setSelectJob(false)} />
      </section>
      {/* After the invoices: the tab's main list is asked for first. */}
      <RefundsPanel enabled={!query.isPending} />
    </>
  );
}

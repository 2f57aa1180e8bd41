import { useState } from 'react';
import { App, Button, Space, Tag } from 'antd';
import { useDeletePurchaseInvoice, usePurchaseInvoices, useTogglePurchasePaid } from '../api/billing';
import { failureReported } from '../api/mutation-toasts';
import type { Job, PurchaseInvoice } from '../api/types';
import { QueryError } from '../components/QueryError';
import { useNotify } from '../hooks/useNotify';
import { formatShortDate } from '../lib/dates';
import { divideRounded, splitInclusive } from '@tyres/kernel';
import { cents, formatMoney, moneyString } from '../lib/money';
import { PurchaseInvoiceDialog } from './PurchaseInvoiceDialog';

/**
 * Profit of a job in ex-GST figures (issue 12): the job's value is GST-inclusive, so its GST (value ÷ 11) is taken
 * out; each purchase counts without the GST claimed back on it (total − GST, the whole total when GST-free). The
 * margin is the profit as a percentage of the ex-GST value, to one decimal.
 */
export function jobProfit(
  customerValue: string,
  purchases: readonly Pick<PurchaseInvoice, 'totalAmount' | 'gstAmount'>[],
) {
  const value = splitInclusive(cents(customerValue)).exGst;
  const costs = purchases.reduce((sum, p) => sum + cents(p.totalAmount) - cents(p.gstAmount), 0n);
  const profit = value - costs;
  const margin = value > 0n ? Number(divideRounded(profit * 1000n, value)) / 10 : null;
  return { value: moneyString(value), costs: moneyString(costs), profit: moneyString(profit), margin };
}

/** Purchase invoices of a job with the profit they leave (job detail). */
export function PurchaseInvoices({ job }: { job: Job }) {
  const query = usePurchaseInvoices(job.id);
  const notify = useNotify();
  const { modal } = App.useApp();
  const togglePaid = useTogglePurchasePaid(job.id);
  const remove = useDeletePurchaseInvoice(job.id);
  const [editing, setEditing] = useState<PurchaseInvoice | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const invoices = query.data ?? [];
  const { value, costs, profit, margin } = jobProfit(job.customerValue, invoices);

  const onToggle = (invoice: PurchaseInvoice) =>
    togglePaid
      .mutateAsync(invoice)
      .then(
        () =>
          notify.success(
            invoice.isPaid ? 'Marked as Unpaid' : 'Marked as Paid',
            `Purchase invoice ${invoice.invoiceNumber} is now ${invoice.isPaid ? 'unpaid' : 'paid'}.`,
          ),
        failureReported,
      );

  const onDelete = (invoice: PurchaseInvoice) =>
    modal.confirm({
      title: `Delete purchase invoice ${invoice.invoiceNumber}?`,
      content: 'This purchase invoice will be removed from the job. This action cannot be undone.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        remove
          .mutateAsync(invoice.id)
          .then(
            () =>
              notify.success(
                'Purchase Invoice Deleted',
                `Invoice ${invoice.invoiceNumber} has been deleted.`,
              ),
            failureReported,
          ),
    });

  return (
    <section className="dash-detail__section" aria-labelledby="jd-purchases">
      <div className="dash-detail__section-bar">
        <h3 id="jd-purchases" className="dash-detail__heading">
          Purchase Invoices
        </h3>
        <Button
          size="small"
          onClick={() => {
            setEditing(null);
            setDialogOpen(true);
          }}
        >
          Add Purchase Invoice
        </Button>
      </div>
      {query.isError ? (
        <QueryError
          title="Failed to load purchase invoices"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.isPending ? (
        <p className="dash-muted">Loading purchase invoices...</p>
      ) : invoices.length === 0 ? (
        <p className="dash-muted">No purchase invoices for this job yet.</p>
      ) : (
        <ul className="dash-purchases">
          {invoices.map((invoice) => (
            <li key={invoice.id} className="dash-purchase">
              <div className="dash-purchase__main">
                <strong>{invoice.invoiceNumber}</strong>
                <span className="dash-muted">
                  {invoice.supplierName} · {formatShortDate(invoice.invoiceDate)}
                </span>
              </div>
              <div className="dash-purchase__amount">
                <span className="dash-money">{formatMoney(invoice.totalAmount)}</span>
                <span className="dash-muted dash-small">
                  {invoice.gstFree ? 'GST-free' : `GST ${formatMoney(invoice.gstAmount)}`}
                </span>
              </div>
              <Space size={4} wrap>
                <Tag.CheckableTag
                  checked={invoice.isPaid}
                  onChange={() => void onToggle(invoice)}
                  className={`dash-paid-badge ${invoice.isPaid ? 'is-paid' : 'is-unpaid'}`}
                  aria-label={`Purchase invoice ${invoice.invoiceNumber} is ${invoice.isPaid ? 'paid' : 'unpaid'}. Toggle paid.`}
                >
                  {invoice.isPaid ? 'Paid' : 'Unpaid'}
                </Tag.CheckableTag>
                <Button
                  size="small"
                  type="link"
                  onClick={() => {
                    setEditing(invoice);
                    setDialogOpen(true);
                  }}
                  aria-label={`Edit purchase invoice ${invoice.invoiceNumber}`}
                >
                  Edit
                </Button>
                <Button
                  size="small"
                  type="link"
                  danger
                  onClick={() => onDelete(invoice)}
                  aria-label={`Delete purchase invoice ${invoice.invoiceNumber}`}
                >
                  Delete
                </Button>
              </Space>
            </li>
          ))}
        </ul>
      )}
      <dl className="dash-profit" aria-label="Profit (ex GST)">
        <div>
          <dt>Job value (ex GST)</dt>
          <dd>{formatMoney(value)}</dd>
        </div>
        <div>
          <dt>Purchases (ex GST)</dt>
          <dd>{formatMoney(costs)}</dd>
        </div>
        <div className={cents(profit) < 0n ? 'is-loss' : 'is-profit'}>
          <dt>Profit (ex GST)</dt>
          <dd>
            {formatMoney(profit)}
            {margin !== null && <span className="dash-small"> ({margin}%)</span>}
          </dd>
        </div>
      </dl>
      <PurchaseInvoiceDialog
        jobId={job.id}
        open={dialogOpen}
        invoice={editing}
        onClose={() => setDialogOpen(false)}
      />
    </section>
  );
}

import { useEffect, useRef } from 'react';
import { Alert, Button, Space } from 'antd';
import { AMOUNT_TYPE_LABEL } from '@tyres/kernel';
import { existingInvoiceNumber, useInvoicePdfDownload, useJobInvoices } from '../api/billing';
import type { CustomerInvoiceSummary, Job } from '../api/types';
import { InvoiceStatusTag } from '../components/StatusTag';
import { useDashboard, useDashboardNavigation } from '../context';
import { useNotify } from '../hooks/useNotify';
import { INVOICEABLE_STATUSES } from '../lib/constants';
import { formatShortDate } from '../lib/dates';
import { formatMoney } from '../lib/money';
import { amountTypeOf } from '../invoices/line-items';

/** What an invoice says about its GST: "Includes GST $11.80" or "GST $12.98". */
export function gstLine(invoice: Pick<CustomerInvoiceSummary, 'amountType' | 'gstAmount'>): string {
  return `${amountTypeOf(invoice) === 'inclusive' ? 'Includes GST' : 'GST'} ${formatMoney(invoice.gstAmount)}`;
}

function InvoiceRow({ invoice, highlighted }: { invoice: CustomerInvoiceSummary; highlighted: boolean }) {
  const { isAdmin } = useDashboard();
  const nav = useDashboardNavigation();
  const notify = useNotify();
  const pdf = useInvoicePdfDownload();
  const ref = useRef<HTMLLIElement>(null);

  // The invoice Generate pointed to: brought into view and focused, so it is what the staff member sees next.
  useEffect(() => {
    if (!highlighted) return;
    ref.current?.scrollIntoView?.({ block: 'nearest' });
    ref.current?.focus();
  }, [highlighted]);

  const onPdf = async () => {
    const filename = await pdf.run(invoice.id);
    if (filename) notify.success('PDF Downloaded', filename);
  };

  return (
    <li
      ref={ref}
      tabIndex={highlighted ? -1 : undefined}
      className={`dash-purchase dash-job-invoice${highlighted ? ' is-highlighted' : ''}`}
      aria-label={`Invoice ${invoice.invoiceNumber}`}
    >
      <div className="dash-purchase__main">
        <strong>{invoice.invoiceNumber}</strong>
        <span className="dash-muted">
          {formatShortDate(invoice.invoiceDate)} · {AMOUNT_TYPE_LABEL[amountTypeOf(invoice)]}
        </span>
      </div>
      <div className="dash-purchase__amount">
        <span className="dash-money">{formatMoney(invoice.totalAmount)}</span>
        <span className="dash-muted dash-small">{gstLine(invoice)}</span>
      </div>
      <Space size={4} wrap>
        <InvoiceStatusTag status={invoice.status} />
        <Button
          size="small"
          loading={pdf.isPending}
          onClick={() => void onPdf()}
          aria-label={`Download PDF of invoice ${invoice.invoiceNumber}`}
        >
          PDF
        </Button>
        {isAdmin && (
          <Button
            size="small"
            type="link"
            onClick={() => nav.homeWith({ tab: 'invoices', invoice: invoice.id })}
            aria-label={`Open invoice ${invoice.invoiceNumber}`}
          >
            Open
          </Button>
        )}
      </Space>
    </li>
  );
}

/**
 * The job's customer invoices (job detail): number, amount type, total and its GST, status, PDF; admins open one in
 * the invoice editor. `existing` is the invoice Generate refused to duplicate (billing's 409): it is pointed out.
 */
export function JobInvoices({ job, existing }: { job: Job; existing?: { message: string } | null }) {
  const query = useJobInvoices(job.id);
  const invoices = query.data ?? [];
  const wanted = existingInvoiceNumber(existing?.message);
  if (query.isPending) return null;
  // Nothing to show for a job that is not invoiceable and has no invoice (and no error worth a word there).
  if (invoices.length === 0 && !existing && !INVOICEABLE_STATUSES.includes(job.status)) return null;
  return (
    <section className="dash-detail__section" aria-labelledby="jd-invoices">
      <h3 id="jd-invoices" className="dash-detail__heading">
        Customer Invoices
      </h3>
      {existing && <Alert type="info" showIcon role="status" title={existing.message} />}
      {query.isError ? (
        <p className="dash-muted">
          Invoices could not be loaded.{' '}
          <Button size="small" type="link" onClick={() => void query.refetch()}>
            Retry
          </Button>
        </p>
      ) : invoices.length === 0 ? (
        <p className="dash-muted">No invoice for this job yet.</p>
      ) : (
        <ul className="dash-purchases">
          {invoices.map((invoice) => (
            <InvoiceRow
              key={invoice.id}
              invoice={invoice}
              highlighted={wanted !== null && invoice.invoiceNumber === wanted}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

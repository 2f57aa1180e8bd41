import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '@tyres/platform';
import { Alert, Button, Card, Form, Radio, Result, Select, Spin } from 'antd';
import type { AmountType } from '@tyres/kernel';
import { useAddInvoiceItem, useCreateInvoice, useJobInvoices } from '../api/billing';
import { failureReported } from '../api/mutation-toasts';
import { useJob } from '../api/jobs';
import type { Job } from '../api/types';
import { DateField } from '../components/DateField';
import { PageHeader } from '../components/PageHeader';
import { QueryError } from '../components/QueryError';
import { JobStatusTag } from '../components/StatusTag';
import { useDashboard, useDashboardNavigation } from '../context';
import { useNotify } from '../hooks/useNotify';
import { DEFAULT_INVOICE_STATUS, INVOICE_DUE_DAYS, type CustomerInvoiceStatus } from '../lib/constants';
import { addDaysToDate, formatDate, perthToday } from '../lib/dates';
import { serviceLabel, vehicleLine } from '../lib/format';
import { formatMoney } from '../lib/money';
import { STATUS_OPTIONS } from './InvoiceEditDialog';
import { InvoiceTotals } from './InvoiceTotals';
import {
  AMOUNT_TYPE_OPTIONS,
  DEFAULT_AMOUNT_TYPE,
  invoiceTotals,
  lineItemBody,
  lineItemProblem,
  serviceLine,
  type LineItemDraft,
} from './line-items';
import { LineItemsEditor } from './LineItemsEditor';

export const SELECT_JOB = 'Please select a job for this invoice.';
export const ADD_LINE_ITEM = 'Please add at least one line item to the invoice.';
export const DUE_DATE_REQUIRED = 'Due date is required';

function JobDetails({ job }: { job: Job }) {
  return (
    <Card title="Job Details" className="dash-form-card" extra={<JobStatusTag status={job.status} />}>
      <dl className="dash-facts dash-facts--two">
        <div>
          <dt>Job</dt>
          <dd>{job.jobNumber}</dd>
        </div>
        <div>
          <dt>Customer</dt>
          <dd>
            {job.customer?.name}
            <span className="dash-muted dash-block">{job.customer?.email}</span>
          </dd>
        </div>
        <div>
          <dt>Service</dt>
          <dd className="dash-capitalize">{serviceLabel(job.serviceType)}</dd>
        </div>
        <div>
          <dt>Vehicle</dt>
          <dd>
            {vehicleLine(job.vehicle)}{' '}
            {job.vehicle?.registration && <span className="dash-muted">({job.vehicle.registration})</span>}
          </dd>
        </div>
        <div>
          <dt>Date</dt>
          <dd>
            {formatDate(job.scheduledDate)}, {job.timeSlot}
          </dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>
            {job.address}, {job.suburb} {job.postcode}
          </dd>
        </div>
        <div>
          <dt>Job value</dt>
          <dd>
            <span className="dash-money">{formatMoney(job.customerValue)}</span>{' '}
            <span className="dash-muted">(inc. GST)</span>
          </dd>
        </div>
      </dl>
    </Card>
  );
}

/** New invoice page (/dashboard/invoices/new?jobId=): job details, invoice information, line items, totals. */
export function NewInvoicePage() {
  const [params] = useSearchParams();
  const jobId = params.get('jobId') ?? '';
  const { business, isAdmin } = useDashboard();
  const nav = useDashboardNavigation();
  const notify = useNotify();
  const job = useJob(jobId || null);
  const existing = useJobInvoices(jobId || null, job.isSuccess);
  const create = useCreateInvoice();
  const addItem = useAddInvoiceItem();
  const [items, setItems] = useState<LineItemDraft[]>([]);
  const [status, setStatus] = useState<CustomerInvoiceStatus>(DEFAULT_INVOICE_STATUS);
  const [amountType, setAmountType] = useState<AmountType>(DEFAULT_AMOUNT_TYPE);
  const [invoiceDate] = useState(() => perthToday());
  const [dueDate, setDueDate] = useState<string | null>(() => addDaysToDate(perthToday(), INVOICE_DUE_DAYS));
  const [dueError, setDueError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // What billing will compute from these lines (the same kernel code): it never takes totals from the client.
  const totals = invoiceTotals(items, amountType);

  const page = (content: ReactNode) => (
    <>
      <title>{`New Invoice | ${business.name}`}</title>
      <PageHeader title="New Invoice" backTab="invoices" />
      <main className="dash-container dash-container--narrow dash-body dash-form-page">{content}</main>
    </>
  );

  if (!jobId)
    return page(
      <Result
        status="info"
        title={<h2 className="dash-result-title">No Job Selected</h2>}
        subTitle="Choose a job to invoice from the Jobs tab or the Invoices tab."
        extra={
          <Button type="primary" onClick={() => nav.home('invoices')}>
            Go to Invoices
          </Button>
        }
      />,
    );
  if (job.isPending)
    return page(
      <div className="dash-center" role="status">
        <Spin />
        <p className="dash-center__text">Loading job...</p>
      </div>,
    );
  if (job.isError && job.error instanceof ApiError && job.error.status === 404)
    return page(
      <Result
        status="404"
        title={<h2 className="dash-result-title">Job Not Found</h2>}
        subTitle="This job does not exist or you do not have access to it."
        extra={
          <Button type="primary" onClick={() => nav.home('jobs')}>
            Back to Jobs
          </Button>
        }
      />,
    );
  if (job.isError)
    return page(
      <QueryError title="Failed to load job" error={job.error} onRetry={() => void job.refetch()} />,
    );
  const theJob = job.data;
  if (!theJob)
    return page(<Result status="404" title={<h2 className="dash-result-title">Job Not Found</h2>} />);

  const submit = async () => {
    if (!jobId) {
      notify.invalid('Invalid Data', SELECT_JOB);
      return;
    }
    if (!dueDate) {
      setDueError(DUE_DATE_REQUIRED);
      return;
    }
    if (items.length === 0) {
      notify.invalid('Validation Error', ADD_LINE_ITEM);
      return;
    }
    const problem = items.map(lineItemProblem).find(Boolean);
    if (problem) {
      notify.invalid('Validation Error', problem);
      return;
    }
    setSaving(true);
    try {
      const answer = await create.mutateAsync({ jobId, status, dueDate, amountType }).catch(failureReported);
      if (!answer) return;
      const { id: invoiceId, invoiceNumber } = answer.customerInvoice;
      const failed: string[] = [];
      for (const item of items) {
        const added = await addItem
          .mutateAsync({ invoiceId, ...lineItemBody(item) })
          .then(() => true, failureReported);
        if (!added) failed.push(item.description);
      }
      if (failed.length === 0)
        notify.success(
          'Invoice Created',
          `Invoice ${invoiceNumber ?? ''} has been created for job ${theJob.jobNumber}.`.replace('  ', ' '),
        );
      // Open the stored invoice: with a failed line the staff member can add it again there. Technicians have no
      // invoices tab: they go back to the job.
      if (!isAdmin) nav.homeWith({ tab: 'jobs', job: jobId });
      else if (failed.length) nav.homeWith({ tab: 'invoices', invoice: invoiceId });
      else nav.home('invoices');
    } finally {
      setSaving(false);
    }
  };

  const invoicesForJob = existing.data ?? [];
  return page(
    <div className="dash-form-stack">
      {invoicesForJob.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={`Job ${theJob.jobNumber} already has ${invoicesForJob.length === 1 ? 'an invoice' : 'invoices'}: ${invoicesForJob.map((i) => i.invoiceNumber).join(', ')}`}
          description="You can still create another invoice, for example for extra work."
        />
      )}
      <JobDetails job={theJob} />
      <Card title="Invoice Information" className="dash-form-card">
        <Form layout="vertical" component="div" className="dash-form-grid">
          <Form.Item label="Invoice Date">
            <span className="dash-readonly">{formatDate(invoiceDate)}</span>
          </Form.Item>
          <Form.Item
            label="Due Date"
            htmlFor="new-invoice-due"
            validateStatus={dueError ? 'error' : undefined}
            help={dueError ? <span id="new-invoice-due-error">{dueError}</span> : undefined}
          >
            <DateField
              id="new-invoice-due"
              value={dueDate}
              onChange={(v) => {
                setDueDate(v);
                setDueError(v ? null : DUE_DATE_REQUIRED);
              }}
              status={dueError ? 'error' : undefined}
              ariaDescribedBy={dueError ? 'new-invoice-due-error' : undefined}
            />
          </Form.Item>
          {isAdmin ? (
            <Form.Item label="Status" htmlFor="new-invoice-status">
              <Select id="new-invoice-status" value={status} onChange={setStatus} options={STATUS_OPTIONS} />
            </Form.Item>
          ) : (
            <Form.Item label="Status">
              <span className="dash-readonly">Draft</span>
            </Form.Item>
          )}
          <Form.Item label="Amounts" className="dash-form-grid__wide">
            <Radio.Group
              aria-label="Amounts"
              value={amountType}
              onChange={(e) => setAmountType(e.target.value as AmountType)}
              options={AMOUNT_TYPE_OPTIONS}
            />
          </Form.Item>
        </Form>
      </Card>
      <Card
        title="Line Items"
        className="dash-form-card"
        extra={
          <Button size="small" onClick={() => setItems((list) => [...list, serviceLine(theJob, amountType)])}>
            Add job service
          </Button>
        }
      >
        <LineItemsEditor
          items={items}
          onAdd={(item) => {
            setItems((list) => [...list, item]);
            return true;
          }}
          onUpdate={(item) => {
            setItems((list) => list.map((i) => (i.key === item.key ? item : i)));
            return true;
          }}
          onRemove={(item) => {
            setItems((list) => list.filter((i) => i.key !== item.key));
            return true;
          }}
          idPrefix="new-line"
        />
      </Card>
      <Card title="Totals" className="dash-form-card">
        <InvoiceTotals totals={totals} amountType={amountType} />
      </Card>
      <div className="dash-form-actions">
        <Button size="large" onClick={() => nav.home('invoices')}>
          Cancel
        </Button>
        <Button
          type="primary"
          size="large"
          disabled={items.length === 0 || saving}
          loading={saving}
          onClick={() => void submit()}
        >
          {saving ? 'Creating Invoice...' : 'Create Invoice'}
        </Button>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {items.length === 0 ? ADD_LINE_ITEM : ''}
      </p>
    </div>,
  );
}

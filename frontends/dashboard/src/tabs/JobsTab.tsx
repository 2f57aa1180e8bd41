import { useEffect } from 'react';
import { App, Button, Select, Space, type TableColumnsType } from 'antd';
import { useDeleteJob, useJobsPage } from '../api/jobs';
import { failureReported } from '../api/mutation-toasts';
import type { Job } from '../api/types';
import { ResponsiveList } from '../components/ResponsiveList';
import { JobStatusTag } from '../components/StatusTag';
import { useDashboard, useDashboardNavigation } from '../context';
import { useNotify } from '../hooks/useNotify';
import { usePageParam, useUrlParam } from '../hooks/useUrlParam';
import {
  ADDRESS_MAX_DESKTOP,
  ADDRESS_MAX_MOBILE,
  INVOICEABLE_STATUSES,
  JOB_STATUSES,
  JOBS_PAGE_SIZE,
} from '../lib/constants';
import { formatShortDate } from '../lib/dates';
import { serviceLabel, statusLabel, truncate } from '../lib/format';
import { formatMoney } from '../lib/money';

export const JOB_FILTER_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  ...JOB_STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
];

/** The confirmation text of a job delete (spec: delete job {number}, it cannot be undone). */
export function deleteJobMessage(jobNumber: string): string {
  return `Are you sure you want to delete job ${jobNumber}? This action cannot be undone.`;
}

interface JobActionHandlers {
  onView: (job: Job) => void;
  onInvoice: (job: Job) => void;
  /** Absent for technicians (the jobs service lets only admins delete). */
  onDelete?: (job: Job) => void;
  deleting?: string | null;
}

/**
 * View details, Create Invoice (completed, invoiced or paid only) and Delete (admins). Plain buttons with handlers
 * from the tab: no hooks per row, so a page of jobs renders and re-renders cheaply.
 */
function JobActions({ job, handlers }: { job: Job; handlers: JobActionHandlers }) {
  const canInvoice = INVOICEABLE_STATUSES.includes(job.status);
  return (
    <Space wrap size={4} className="dash-job-actions">
      <Button
        size="small"
        type="primary"
        ghost
        onClick={() => handlers.onView(job)}
        aria-label={`View details of job ${job.jobNumber}`}
      >
        View Details
      </Button>
      {canInvoice && (
        <Button
          size="small"
          onClick={() => handlers.onInvoice(job)}
          aria-label={`Create invoice for job ${job.jobNumber}`}
        >
          Create Invoice
        </Button>
      )}
      {handlers.onDelete && (
        <Button
          size="small"
          danger
          onClick={() => handlers.onDelete?.(job)}
          loading={handlers.deleting === job.id}
          aria-label={`Delete job ${job.jobNumber}`}
        >
          Delete
        </Button>
      )}
    </Space>
  );
}

function JobCard({ job, handlers }: { job: Job; handlers: JobActionHandlers }) {
  const titleId = `job-card-${job.id}`;
  return (
    <li>
      <article className="dash-card" aria-labelledby={titleId}>
        <header className="dash-card__head">
          <h3 id={titleId} className="dash-card__title">
            {job.jobNumber}
          </h3>
          <JobStatusTag status={job.status} />
        </header>
        <dl className="dash-card__facts">
          <div>
            <dt>Customer</dt>
            <dd>{job.customer?.name}</dd>
          </div>
          <div>
            <dt>Service</dt>
            <dd className="dash-capitalize">{serviceLabel(job.serviceType)}</dd>
          </div>
          <div>
            <dt>When</dt>
            <dd>
              {formatShortDate(job.scheduledDate)} · {job.timeSlot}
            </dd>
          </div>
          <div>
            <dt>Where</dt>
            <dd title={`${job.address}, ${job.suburb}`}>
              {truncate(job.address, ADDRESS_MAX_MOBILE)}
              <span className="dash-muted"> · {job.suburb}</span>
            </dd>
          </div>
          <div>
            <dt>Value</dt>
            <dd className="dash-money">{formatMoney(job.customerValue)}</dd>
          </div>
        </dl>
        <JobActions job={job} handlers={handlers} />
      </article>
    </li>
  );
}

/** Jobs tab (admin "Jobs", technician "My Jobs"): status filter, cards on phones, a table on desktop. */
export function JobsTab() {
  const { isAdmin } = useDashboard();
  const nav = useDashboardNavigation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const deleteJob = useDeleteJob();
  const [status, setStatus] = useUrlParam('status', 'all');
  const [page, setPage] = usePageParam();
  const [, setJob] = useUrlParam('job');
  const query = useJobsPage({ status, page, pageSize: JOBS_PAGE_SIZE });
  const jobs = query.data?.items ?? [];
  const total = query.data?.total ?? 0;
  const emptyText = isAdmin ? 'No jobs found' : 'No jobs assigned to you yet';

  // A page that emptied (e.g. its last job was deleted) steps back to the last page that has jobs.
  useEffect(() => {
    if (query.data && jobs.length === 0 && page > 1) setPage(Math.max(1, Math.ceil(total / JOBS_PAGE_SIZE)));
  }, [query.data, jobs.length, page, total, setPage]);

  const handlers: JobActionHandlers = {
    onView: (job) => setJob(job.id),
    onInvoice: (job) => nav.newInvoice(job.id),
    deleting: deleteJob.isPending ? (deleteJob.variables?.id ?? null) : null,
    onDelete: isAdmin
      ? (job) =>
          modal.confirm({
            title: `Delete job ${job.jobNumber}?`,
            content: deleteJobMessage(job.jobNumber),
            okText: 'Delete',
            okButtonProps: { danger: true },
            cancelText: 'Cancel',
            onOk: () =>
              deleteJob
                .mutateAsync(job)
                .then(
                  () => notify.success('Job Deleted', `Job ${job.jobNumber} has been deleted.`),
                  failureReported,
                ),
          })
      : undefined,
  };

  const columns: TableColumnsType<Job> = [
    {
      title: 'Job ID',
      dataIndex: 'jobNumber',
      key: 'jobNumber',
      width: 120,
      render: (v: string) => <strong className="dash-nowrap">{v}</strong>,
    },
    {
      title: 'Customer',
      key: 'customer',
      render: (_: unknown, job) => (
        <div className="dash-cell-stack">
          <span>{job.customer?.name}</span>
          <span className="dash-muted">{job.customer?.phone}</span>
        </div>
      ),
    },
    {
      title: 'Service',
      dataIndex: 'serviceType',
      key: 'service',
      render: (v: string) => <span className="dash-capitalize">{serviceLabel(v)}</span>,
    },
    {
      title: 'Date/Time',
      key: 'when',
      render: (_: unknown, job) => (
        <div className="dash-cell-stack">
          <span>{formatShortDate(job.scheduledDate)}</span>
          <span className="dash-muted">{job.timeSlot}</span>
        </div>
      ),
    },
    {
      title: 'Location',
      key: 'location',
      render: (_: unknown, job) => (
        <div className="dash-cell-stack" title={`${job.address}, ${job.suburb} ${job.postcode}`}>
          <span>{truncate(job.address, ADDRESS_MAX_DESKTOP)}</span>
          <span className="dash-muted">{job.suburb}</span>
        </div>
      ),
    },
    {
      title: 'Status',
      dataIndex: 'status',
      key: 'status',
      render: (v: string) => <JobStatusTag status={v} />,
    },
    {
      title: 'Value',
      dataIndex: 'customerValue',
      key: 'value',
      align: 'right',
      render: (v: string) => <span className="dash-money">{formatMoney(v)}</span>,
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_: unknown, job) => <JobActions job={job} handlers={handlers} />,
    },
  ];

  const title = isAdmin ? 'Jobs' : 'My Jobs';
  return (
    <section className="dash-panel" aria-labelledby="dash-jobs-title">
      <div className="dash-panel__bar">
        <h2 id="dash-jobs-title" className="dash-panel__title">
          {title}
          {query.data && <span className="dash-panel__count"> ({total})</span>}
        </h2>
        <Select
          aria-label="Filter jobs by status"
          value={status}
          onChange={(v) => setStatus(v, { page: null })}
          options={JOB_FILTER_OPTIONS}
          className="dash-filter"
        />
      </div>

      <ResponsiveList<Job>
        query={query}
        items={jobs}
        rowKey={(job) => job.id}
        errorTitle={isAdmin ? 'Failed to fetch jobs' : 'Failed to fetch assigned jobs'}
        loadingText="Loading jobs..."
        emptyText={emptyText}
        columns={columns}
        tableSize="middle"
        renderCard={(job) => <JobCard key={job.id} job={job} handlers={handlers} />}
        pagination={{
          page,
          pageSize: JOBS_PAGE_SIZE,
          total,
          onChange: setPage,
          showTotal: (t, range) => `${range[0]}-${range[1]} of ${t} jobs`,
        }}
      />
    </section>
  );
}

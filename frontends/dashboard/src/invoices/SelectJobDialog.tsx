import { useState } from 'react';
import { Button, Modal, Pagination, Select } from 'antd';
import { useJobsPage } from '../api/jobs';
import { EmptyState } from '../components/EmptyState';
import { QueryError } from '../components/QueryError';
import { JobStatusTag } from '../components/StatusTag';
import { useDashboardNavigation } from '../context';
import { formatShortDate } from '../lib/dates';
import { serviceLabel } from '../lib/format';
import { formatMoney } from '../lib/money';
import { JOB_FILTER_OPTIONS } from '../tabs/JobsTab';

const PAGE_SIZE = 10;

/** Pick the job a new invoice is for; choosing one opens /dashboard/invoices/new?jobId={jobId}. */
export function SelectJobDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const nav = useDashboardNavigation();
  const [status, setStatus] = useState('completed');
  const [page, setPage] = useState(1);
  const query = useJobsPage({ status, page, pageSize: PAGE_SIZE }, { enabled: open });
  const jobs = query.data?.items ?? [];
  return (
    <Modal
      open={open}
      title="Select a Job to Invoice"
      footer={null}
      onCancel={onClose}
      width={720}
      destroyOnHidden
    >
      <Select
        aria-label="Filter jobs by status"
        value={status}
        onChange={(v) => {
          setStatus(v);
          setPage(1);
        }}
        options={JOB_FILTER_OPTIONS}
        className="dash-filter"
      />
      {query.isError ? (
        <QueryError title="Failed to fetch jobs" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <p className="dash-loading" role="status">
          Loading jobs...
        </p>
      ) : jobs.length === 0 ? (
        <EmptyState text="No jobs found" />
      ) : (
        <ul className="dash-pick-list">
          {jobs.map((job) => (
            <li key={job.id} className="dash-pick">
              <div className="dash-pick__main">
                <strong>{job.jobNumber}</strong> <JobStatusTag status={job.status} />
                <span className="dash-muted dash-block">
                  {job.customer?.name} ·{' '}
                  <span className="dash-capitalize">{serviceLabel(job.serviceType)}</span> ·{' '}
                  {formatShortDate(job.scheduledDate)} · {formatMoney(job.customerValue)}
                </span>
              </div>
              <Button
                type="primary"
                onClick={() => nav.newInvoice(job.id)}
                aria-label={`Create invoice for job ${job.jobNumber}`}
              >
                Select
              </Button>
            </li>
          ))}
        </ul>
      )}
      {(query.data?.total ?? 0) > PAGE_SIZE && (
        <Pagination
          simple
          className="dash-pagination"
          current={page}
          pageSize={PAGE_SIZE}
          total={query.data?.total ?? 0}
          onChange={setPage}
        />
      )}
    </Modal>
  );
}

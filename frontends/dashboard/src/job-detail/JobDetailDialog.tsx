import type { ReactNode } from 'react';
import { useState } from 'react';
import { Alert, App, Button, Modal, Space, Spin } from 'antd';
import { isTimeSlot, slotStartsAt } from '@tyres/kernel';
import { errorMessage } from '@tyres/platform';
import { useMarkNoShow } from '../api/bookings-staff';
import { useDeleteJob, useJob } from '../api/jobs';
import { failureReported } from '../api/mutation-toasts';
import type { Job } from '../api/types';
import { JobStatusTag } from '../components/StatusTag';
import { useDashboard, useDashboardNavigation } from '../context';
import { useIsMobile } from '../hooks/useIsMobile';
import { useNotify } from '../hooks/useNotify';
import { INVOICEABLE_STATUSES } from '../lib/constants';
import { formatDate, formatTimestamp } from '../lib/dates';
import { dialable, serviceLabel, statusLabel, vehicleLine } from '../lib/format';
import { formatMoney } from '../lib/money';
import { deleteJobMessage } from '../tabs/JobsTab';
import { CancelJobDialog } from './CancelJobDialog';
import { CancellationRecord } from './CancellationRecord';
import { EditJobAction } from './EditJobDialog';
import { EraseCustomerAction, isErasedCustomer } from './EraseCustomerAction';
import { JobInvoices } from './JobInvoices';
import { JobHistory } from './JobHistory';
import { JobPhotos } from './JobPhotos';
import { NoShowDialog } from './NoShowDialog';
import { jobProgress } from './progress';
import { PurchaseInvoices } from './PurchaseInvoices';
import { RescheduleDialog } from './RescheduleDialog';
import { StatusActions } from './StatusActions';

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="dash-facts">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Progress({ job }: { job: Job }) {
  return (
    <section className="dash-detail__section" aria-labelledby="jd-progress">
      <h3 id="jd-progress" className="dash-detail__heading">
        Job Progress
      </h3>
      <ol className="dash-progress">
        {jobProgress(job).map((step) => (
          <li
            key={step.label}
            className={`dash-progress__step${step.done ? ' is-done' : ''}${step.current ? ' is-current' : ''}`}
          >
            <span className="dash-progress__marker" aria-hidden="true">
              {step.done ? '✓' : ''}
            </span>
            <span className="dash-progress__label">
              {step.label}
              <span className="visually-hidden">{step.done ? ' (done)' : ' (not yet)'}</span>
            </span>
            <span className="dash-progress__time">
              {step.at ? formatTimestamp(step.at) : step.done ? '' : 'Pending'}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Communication({ job }: { job: Job }) {
  if (isErasedCustomer(job))
    return (
      <section className="dash-detail__section" aria-labelledby="jd-contact">
        <h3 id="jd-contact" className="dash-detail__heading">
          Contact Customer
        </h3>
        <p className="dash-muted">
          The customer’s contact details were erased on request: there is no one to call, text or email.
        </p>
      </section>
    );
  const phone = job.customer?.phone ? dialable(job.customer.phone) : '';
  const email = job.customer?.email ?? '';
  const subject = encodeURIComponent(`Your booking ${job.jobNumber}`);
  return (
    <section className="dash-detail__section" aria-labelledby="jd-contact">
      <h3 id="jd-contact" className="dash-detail__heading">
        Contact Customer
      </h3>
      <div className="dash-contact">
        <Button
          href={phone ? `tel:${phone}` : undefined}
          disabled={!phone}
          aria-label={`Call ${job.customer?.name ?? 'customer'}`}
        >
          Call
        </Button>
        <Button
          href={phone ? `sms:${phone}` : undefined}
          disabled={!phone}
          aria-label={`Send SMS to ${job.customer?.name ?? 'customer'}`}
        >
          SMS
        </Button>
        <Button
          href={email ? `mailto:${email}?subject=${subject}` : undefined}
          disabled={!email}
          aria-label={`Email ${job.customer?.name ?? 'customer'}`}
        >
          Email
        </Button>
      </div>
    </section>
  );
}

/** The job's slot has started (Perth): only then can the customer have failed to show. Booking checks it again. */
function slotStarted(job: Job, now: Date): boolean {
  return isTimeSlot(job.timeSlot) && slotStartsAt(job.scheduledDate, job.timeSlot) <= now;
}

function OtherActions({
  job,
  onDeleted,
  clock = () => new Date(),
}: {
  job: Job;
  onDeleted: () => void;
  clock?: () => Date;
}) {
  const { isAdmin } = useDashboard();
  const nav = useDashboardNavigation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const deleteJob = useDeleteJob();
  const [rescheduleOpen, setRescheduleOpen] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);
  const [noShowOpen, setNoShowOpen] = useState(false);
  const markNoShow = useMarkNoShow();
  const canReschedule = isAdmin && (job.status === 'new' || job.status === 'in-progress');
  // Cancel under the policy (booking records it and frees the slot): work not finished yet, as a staff cancel.
  const canCancel = canReschedule;
  // Mark no-show (charged in full): the same live jobs, once the slot has started.
  const canMarkNoShow = canCancel && slotStarted(job, clock());
  const canInvoice = INVOICEABLE_STATUSES.includes(job.status);
  if (!canReschedule && !canInvoice && !isAdmin) return null;

  return (
    <section className="dash-detail__section" aria-labelledby="jd-other">
      <h3 id="jd-other" className="dash-detail__heading">
        Other Actions
      </h3>
      <Space wrap>
        <EditJobAction job={job} />
        {canReschedule && <Button onClick={() => setRescheduleOpen(true)}>Reschedule</Button>}
        {canInvoice && <Button onClick={() => nav.newInvoice(job.id)}>Create Invoice</Button>}
        {canCancel && (
          <Button danger onClick={() => setCancelOpen(true)}>
            Cancel Job
          </Button>
        )}
        {canMarkNoShow && (
          <Button danger onClick={() => setNoShowOpen(true)}>
            Mark No-Show
          </Button>
        )}
        {isAdmin && (
          <Button
            danger
            loading={deleteJob.isPending}
            onClick={() =>
              modal.confirm({
                title: `Delete job ${job.jobNumber}?`,
                content: deleteJobMessage(job.jobNumber),
                okText: 'Delete',
                okButtonProps: { danger: true },
                onOk: () =>
                  deleteJob.mutateAsync(job).then(() => {
                    notify.success('Job Deleted', `Job ${job.jobNumber} has been deleted.`);
                    onDeleted();
                  }, failureReported),
              })
            }
          >
            Delete Job
          </Button>
        )}
      </Space>
      {canReschedule && (
        <RescheduleDialog job={job} open={rescheduleOpen} onClose={() => setRescheduleOpen(false)} />
      )}
      {canCancel && cancelOpen && <CancelJobDialog job={job} open onClose={() => setCancelOpen(false)} />}
      {canMarkNoShow && noShowOpen && (
        <NoShowDialog
          job={job}
          open
          confirming={markNoShow.isPending}
          onClose={() => setNoShowOpen(false)}
          onConfirm={() =>
            markNoShow.mutateAsync({ jobId: job.id }).then(
              () => {
                notify.success('Marked No-Show', `Job ${job.jobNumber} was marked as a no-show.`);
                return true;
              },
              // The mutation's failure toast said why; the dialog stays open.
              () => false,
            )
          }
        />
      )}
    </section>
  );
}

function JobDetailBody({ job, onClose }: { job: Job; onClose: () => void }) {
  const { isAdmin } = useDashboard();
  // The invoice Generate found already made for this job (billing's 409), pointed out in Customer Invoices.
  const [existingInvoice, setExistingInvoice] = useState<{ message: string } | null>(null);
  const tyres = job.tyreSize ? `${job.tyreSize}${job.tyreQuantity ? ` × ${job.tyreQuantity}` : ''}` : null;
  return (
    <div className="dash-detail">
      <div className="dash-detail__primary">
        <section className="dash-detail__section dash-detail__status" aria-label="Status actions">
          <StatusActions job={job} onInvoiceExists={setExistingInvoice} />
        </section>
        <Communication job={job} />
        <section className="dash-detail__section" aria-labelledby="jd-customer">
          <h3 id="jd-customer" className="dash-detail__heading">
            Customer
          </h3>
          <Facts
            items={[
              ['Name', job.customer?.name],
              [
                'Phone',
                isErasedCustomer(job) ? (
                  'Erased'
                ) : job.customer?.phone ? (
                  <a href={`tel:${dialable(job.customer.phone)}`}>{job.customer.phone}</a>
                ) : null,
              ],
              [
                'Email',
                isErasedCustomer(job) ? (
                  'Erased'
                ) : job.customer?.email ? (
                  <a href={`mailto:${job.customer.email}`}>{job.customer.email}</a>
                ) : null,
              ],
            ]}
          />
        </section>
        <section className="dash-detail__section" aria-labelledby="jd-vehicle">
          <h3 id="jd-vehicle" className="dash-detail__heading">
            Vehicle
          </h3>
          <Facts
            items={[
              ['Vehicle', vehicleLine(job.vehicle)],
              ['Registration', job.vehicle?.registration],
            ]}
          />
        </section>
        <section className="dash-detail__section" aria-labelledby="jd-job">
          <h3 id="jd-job" className="dash-detail__heading">
            Job
          </h3>
          <Facts
            items={[
              ['Service', <span className="dash-capitalize">{serviceLabel(job.serviceType)}</span>],
              ...(tyres ? ([['Tyres', tyres]] as [string, ReactNode][]) : []),
              ...(job.tyreBrand ? ([['Brand', job.tyreBrand]] as [string, ReactNode][]) : []),
              ['Scheduled', `${formatDate(job.scheduledDate)}, ${job.timeSlot}`],
              ['Address', `${job.address}, ${job.suburb} ${job.postcode}`],
              [
                'Value',
                <>
                  <span className="dash-money">{formatMoney(job.customerValue)}</span>{' '}
                  <span className="dash-muted">(inc. GST)</span>
                </>,
              ],
              ...(job.paymentMethod
                ? ([
                    [
                      'Payment',
                      `${job.paymentMethod === 'prepaid' ? 'Prepaid Online' : 'Cash on Delivery'}${job.paymentStatus ? ` (${statusLabel(job.paymentStatus)})` : ''}`,
                    ],
                  ] as [string, ReactNode][])
                : []),
              ...(job.assignedTechnician !== undefined
                ? ([['Technician', job.assignedTechnician?.username ?? 'Unassigned']] as [
                    string,
                    ReactNode,
                  ][])
                : []),
              ...(job.notes ? ([['Notes', job.notes]] as [string, ReactNode][]) : []),
            ]}
          />
        </section>
      </div>
      <div className="dash-detail__secondary">
        <Progress job={job} />
        {isAdmin && job.status === 'cancelled' && <CancellationRecord job={job} />}
        <JobPhotos job={job} />
        <JobInvoices job={job} existing={existingInvoice} />
        <PurchaseInvoices job={job} />
        <JobHistory jobId={job.id} />
        <OtherActions job={job} onDeleted={onClose} />
        <EraseCustomerAction job={job} />
      </div>
    </div>
  );
}

/**
 * Job detail dialog (spec section 2). Opened from the jobs and schedule tabs with the job id in the URL
 * (?job=), so a reload or a shared link reopens it; a job the user may not see answers 404 and shows the error.
 */
export function JobDetailDialog({ jobId, onClose }: { jobId: string | null; onClose: () => void }) {
  const isMobile = useIsMobile();
  const query = useJob(jobId);
  const job = query.data;

  let body: ReactNode;
  if (!jobId) body = <Alert type="error" showIcon title="Error: No job ID provided" />;
  else if (query.isPending)
    body = (
      <div className="dash-center dash-center--small" role="status">
        <Spin />
        <p className="dash-center__text">Loading job details...</p>
      </div>
    );
  else if (query.isError)
    body = (
      <Alert
        type="error"
        showIcon
        role="alert"
        title="Error loading job details"
        description={errorMessage(
          query.error,
          query.error instanceof Error ? query.error.message : 'Please try again.',
        )}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            Retry
          </Button>
        }
      />
    );
  else if (!job) body = <Alert type="warning" showIcon title="No job data available" />;
  else body = <JobDetailBody job={job} onClose={onClose} />;

  return (
    <Modal
      open
      onCancel={onClose}
      footer={null}
      width={isMobile ? '100%' : 960}
      className={isMobile ? 'dash-modal--fullscreen' : undefined}
      title={
        <span className="dash-detail__title">
          {job ? `Job ${job.jobNumber}` : 'Job Details'}
          {job && <JobStatusTag status={job.status} />}
        </span>
      }
      destroyOnHidden
    >
      {body}
    </Modal>
  );
}

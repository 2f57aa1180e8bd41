import { useEffect, useState } from 'react';
import { Button, Select, type TableColumnsType } from 'antd';
import { useAssignJob, useJobCount, useJobsPage, useTechnicians } from '../api/jobs';
import { useTechnicianSuggestion } from '../api/schedule';
import { failureReported } from '../api/mutation-toasts';
import type { Job, Technician } from '../api/types';
import { ResponsiveList } from '../components/ResponsiveList';
import { ScheduleStatusTag } from '../components/StatusTag';
import { useDashboard } from '../context';
import { useIsMobile } from '../hooks/useIsMobile';
import {
  defaultView,
  ScheduleCalendar,
  ScheduleViewSwitch,
  viewsFor,
  type ScheduleView,
} from '../schedule/ScheduleViews';
import { technicianChoices } from '../schedule/model';
import { useNotify } from '../hooks/useNotify';
import { usePageParam, useUrlParam } from '../hooks/useUrlParam';
import { JOBS_PAGE_SIZE, SCHEDULE_FILTER_STATUSES } from '../lib/constants';
import { formatShortDate } from '../lib/dates';
import { serviceLabel, statusLabel } from '../lib/format';

export const SCHEDULE_FILTER_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  ...SCHEDULE_FILTER_STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
];

const UNASSIGNED = '';

/**
 * The schedule status of a job: the jobs service sends it with every job; derived the same way where only the
 * status and the assignment are known.
 */
export function scheduleStatusOf(
  job: Pick<Job, 'status' | 'assignedTechnicianId'> & Partial<Pick<Job, 'scheduleStatus'>>,
): string {
  if (job.scheduleStatus) return job.scheduleStatus;
  switch (job.status) {
    case 'new':
      return job.assignedTechnicianId ? 'confirmed' : 'pending';
    case 'in-progress':
      return 'in_progress';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'completed';
  }
}

function SummaryCard({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="dash-stat">
      <span className="dash-stat__label">{label}</span>
      <span className="dash-stat__value">{value ?? '–'}</span>
    </div>
  );
}

function TechnicianSelect({ job, technicians }: { job: Job; technicians: Technician[] }) {
  const notify = useNotify();
  const assign = useAssignJob();
  // Booking's suggestion for the job's slot, asked for when the selector is first opened (not for every row).
  const [wanted, setWanted] = useState(false);
  const suggestion = useTechnicianSuggestion(job.id, wanted && job.status !== 'cancelled');
  const current = job.assignedTechnicianId ?? UNASSIGNED;
  const options = technicianChoices(UNASSIGNED, technicians, suggestion.data);
  // A job may still be assigned to someone no longer active: keep them visible.
  if (current && !technicians.some((t) => t.id === current))
    options.push({ value: current, label: job.assignedTechnician?.username ?? 'Inactive technician' });

  const onChange = async (value: string) => {
    const technicianId = value === UNASSIGNED ? null : value;
    const name = technicians.find((t) => t.id === value)?.username ?? job.assignedTechnician?.username;
    await assign
      .mutateAsync({ jobId: job.id, technicianId })
      .then(
        () =>
          notify.success(
            'Assignment Updated',
            technicianId
              ? `Job ${job.jobNumber} assigned to ${name}.`
              : `Job ${job.jobNumber} is now unassigned.`,
          ),
        failureReported,
      );
  };

  return (
    <Select
      aria-label={`Technician for job ${job.jobNumber}`}
      value={current}
      onChange={(v: string) => void onChange(v)}
      options={options}
      onOpenChange={(open) => open && setWanted(true)}
      loading={assign.isPending || suggestion.isFetching}
      disabled={assign.isPending || job.status === 'cancelled'}
      className="dash-tech-select"
      popupMatchSelectWidth={false}
    />
  );
}

/**
 * Schedule (spec section 2): admins get "Job Schedule & Assignment" with summary cards and a technician selector
 * per job; technicians get "My Assigned Jobs". Filter in the schedule vocabulary. Issue 19 adds views: the list
 * (the spec's screen), a week and a day calendar for admins (drag or Move… to reschedule/reassign) and a
 * technician's Today (the default on a phone).
 */
export function ScheduleTab() {
  const { isAdmin, user } = useDashboard();
  const isMobile = useIsMobile();
  const [viewParam, setView] = useUrlParam('view', defaultView(isAdmin, isMobile));
  const view: ScheduleView = viewsFor(isAdmin).some((v) => v.value === viewParam)
    ? (viewParam as ScheduleView)
    : defaultView(isAdmin, isMobile);
  const [status, setStatus] = useUrlParam('status', 'all');
  const [page, setPage] = usePageParam();
  const [, setJob] = useUrlParam('job');
  const list = useJobsPage(
    { scheduleStatus: status, page, pageSize: JOBS_PAGE_SIZE },
    { enabled: view === 'list' },
  );
  const technicians = useTechnicians(isAdmin);
  const total = useJobCount({});
  const pending = useJobCount({ scheduleStatus: 'pending' });
  const confirmed = useJobCount({ scheduleStatus: 'confirmed' });
  const completed = useJobCount({ scheduleStatus: 'completed' });
  const jobs = list.data?.items ?? [];
  const count = list.data?.total ?? 0;
  const techList = technicians.data ?? [];

  useEffect(() => {
    if (list.data && jobs.length === 0 && page > 1) setPage(Math.max(1, Math.ceil(count / JOBS_PAGE_SIZE)));
  }, [list.data, jobs.length, page, count, setPage]);

  const sum = (a?: number, b?: number) => (a === undefined || b === undefined ? undefined : a + b);
  const emptyText = isAdmin ? 'No jobs found' : 'No jobs assigned to you yet';

  const columns: TableColumnsType<Job> = [
    {
      title: 'Job #',
      dataIndex: 'jobNumber',
      key: 'jobNumber',
      render: (v: string, job) => (
        <Button
          type="link"
          className="dash-link-button"
          onClick={() => setJob(job.id)}
          aria-label={`View details of job ${v}`}
        >
          {v}
        </Button>
      ),
    },
    {
      title: 'Service',
      dataIndex: 'serviceType',
      key: 'service',
      render: (v: string) => <span className="dash-capitalize">{serviceLabel(v)}</span>,
    },
    {
      title: 'Customer',
      key: 'customer',
      render: (_: unknown, job) => (
        <div className="dash-cell-stack">
          <span>{job.customer?.name}</span>
          <span className="dash-muted">{job.customer?.email}</span>
        </div>
      ),
    },
    {
      title: 'Date & Time',
      key: 'when',
      render: (_: unknown, job) => (
        <div className="dash-cell-stack">
          <span>{formatShortDate(job.scheduledDate)}</span>
          <span className="dash-muted">{job.timeSlot}</span>
        </div>
      ),
    },
    { title: 'Suburb', dataIndex: 'suburb', key: 'suburb' },
    {
      title: 'Status',
      key: 'status',
      render: (_: unknown, job) => <ScheduleStatusTag status={scheduleStatusOf(job)} />,
    },
    ...(isAdmin
      ? [
          {
            title: 'Technician',
            key: 'technician',
            render: (_: unknown, job: Job) => <TechnicianSelect job={job} technicians={techList} />,
          },
        ]
      : []),
  ];

  return (
    <section className="dash-panel" aria-labelledby="dash-schedule-title">
      <div className="dash-panel__bar">
        <h2 id="dash-schedule-title" className="dash-panel__title">
          {isAdmin ? 'Job Schedule & Assignment' : 'My Assigned Jobs'}
        </h2>
        <ScheduleViewSwitch isAdmin={isAdmin} value={view} onChange={(v) => setView(v)} />
        {view === 'list' && (
          <Select
            aria-label="Filter schedule by status"
            value={status}
            onChange={(v) => setStatus(v, { page: null })}
            options={SCHEDULE_FILTER_OPTIONS}
            className="dash-filter"
          />
        )}
      </div>

      <div className={`dash-stats${isAdmin ? '' : ' dash-stats--3'}`} role="group" aria-label="Summary">
        {isAdmin ? (
          <>
            <SummaryCard label="Total Jobs" value={total.count} />
            <SummaryCard label="Unassigned" value={pending.count} />
            <SummaryCard label="Active Technicians" value={technicians.data?.length} />
            <SummaryCard label="Completed" value={completed.count} />
          </>
        ) : (
          <>
            <SummaryCard label="My Total" value={total.count} />
            <SummaryCard label="Pending" value={sum(pending.count, confirmed.count)} />
            <SummaryCard label="Completed" value={completed.count} />
          </>
        )}
      </div>

      {view !== 'list' ? (
        <ScheduleCalendar
          view={view}
          technicians={techList}
          onOpenJob={(job) => setJob(job.id)}
          own={isAdmin ? undefined : { id: user.id, name: user.username }}
        />
      ) : (
        <ResponsiveList<Job>
          query={list}
          items={jobs}
          rowKey={(job) => job.id}
          errorTitle={isAdmin ? 'Failed to fetch jobs' : 'Failed to fetch assigned jobs'}
          loadingText="Loading schedule..."
          emptyText={emptyText}
          columns={columns}
          renderCard={(job) => (
            <li key={job.id}>
              <article className="dash-card" aria-labelledby={`sched-${job.id}`}>
                <header className="dash-card__head">
                  <h3 id={`sched-${job.id}`} className="dash-card__title">
                    {job.jobNumber}
                  </h3>
                  <ScheduleStatusTag status={scheduleStatusOf(job)} />
                </header>
                <dl className="dash-card__facts">
                  <div>
                    <dt>Service</dt>
                    <dd className="dash-capitalize">{serviceLabel(job.serviceType)}</dd>
                  </div>
                  <div>
                    <dt>Customer</dt>
                    <dd>
                      {job.customer?.name}
                      <span className="dash-muted dash-block">{job.customer?.email}</span>
                    </dd>
                  </div>
                  <div>
                    <dt>When</dt>
                    <dd>
                      {formatShortDate(job.scheduledDate)} · {job.timeSlot}
                    </dd>
                  </div>
                  <div>
                    <dt>Suburb</dt>
                    <dd>{job.suburb}</dd>
                  </div>
                </dl>
                <div className="dash-card__foot">
                  {isAdmin && <TechnicianSelect job={job} technicians={techList} />}
                  <Button
                    size="small"
                    type="primary"
                    ghost
                    onClick={() => setJob(job.id)}
                    aria-label={`View details of job ${job.jobNumber}`}
                  >
                    View Details
                  </Button>
                </div>
              </article>
            </li>
          )}
          pagination={{ page, pageSize: JOBS_PAGE_SIZE, total: count, onChange: setPage }}
        />
      )}
    </section>
  );
}

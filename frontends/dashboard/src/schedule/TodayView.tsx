import { Button } from 'antd';
import { useScheduleJobs } from '../api/schedule';
import type { Job } from '../api/types';
import { QueryError } from '../components/QueryError';
import { ScheduleStatusTag } from '../components/StatusTag';
import { isErasedCustomer } from '../job-detail/EraseCustomerAction';
import { StatusActions } from '../job-detail/StatusActions';
import { usePerthToday } from '../hooks/usePerthToday';
import { serviceLabel } from '../lib/format';
import { scheduleStatusOf } from '../tabs/ScheduleTab';
import { dayLabel, directionsUrl, scheduledJobs, telHref, visitOrder } from './model';

function tyreDetails(job: Job): string | null {
  const parts = [
    job.tyreSize ? `${job.tyreQuantity ?? 1} × ${job.tyreSize}` : null,
    job.tyreBrand ? job.tyreBrand : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

/**
 * A technician's day on the phone (issue 19): today's jobs (Perth date) in visit order, each with the address as
 * a link that opens directions, the customer's number as a tap-to-call link, what is to be done, and the status
 * button (Start Work, Complete Work, ...). Only the technician's own jobs arrive (the server decides).
 */
export function TodayView({ onOpenJob }: { onOpenJob: (job: Job) => void }) {
  // Rolls over at Perth midnight (the phone stays open overnight): the new day's jobs are fetched.
  const today = usePerthToday();
  const schedule = useScheduleJobs(today, today);
  const jobs = visitOrder(scheduledJobs(schedule.data?.jobs ?? []));

  if (schedule.isError)
    return (
      <QueryError
        title="Failed to fetch today's jobs"
        error={schedule.error}
        onRetry={() => void schedule.refetch()}
      />
    );
  return (
    <div>
      <h3 className="sched-heading">Today, {dayLabel(today)}</h3>
      {schedule.isPending ? (
        <p className="sched-note">Loading today&apos;s jobs...</p>
      ) : jobs.length === 0 ? (
        <p className="sched-note">No jobs for you today.</p>
      ) : (
        <ol className="sched-visits" aria-label="Today's jobs in visit order">
          {jobs.map((job, i) => {
            const erased = isErasedCustomer(job);
            const call = erased ? null : telHref(job.customer?.phone);
            const tyres = tyreDetails(job);
            const vehicle = job.vehicle
              ? [job.vehicle.year, job.vehicle.make, job.vehicle.model].filter(Boolean).join(' ') +
                (job.vehicle.registration ? ` (${job.vehicle.registration})` : '')
              : '';
            return (
              <li key={job.id} className="sched-visit" aria-labelledby={`visit-${job.id}`}>
                <div className="sched-visit__head">
                  <h4 id={`visit-${job.id}`} className="sched-visit__title">
                    <span className="sched-visit__slot">
                      {i + 1}. {job.timeSlot}
                    </span>
                    {job.jobNumber} · {job.customer?.name}
                  </h4>
                  <ScheduleStatusTag status={scheduleStatusOf(job)} />
                </div>
                <p className="sched-visit__address">
                  {job.address}, {job.suburb} {job.postcode}
                </p>
                <div className="sched-visit__links">
                  <a
                    className="sched-visit__link"
                    href={directionsUrl(job)}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`Navigate to ${job.address}, ${job.suburb} (opens maps)`}
                  >
                    Navigate
                  </a>
                  {call ? (
                    <a className="sched-visit__link" href={call} aria-label={`Call ${job.customer?.name}`}>
                      Call
                    </a>
                  ) : (
                    <span className="sched-note">{erased ? 'Erased' : 'No phone'}</span>
                  )}
                </div>
                <dl>
                  <div>
                    <dt>Service</dt>
                    <dd className="dash-capitalize">{serviceLabel(job.serviceType)}</dd>
                  </div>
                  {tyres && (
                    <div>
                      <dt>Tyres</dt>
                      <dd>{tyres}</dd>
                    </div>
                  )}
                  {vehicle && (
                    <div>
                      <dt>Vehicle</dt>
                      <dd>{vehicle}</dd>
                    </div>
                  )}
                  {job.notes && (
                    <div>
                      <dt>Notes</dt>
                      <dd>{job.notes}</dd>
                    </div>
                  )}
                </dl>
                <div className="sched-visit__foot">
                  <StatusActions job={job} />
                  <Button onClick={() => onOpenJob(job)} aria-label={`View details of job ${job.jobNumber}`}>
                    View Details
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

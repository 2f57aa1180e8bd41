import type { DragEvent } from 'react';
import { Button } from 'antd';
import type { Job } from '../api/types';
import { ScheduleStatusTag } from '../components/StatusTag';
import { serviceLabel } from '../lib/format';
import { scheduleStatusOf } from '../tabs/ScheduleTab';
import { isMovable } from './model';

/**
 * A job in the calendar: its number (opens the detail), customer, suburb, service and status. A job that can still
 * move is draggable and has a "Move…" button doing the same from the keyboard.
 */
export function ScheduleCard({
  job,
  moving,
  readOnly = false,
  onOpen,
  onMoveMenu,
  onDragStart,
  onDragEnd,
}: {
  job: Job;
  moving: boolean;
  /** Shown, not moved (a technician's own calendar). */
  readOnly?: boolean;
  onOpen: (job: Job) => void;
  onMoveMenu: (job: Job) => void;
  onDragStart: (job: Job, event: DragEvent<HTMLElement>) => void;
  onDragEnd: () => void;
}) {
  const movable = !readOnly && isMovable(job);
  return (
    <article
      className={`sched-job${isMovable(job) ? '' : ' sched-job--done'}${moving ? ' sched-job--moving' : ''}`}
      draggable={movable && !moving}
      onDragStart={(event) => onDragStart(job, event)}
      onDragEnd={onDragEnd}
      data-job-number={job.jobNumber}
      aria-label={`Job ${job.jobNumber}`}
    >
      <div className="sched-job__head">
        <Button
          type="link"
          className="sched-job__num"
          onClick={() => onOpen(job)}
          aria-label={`View details of job ${job.jobNumber}`}
        >
          {job.jobNumber}
        </Button>
        <ScheduleStatusTag status={scheduleStatusOf(job)} />
      </div>
      <span className="sched-job__line">{job.customer?.name}</span>
      <span className="sched-job__line">
        <span className="dash-capitalize">{serviceLabel(job.serviceType)}</span> · {job.suburb}
      </span>
      {movable && (
        <div className="sched-job__foot">
          <Button
            size="small"
            onClick={() => onMoveMenu(job)}
            aria-label={`Move job ${job.jobNumber}`}
            disabled={moving}
          >
            Move…
          </Button>
        </div>
      )}
    </article>
  );
}

import { useState, type DragEvent } from 'react';
import { App, Button, Spin } from 'antd';
import { addDays, type TimeSlot } from '@tyres/kernel';
import { useMoveJob, useNotFreeCheck, useScheduleJobs } from '../api/schedule';
import type { Job, Technician } from '../api/types';
import { QueryError } from '../components/QueryError';
import { useNotify } from '../hooks/useNotify';
import { useUrlParam } from '../hooks/useUrlParam';
import { usePerthToday } from '../hooks/usePerthToday';
import { MoveDialog } from './MoveDialog';
import { ScheduleCard } from './ScheduleCard';
import {
  cellKey,
  dayLabel,
  moveChanges,
  placeJobs,
  SLOTS,
  UNASSIGNED_LANE,
  weekDates,
  weekStart,
  type MoveTarget,
} from './model';

export type CalendarMode = 'week' | 'day';

interface Lane {
  id: string;
  name: string;
}

/** Where a drop lands: a lane and a (date, slot). */
interface Zone {
  lane: string;
  date: string;
  slot: TimeSlot;
}

/**
 * The admin's calendar (issue 19): a lane per technician plus Unassigned; in the week view a column per day with
 * the four slots stacked, in the day view a column per slot. Dragging a job card to another zone reschedules
 * and/or reassigns it (the API's own checks); "Move…" on a card does the same from the keyboard. The card moves
 * at once and returns where it was when the server refuses, with the server's message.
 */
export function CalendarView({
  mode,
  technicians,
  onOpenJob,
  own,
}: {
  mode: CalendarMode;
  technicians: Technician[];
  onOpenJob: (job: Job) => void;
  /** A technician's own calendar: their lane only, to look at (moving jobs is the admin's). */
  own?: { id: string; name: string };
}) {
  const today = usePerthToday();
  const [dateParam, setDateParam] = useUrlParam('date', '');
  const anchor = /^\d{4}-\d{2}-\d{2}$/.test(dateParam) ? dateParam : today;
  const dates = mode === 'week' ? weekDates(weekStart(anchor)) : [anchor];
  const from = dates[0]!;
  const to = dates.at(-1)!;
  const schedule = useScheduleJobs(from, to);
  const move = useMoveJob();
  const notify = useNotify();
  const notFree = useNotFreeCheck();
  const { modal } = App.useApp();
  const [dragging, setDragging] = useState<Job | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [menuJob, setMenuJob] = useState<Job | null>(null);

  const jobs = schedule.data?.jobs ?? [];
  const cells = placeJobs(jobs);
  const lanes: Lane[] = own
    ? [own]
    : [
        { id: UNASSIGNED_LANE, name: 'Unassigned' },
        ...technicians.map((t) => ({ id: t.id, name: t.username })),
      ];
  // Jobs of a technician no longer active still need a lane.
  for (const job of jobs)
    if (job.assignedTechnicianId && !lanes.some((l) => l.id === job.assignedTechnicianId))
      lanes.push({
        id: job.assignedTechnicianId,
        name: job.assignedTechnician?.username ?? 'Inactive technician',
      });
  const laneName = (id: string | null) => lanes.find((l) => l.id === (id ?? UNASSIGNED_LANE))?.name ?? '';

  const doMove = (job: Job, target: MoveTarget) => {
    const change = moveChanges(job, target);
    if (!change.reschedule && !change.assign) return;
    const name = target.technicianId ? laneName(target.technicianId) : null;
    move
      .mutateAsync({ job, to: target, technicianName: name })
      .then(() =>
        notify.success(
          'Job Moved',
          `Job ${job.jobNumber}: ${dayLabel(target.date)}, ${target.slot}, ${name ?? 'Unassigned'}.`,
        ),
      )
      .catch(() => undefined);
  };

  /**
   * A drop or Move…: when booking says the target technician is not free then (busy, not rostered, on leave, a
   * closed holiday), a confirm names the reason first; moving anyway leaves the decision to the server.
   */
  const requestMove = async (job: Job, target: MoveTarget) => {
    const change = moveChanges(job, target);
    if (!change.reschedule && !change.assign) return;
    const name = target.technicianId ? laneName(target.technicianId) : null;
    const reason = await notFree(job, target, name, jobs);
    if (!reason) return doMove(job, target);
    modal.confirm({
      title: `${name ?? 'The technician'} is not free then`,
      content: `${reason} Move job ${job.jobNumber} to ${dayLabel(target.date)}, ${target.slot}, ${name ?? 'Unassigned'} anyway? The booking system still checks the move.`,
      okText: 'Move anyway',
      cancelText: 'Keep it where it is',
      onOk: () => doMove(job, target),
    });
  };

  const onDrop = (zone: Zone, event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setOver(null);
    const id = dragging?.id ?? event.dataTransfer?.getData('text/plain');
    const job = dragging ?? jobs.find((j) => j.id === id);
    setDragging(null);
    if (!job) return;
    void requestMove(job, {
      date: zone.date,
      slot: zone.slot,
      technicianId: zone.lane === UNASSIGNED_LANE ? null : zone.lane,
    });
  };

  const step = mode === 'week' ? 7 : 1;
  const unit = mode === 'week' ? 'week' : 'day';
  const rangeText = mode === 'week' ? `${dayLabel(from)} – ${dayLabel(to)}` : dayLabel(anchor);
  const movingId = move.isPending ? move.variables?.job.id : undefined;

  const renderZone = (lane: Lane, date: string, slot: TimeSlot, showLabel: boolean) => {
    const key = cellKey(lane.id, date, slot);
    const here = cells.get(key) ?? [];
    return (
      <div
        key={key}
        role="group"
        aria-label={`${lane.name}, ${dayLabel(date)}, ${slot}`}
        className={`sched-zone${over === key ? ' sched-zone--over' : ''}`}
        data-zone={key}
        onDragOver={(event) => {
          if (!dragging) return;
          event.preventDefault();
          if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
          if (over !== key) setOver(key);
        }}
        onDragLeave={() => setOver((current) => (current === key ? null : current))}
        onDrop={(event) => onDrop({ lane: lane.id, date, slot }, event)}
      >
        {showLabel && <span className="sched-zone__label">{slot}</span>}
        {here.map((job) => (
          <ScheduleCard
            key={job.id}
            job={job}
            moving={movingId === job.id}
            readOnly={Boolean(own)}
            onOpen={onOpenJob}
            onMoveMenu={setMenuJob}
            onDragStart={(j, event) => {
              event.dataTransfer?.setData('text/plain', j.id);
              if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
              setDragging(j);
            }}
            onDragEnd={() => {
              setDragging(null);
              setOver(null);
            }}
          />
        ))}
      </div>
    );
  };

  return (
    <div className="sched-calendar">
      <div className="sched-toolbar" role="group" aria-label={`Choose the ${unit}`}>
        <Button onClick={() => setDateParam(addDays(anchor, -step))} aria-label={`Previous ${unit}`}>
          ‹
        </Button>
        <Button onClick={() => setDateParam(null)}>{mode === 'week' ? 'This week' : 'Today'}</Button>
        <Button onClick={() => setDateParam(addDays(anchor, step))} aria-label={`Next ${unit}`}>
          ›
        </Button>
        <span className="sched-toolbar__range" aria-live="polite">
          {rangeText}
        </span>
        {schedule.isFetching && <Spin size="small" aria-label="Loading schedule" />}
      </div>
      {schedule.isError ? (
        <QueryError
          title="Failed to fetch the schedule"
          error={schedule.error}
          onRetry={() => void schedule.refetch()}
        />
      ) : (
        <>
          <p className="sched-note">
            {own
              ? `Your jobs this ${unit}. Cancelled jobs are not shown.`
              : 'Drag a job to another slot, day or technician, or use its Move… button. Cancelled jobs are not shown.'}
          </p>
          {/* eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- a sideways-scrolling area must be reachable by keyboard (axe scrollable-region-focusable) */}
          <div className="sched-scroll" tabIndex={0} role="region" aria-label={`Schedule ${rangeText}`}>
            <table className={`sched-grid${mode === 'day' ? ' sched-grid--day' : ''}`}>
              <caption className="sched-sr-only">
                Jobs by technician, {mode === 'week' ? 'day and time slot' : 'time slot'}, {rangeText}
              </caption>
              <thead>
                <tr>
                  <th scope="col" className="sched-grid__lane-col">
                    Technician
                  </th>
                  {mode === 'week'
                    ? dates.map((d) => (
                        <th key={d} scope="col" className={d === today ? 'sched-today' : undefined}>
                          {dayLabel(d)}
                          {d === today ? ' (today)' : ''}
                        </th>
                      ))
                    : SLOTS.map((s) => (
                        <th key={s} scope="col">
                          {s}
                        </th>
                      ))}
                </tr>
              </thead>
              <tbody>
                {lanes.map((lane) => (
                  <tr key={lane.id}>
                    <th scope="row">{lane.name}</th>
                    {mode === 'week'
                      ? dates.map((d) => <td key={d}>{SLOTS.map((s) => renderZone(lane, d, s, true))}</td>)
                      : SLOTS.map((s) => <td key={s}>{renderZone(lane, anchor, s, false)}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {schedule.isPending && <p className="sched-note">Loading schedule...</p>}
        </>
      )}
      <MoveDialog
        job={menuJob}
        technicians={technicians}
        onCancel={() => setMenuJob(null)}
        onMove={(job, target) => {
          setMenuJob(null);
          void requestMove(job, target);
        }}
      />
    </div>
  );
}

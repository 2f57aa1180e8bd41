import { Segmented } from 'antd';
import { injectStyles } from '@tyres/platform';
import type { Job, Technician } from '../api/types';
import { CalendarView } from './CalendarView';
import { SCHEDULE_CSS } from './styles';
import { TodayView } from './TodayView';

// Once, like dashboard.css (theme colours as the palette's variables).
injectStyles('dashboard-schedule', SCHEDULE_CSS);

export type ScheduleView = 'list' | 'week' | 'day' | 'today';

export const ADMIN_VIEWS: { value: ScheduleView; label: string }[] = [
  { value: 'week', label: 'Week' },
  { value: 'day', label: 'Day' },
  { value: 'list', label: 'List' },
];
export const TECHNICIAN_VIEWS: { value: ScheduleView; label: string }[] = [
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'Week' },
  { value: 'list', label: 'List' },
];

/**
 * The view a schedule opens on: a technician on a phone gets Today; everyone else the spec's list (the calendar
 * is one click away and stays in the address bar). docs/decisions.md, "Schedule".
 */
export function defaultView(isAdmin: boolean, isMobile: boolean): ScheduleView {
  return !isAdmin && isMobile ? 'today' : 'list';
}

export function viewsFor(isAdmin: boolean) {
  return isAdmin ? ADMIN_VIEWS : TECHNICIAN_VIEWS;
}

/** The view switch (a radio group: arrow keys move between views). */
export function ScheduleViewSwitch({
  isAdmin,
  value,
  onChange,
}: {
  isAdmin: boolean;
  value: ScheduleView;
  onChange: (view: ScheduleView) => void;
}) {
  return (
    <Segmented<ScheduleView>
      aria-label="Schedule view"
      value={value}
      onChange={onChange}
      options={viewsFor(isAdmin)}
    />
  );
}

/** The calendar and Today views (the list stays in ScheduleTab). */
export function ScheduleCalendar({
  view,
  technicians,
  onOpenJob,
  own,
}: {
  view: Exclude<ScheduleView, 'list'>;
  technicians: Technician[];
  onOpenJob: (job: Job) => void;
  /** Set for a technician: their own week, to look at. */
  own?: { id: string; name: string };
}) {
  if (view === 'today') return <TodayView onOpenJob={onOpenJob} />;
  return <CalendarView mode={view} technicians={technicians} onOpenJob={onOpenJob} own={own} />;
}

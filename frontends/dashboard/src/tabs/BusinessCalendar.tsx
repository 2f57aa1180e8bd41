import { useState } from 'react';
import { Button, Checkbox, Input, Radio, Select, Tag } from 'antd';
import { TIME_SLOT_LABELS, type TimeSlot } from '@tyres/kernel';
import {
  useCalendarBlocks,
  useCalendarMutations,
  useHolidays,
  useRoster,
  type CalendarBlock,
  type CalendarBlockInput,
} from '../api/calendar';
import { failureReported } from '../api/mutation-toasts';
import type { KeptBooking } from '../api/types';
import { DateField } from '../components/DateField';
import { KeptBookingsDialog } from '../components/KeptBookingsDialog';
import { useNotify } from '../hooks/useNotify';
import { formatDate } from '../lib/dates';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const WEEKDAY_OPTIONS = WEEKDAYS.map((label, i) => ({ label: label.slice(0, 3), value: i + 1 }));

/** How a block reads in the list: "Every Friday, 2-4 PM (from 4 Dec 2026)". */
export function describeBlock(
  b: Pick<CalendarBlock, 'kind' | 'startDate' | 'endDate' | 'weekday' | 'timeSlot'>,
): string {
  const slot = b.timeSlot ? `, ${b.timeSlot}` : ', all day';
  if (b.kind === 'day') return `${formatDate(b.startDate)}${slot}`;
  if (b.kind === 'range')
    return `${formatDate(b.startDate)} to ${formatDate(b.endDate ?? b.startDate)}${slot}`;
  const until = b.endDate ? ` until ${formatDate(b.endDate)}` : '';
  return `Every ${WEEKDAYS[(b.weekday ?? 1) - 1]}${slot} (from ${formatDate(b.startDate)}${until})`;
}

/** The date's public holiday: closed unless opened here. */
function HolidayBanner({ date }: { date: string }) {
  const notify = useNotify();
  const holidays = useHolidays();
  const { setHolidayOpen } = useCalendarMutations();
  const h = holidays.data?.find((x) => x.date === date);
  if (!h) return null;
  const toggle = () =>
    setHolidayOpen
      .mutateAsync({ date, open: !h.opened })
      .then(
        () =>
          notify.success(h.opened ? 'Holiday Closed' : 'Holiday Opened', `${h.name}, ${formatDate(date)}.`),
        failureReported,
      );
  return (
    <div className="dash-panel__lead" role="note">
      <Tag color={h.opened ? 'green' : 'orange'}>Public holiday</Tag> {h.name}:{' '}
      {h.opened ? 'opened for bookings.' : 'closed (customers cannot book).'}{' '}
      <Button size="small" onClick={() => void toggle()} loading={setHolidayOpen.isPending}>
        {h.opened ? 'Close again' : 'Open for bookings'}
      </Button>
    </div>
  );
}

function BlockForm({ date }: { date: string }) {
  const notify = useNotify();
  const { addBlock } = useCalendarMutations();
  const [kind, setKind] = useState<'day' | 'range' | 'recurring'>('day');
  const [start, setStart] = useState<string | null>(date);
  const [end, setEnd] = useState<string | null>(date);
  const [weekday, setWeekday] = useState(5);
  const [slot, setSlot] = useState<TimeSlot | ''>('');
  const [reason, setReason] = useState('');
  const [kept, setKept] = useState<KeptBooking[] | null>(null);
  const submit = () => {
    let body: CalendarBlockInput;
    if (kind === 'day') body = { kind, date: start ?? date, reason };
    else if (kind === 'range')
      body = {
        kind,
        startDate: start ?? date,
        endDate: end ?? start ?? date,
        reason,
        ...(slot ? { timeSlot: slot } : {}),
      };
    else {
      // A weekly block is always one slot: never guess which (the select reads "Choose a slot" until one is chosen).
      if (!slot) {
        notify.invalid('Choose a Time Slot', 'Choose the time slot to block every week.');
        return Promise.resolve();
      }
      body = { kind, weekday, timeSlot: slot, startDate: start ?? date, reason };
    }
    return addBlock.mutateAsync(body).then((b) => {
      notify.success('Calendar Blocked', describeBlock(b));
      setReason('');
      // The jobs already in the blocked time stay booked: list them so the admin can contact those customers.
      if (b.keptBookings?.length) setKept(b.keptBookings);
    }, failureReported);
  };
  return (
    <fieldset className="dash-calendar__form">
      <legend>Block days or a recurring slot</legend>
      <Radio.Group
        aria-label="Block type"
        value={kind}
        onChange={(e) => setKind(e.target.value as typeof kind)}
        options={[
          { label: 'Whole day', value: 'day' },
          { label: 'Date range', value: 'range' },
          { label: 'Every week', value: 'recurring' },
        ]}
      />
      <DateField
        id="cal-block-start"
        ariaLabel={kind === 'range' ? 'From' : kind === 'day' ? 'Day' : 'Starting'}
        value={start}
        disablePast
        allowClear={false}
        onChange={setStart}
      />
      {kind === 'range' && (
        <DateField
          id="cal-block-end"
          ariaLabel="To"
          value={end}
          disablePast
          allowClear={false}
          onChange={setEnd}
        />
      )}
      {kind === 'recurring' && (
        <Select
          aria-label="Weekday"
          value={weekday}
          onChange={setWeekday}
          options={WEEKDAYS.slice(0, 5).map((label, i) => ({ label, value: i + 1 }))}
        />
      )}
      {kind !== 'day' && (
        <Select
          aria-label="Time slot"
          value={slot}
          onChange={setSlot}
          options={[
            ...(kind === 'range'
              ? [{ label: 'All day', value: '' }]
              : [{ label: 'Choose a slot', value: '' }]),
            ...TIME_SLOT_LABELS.map((s) => ({ label: s, value: s })),
          ]}
        />
      )}
      <Input
        aria-label="Block reason"
        placeholder="Reason, e.g. Staff training"
        maxLength={200}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <Button danger onClick={() => void submit()} loading={addBlock.isPending}>
        Add block
      </Button>
      <KeptBookingsDialog kept={kept} onClose={() => setKept(null)} />
    </fieldset>
  );
}

function BlockList() {
  const notify = useNotify();
  const blocks = useCalendarBlocks();
  const { removeBlock } = useCalendarMutations();
  const list = blocks.data ?? [];
  if (list.length === 0) return <p className="dash-muted">No calendar blocks.</p>;
  return (
    <ul className="dash-calendar__list" aria-label="Calendar blocks">
      {list.map((b) => (
        <li key={b.id}>
          {describeBlock(b)}: {b.reason}{' '}
          <Button
            size="small"
            aria-label={`Remove block ${describeBlock(b)}`}
            onClick={() =>
              void removeBlock
                .mutateAsync(b.id)
                .then(() => notify.success('Block Removed', describeBlock(b)), failureReported)
            }
          >
            Remove
          </Button>
        </li>
      ))}
    </ul>
  );
}

function Roster({ date }: { date: string }) {
  const notify = useNotify();
  const roster = useRoster();
  const { setWeekdays, addLeave, removeLeave } = useCalendarMutations();
  const [leave, setLeave] = useState<{
    userId: string;
    start: string | null;
    end: string | null;
    reason: string;
  }>({
    userId: '',
    start: date,
    end: date,
    reason: '',
  });
  const technicians = (roster.data ?? []).filter((t) => t.isActive);
  if (technicians.length === 0)
    return <p className="dash-muted">No technicians yet: every slot holds one job.</p>;
  return (
    <>
      <ul className="dash-calendar__list" aria-label="Roster">
        {technicians.map((t) => (
          <li key={t.userId}>
            <strong>{t.username}</strong>{' '}
            <Checkbox.Group
              aria-label={`Days ${t.username} works`}
              options={WEEKDAY_OPTIONS}
              value={t.weekdays}
              onChange={(days) =>
                void setWeekdays
                  .mutateAsync({ userId: t.userId, weekdays: days as number[] })
                  .catch(failureReported)
              }
            />
            {t.leave.map((l) => (
              <span key={l.id}>
                {' '}
                <Tag>
                  Leave {formatDate(l.startDate)}
                  {l.endDate !== l.startDate ? ` to ${formatDate(l.endDate)}` : ''}: {l.reason}
                </Tag>
                <Button
                  size="small"
                  aria-label={`Remove leave of ${t.username} from ${formatDate(l.startDate)}`}
                  onClick={() =>
                    void removeLeave.mutateAsync({ userId: t.userId, leaveId: l.id }).catch(failureReported)
                  }
                >
                  Remove
                </Button>
              </span>
            ))}
          </li>
        ))}
      </ul>
      <fieldset className="dash-calendar__form">
        <legend>Add leave</legend>
        <Select
          aria-label="Technician"
          value={leave.userId}
          onChange={(userId) => setLeave({ ...leave, userId })}
          options={[
            { label: 'Choose a technician', value: '' },
            ...technicians.map((t) => ({ label: t.username, value: t.userId })),
          ]}
        />
        <DateField
          id="cal-leave-start"
          ariaLabel="Leave from"
          value={leave.start}
          disablePast
          allowClear={false}
          onChange={(start) => setLeave({ ...leave, start })}
        />
        <DateField
          id="cal-leave-end"
          ariaLabel="Leave to"
          value={leave.end}
          disablePast
          allowClear={false}
          onChange={(end) => setLeave({ ...leave, end })}
        />
        <Input
          aria-label="Leave reason"
          placeholder="Reason"
          maxLength={200}
          value={leave.reason}
          onChange={(e) => setLeave({ ...leave, reason: e.target.value })}
        />
        <Button
          disabled={!leave.userId}
          loading={addLeave.isPending}
          onClick={() =>
            void addLeave
              .mutateAsync({
                userId: leave.userId,
                startDate: leave.start ?? date,
                endDate: leave.end ?? leave.start ?? date,
                reason: leave.reason,
              })
              .then(() => {
                notify.success('Leave Added', `${formatDate(leave.start ?? date)}.`);
                setLeave({ ...leave, reason: '' });
              }, failureReported)
          }
        >
          Add leave
        </Button>
      </fieldset>
    </>
  );
}

/**
 * The business calendar under the slot cards (issue 19): the date's public holiday (open/close), blocks of whole days,
 * ranges and recurring slots, and the technicians' roster and leave (a slot holds one job per technician working).
 */
export function BusinessCalendar({ date }: { date: string }) {
  return (
    <section className="dash-calendar" aria-labelledby="dash-calendar-title">
      <h3 id="dash-calendar-title" className="dash-card__title">
        Business calendar
      </h3>
      <HolidayBanner date={date} />
      <BlockForm key={date} date={date} />
      <BlockList />
      <h4>Technicians</h4>
      <Roster key={date} date={date} />
    </section>
  );
}

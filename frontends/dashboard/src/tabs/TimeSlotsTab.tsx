import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Form, Input, Modal, Tag } from 'antd';
import { useAdminSlots, useSlotMutations } from '../api/slots';
import { failureReported } from '../api/mutation-toasts';
import type { KeptBooking, TimeSlot } from '../api/types';
import { DateField } from '../components/DateField';
import { EmptyState } from '../components/EmptyState';
import { Field } from '../components/Field';
import { jobCount, KeptBookingsDialog } from '../components/KeptBookingsDialog';
import { QueryError } from '../components/QueryError';
import { blockSlotSchema, type BlockSlotValues } from '../forms/block-slot';
import { BusinessCalendar } from './BusinessCalendar';
import { useNotify } from '../hooks/useNotify';
import { useUrlParam } from '../hooks/useUrlParam';
import { formatDate, isDateString, perthToday } from '../lib/dates';

/**
 * What a slot card says about a slot: free, blocked (with the reason), booked, or otherwise unavailable. A free, partly
 * booked or booked slot can be blocked (the booking service allows it whatever the slot holds: the jobs there are kept,
 * the block only stops new bookings); a passed, holiday or otherwise unavailable slot cannot.
 */
export function slotState(
  slot: Pick<TimeSlot, 'slot' | 'isAvailable' | 'blockedReason'> &
    Partial<Pick<TimeSlot, 'isBlocked' | 'state' | 'booking' | 'bookings' | 'capacity'>>,
): {
  label: string;
  color: string;
  canBlock: boolean;
  canUnblock: boolean;
  detail?: string;
} {
  // The booking service says whether a slot is blocked; with only the spec's fields, an unavailable slot with a
  // reason and no booking is taken as blocked unless the reason is that its time has passed.
  const blocked =
    slot.isBlocked ??
    (!slot.isAvailable &&
      Boolean(slot.blockedReason) &&
      !slot.booking &&
      slot.blockedReason !== 'Time has passed');
  if (blocked)
    return {
      label: 'Blocked',
      color: 'red',
      canBlock: false,
      canUnblock: true,
      detail: slot.blockedReason ?? undefined,
    };
  const jobs = slotJobs(slot);
  // A slot holds one job per technician working (issue 19): partly booked is still open.
  if (jobs.length > 0 && slot.isAvailable)
    return {
      label: 'Available',
      color: 'green',
      canBlock: true,
      canUnblock: false,
      detail: `${jobs.length} of ${slot.capacity ?? 1} booked: ${jobs.map((j) => `Job ${j.jobNumber}`).join(', ')}`,
    };
  if (slot.state === 'holiday')
    return {
      label: 'Public holiday',
      color: 'orange',
      canBlock: false,
      canUnblock: false,
      detail: slot.blockedReason ?? undefined,
    };
  if (slot.booking)
    return {
      label: slot.state === 'held' ? 'Held for payment' : 'Booked',
      color: 'blue',
      // Full: still blockable (the jobs stay), unless its time has passed.
      canBlock: slot.state !== 'time-passed' && slot.blockedReason !== 'Time has passed',
      canUnblock: false,
      detail: jobs.map((j) => `Job ${j.jobNumber}`).join(', ') || undefined,
    };
  if (!slot.isAvailable)
    return {
      label: 'Unavailable',
      color: 'default',
      canBlock: false,
      canUnblock: false,
      detail: slot.blockedReason ?? undefined,
    };
  return { label: 'Available', color: 'green', canBlock: true, canUnblock: false };
}

/** The jobs a slot holds (every one, or the first when only that is given). */
function slotJobs(slot: Partial<Pick<TimeSlot, 'booking' | 'bookings'>>) {
  return slot.bookings ?? (slot.booking ? [slot.booking] : []);
}

/** What the confirm dialog says about the jobs already in a slot being blocked (null when it holds none). */
export function blockKeepsJobsText(jobNumbers: readonly string[]): string | null {
  if (jobNumbers.length === 0) return null;
  const one = jobNumbers.length === 1;
  return (
    `This slot has ${jobCount(jobNumbers.length)} booked (${jobNumbers.join(', ')}). ` +
    `${one ? 'It stays' : 'They stay'} booked: blocking does not move or cancel ${one ? 'it' : 'them'}, ` +
    `it only stops new bookings.`
  );
}

function BlockDialog({
  date,
  slot,
  jobNumbers,
  onClose,
  onKept,
}: {
  date: string;
  slot: string | null;
  jobNumbers: readonly string[];
  onClose: () => void;
  onKept: (kept: KeptBooking[]) => void;
}) {
  const notify = useNotify();
  const { block } = useSlotMutations();
  const { control, handleSubmit, reset } = useForm<BlockSlotValues>({
    resolver: zodResolver(blockSlotSchema),
    defaultValues: { reason: '' },
  });
  const keeps = blockKeepsJobsText(jobNumbers);
  const close = () => {
    reset();
    onClose();
  };
  const onSubmit = handleSubmit(async ({ reason }) => {
    if (!slot) return;
    await block.mutateAsync({ date, slot, reason: reason.trim() }).then((answer) => {
      notify.success('Time Slot Blocked', `${slot} on ${formatDate(date)} is blocked.`);
      close();
      if (answer.keptBookings?.length) onKept(answer.keptBookings);
    }, failureReported);
  });
  return (
    <Modal
      open={Boolean(slot)}
      title={`Block ${slot ?? ''}`}
      okText="Block Slot"
      okButtonProps={{ danger: true }}
      onOk={() => void onSubmit()}
      onCancel={close}
      confirmLoading={block.isPending}
      destroyOnHidden
    >
      <p className="dash-muted">{formatDate(date)}: customers will not be able to book this slot.</p>
      {keeps && (
        <p role="note" className="dash-block-keeps">
          {keeps}
        </p>
      )}
      <Form layout="vertical" component="div" requiredMark={false}>
        <Field
          control={control}
          name="reason"
          label="Reason"
          id="block-reason"
          render={(field, meta) => (
            <Input.TextArea
              {...field}
              id={meta.id}
              rows={3}
              maxLength={200}
              placeholder="e.g. Van in for service"
              aria-invalid={meta.invalid || undefined}
              aria-describedby={meta.describedBy}
            />
          )}
        />
      </Form>
    </Modal>
  );
}

/** Time slot management (admins): a date and a card per slot with Block (reason required) / Unblock. */
export function TimeSlotsTab() {
  const notify = useNotify();
  const [dateParam, setDateParam] = useUrlParam('date');
  const date = isDateString(dateParam) && dateParam >= perthToday() ? dateParam : perthToday();
  const slots = useAdminSlots(date);
  const { unblock } = useSlotMutations();
  const [blocking, setBlocking] = useState<string | null>(null);
  const [kept, setKept] = useState<KeptBooking[] | null>(null);
  const list = slots.data ?? [];

  const onUnblock = (slot: string) =>
    unblock
      .mutateAsync({ date, slot })
      .then(
        () => notify.success('Time Slot Unblocked', `${slot} on ${formatDate(date)} is open for bookings.`),
        failureReported,
      );

  return (
    <section className="dash-panel" aria-labelledby="dash-slots-title">
      <div className="dash-panel__bar">
        <h2 id="dash-slots-title" className="dash-panel__title">
          Time Slot Management
        </h2>
        <div className="dash-filter dash-filter--date">
          <DateField
            id="slots-date"
            ariaLabel="Date"
            value={date}
            disablePast
            allowClear={false}
            onChange={(v) => setDateParam(v)}
          />
        </div>
      </div>
      <p className="dash-muted dash-panel__lead">{formatDate(date)}</p>
      {slots.isError ? (
        <QueryError
          title="Failed to fetch time slots"
          error={slots.error}
          onRetry={() => void slots.refetch()}
        />
      ) : slots.isPending ? (
        <div className="dash-loading" role="status">
          Loading time slots...
        </div>
      ) : list.length === 0 ? (
        <EmptyState text="No available time slots for this date" />
      ) : (
        <ul className="dash-slots">
          {list.map((slot) => {
            const state = slotState(slot);
            return (
              <li key={slot.slot}>
                <article
                  className={`dash-slot dash-slot--${state.label.toLowerCase().replace(/\s+/g, '-')}`}
                  aria-labelledby={`slot-${slot.slot}`}
                >
                  <header className="dash-card__head">
                    <h3 id={`slot-${slot.slot}`} className="dash-card__title">
                      {slot.slot}
                    </h3>
                    <Tag color={state.color}>{state.label}</Tag>
                  </header>
                  <p className="dash-slot__detail">
                    {state.detail ?? (state.canBlock ? 'Open for bookings' : ' ')}
                  </p>
                  {state.canBlock && (
                    <Button
                      danger
                      block
                      onClick={() => setBlocking(slot.slot)}
                      aria-label={`Block ${slot.slot}`}
                    >
                      Block
                    </Button>
                  )}
                  {state.canUnblock && (
                    <Button
                      block
                      loading={unblock.isPending && unblock.variables?.slot === slot.slot}
                      onClick={() => void onUnblock(slot.slot)}
                      aria-label={`Unblock ${slot.slot}`}
                    >
                      Unblock
                    </Button>
                  )}
                </article>
              </li>
            );
          })}
        </ul>
      )}
      <BlockDialog
        date={date}
        slot={blocking}
        jobNumbers={slotJobs(list.find((s) => s.slot === blocking) ?? {}).map((j) => j.jobNumber)}
        onClose={() => setBlocking(null)}
        onKept={setKept}
      />
      <KeptBookingsDialog kept={kept} onClose={() => setKept(null)} />
      <BusinessCalendar date={date} />
    </section>
  );
}

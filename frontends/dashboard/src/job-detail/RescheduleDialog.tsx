import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Form, Modal, Select } from 'antd';
import { BOOKING_MESSAGES, isTimeSlot } from '@tyres/kernel';
import { useRescheduleJob } from '../api/jobs';
import { failureReported } from '../api/mutation-toasts';
import { useFreeSlots } from '../api/slots';
import type { Job } from '../api/types';
import { DateField } from '../components/DateField';
import { useNotify } from '../hooks/useNotify';
import { formatDate } from '../lib/dates';
import { rescheduleSchema, type RescheduleValues } from '../forms/reschedule';

/**
 * Reschedule (spec section 5): a date (past dates disabled) and one of that date's free slots; changing the
 * date clears the slot; both are required.
 */
export function RescheduleDialog({ job, open, onClose }: { job: Job; open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const reschedule = useRescheduleJob();
  const {
    control,
    handleSubmit,
    setValue,
    reset,
    formState: { errors },
  } = useForm<RescheduleValues>({
    resolver: zodResolver(rescheduleSchema),
    defaultValues: { scheduledDate: null, timeSlot: null },
  });
  const date = useWatch({ control, name: 'scheduledDate' });
  const slot = useWatch({ control, name: 'timeSlot' });
  const slots = useFreeSlots(open ? date : null);

  useEffect(() => {
    if (open) reset({ scheduledDate: null, timeSlot: null });
  }, [open, reset]);

  const onSubmit = handleSubmit(async (values) => {
    const scheduledDate = values.scheduledDate!;
    const timeSlot = values.timeSlot;
    // The free-slot list offers only slot labels; anything else cannot be sent (booking refuses it).
    if (!isTimeSlot(timeSlot)) return notify.invalid('Reschedule Failed', BOOKING_MESSAGES.invalidSlot);
    await reschedule.mutateAsync({ id: job.id, scheduledDate, timeSlot }).then(() => {
      notify.success(
        'Job Rescheduled',
        `Job ${job.jobNumber} moved to ${formatDate(scheduledDate)}, ${timeSlot}.`,
      );
      onClose();
    }, failureReported);
  });

  const noFreeSlots = Boolean(date) && slots.isSuccess && slots.data.length === 0;
  return (
    <Modal
      open={open}
      title={`Reschedule Job ${job.jobNumber}`}
      okText="Reschedule"
      cancelText="Cancel"
      onOk={() => void onSubmit()}
      onCancel={onClose}
      confirmLoading={reschedule.isPending}
      destroyOnHidden
    >
      <p className="dash-muted">
        Currently {formatDate(job.scheduledDate)}, {job.timeSlot}.
      </p>
      <Form layout="vertical" component="div">
        <Form.Item label="New Date" htmlFor="reschedule-date">
          <DateField
            id="reschedule-date"
            value={date}
            disablePast
            onChange={(value) => {
              setValue('scheduledDate', value, { shouldValidate: false });
              // A new date clears the slot: the old choice may not be free that day.
              setValue('timeSlot', null);
            }}
          />
        </Form.Item>
        <Form.Item
          label="Time Slot"
          htmlFor="reschedule-slot"
          validateStatus={errors.timeSlot ? 'error' : undefined}
          help={errors.timeSlot ? <span id="reschedule-error">{errors.timeSlot.message}</span> : undefined}
        >
          <Select
            id="reschedule-slot"
            value={slot ?? undefined}
            onChange={(value: string) => setValue('timeSlot', value, { shouldValidate: true })}
            placeholder={date ? 'Select a time slot' : 'Select a date first'}
            disabled={!date}
            loading={slots.isFetching}
            options={(slots.data ?? []).map((s) => ({ value: s.slot, label: s.slot }))}
            aria-describedby={errors.timeSlot ? 'reschedule-error' : undefined}
            aria-invalid={errors.timeSlot ? true : undefined}
          />
        </Form.Item>
      </Form>
      {noFreeSlots && <Alert type="warning" showIcon title="No free time slots on this date" />}
      {slots.isError && <Alert type="error" showIcon title="Failed to fetch time slots" />}
    </Modal>
  );
}

import { useEffect, useState } from 'react';
import { Alert, Checkbox, Form, Input, Modal, Spin } from 'antd';
import { errorMessage } from '@tyres/platform';
import { useBookingCancellation, useStaffCancel } from '../api/bookings-staff';
import { failureReported } from '../api/mutation-toasts';
import type { Job } from '../api/types';
import { useNotify } from '../hooks/useNotify';
import { formatDate } from '../lib/dates';
import { cancellationOutcome, termsNow, type CancellationFacts } from './cancellation';

/** Booking's message for a missing reason (POST …/cancel answers it too). */
export const CANCEL_REASON_REQUIRED = 'Please enter a reason for cancelling this booking';
const REASON_MAX = 500;
const systemClock = () => new Date();

/**
 * Staff Cancel (issue 18, admin): the reason (required, kept in the audit trail), the policy's refund and fee for
 * the job's slot at this moment (the kernel's rule over booking's price and what the card was charged), and "Waive
 * the fee". Booking records the cancel with the terms at the moment it is confirmed and frees the slot at once.
 * Mount it when it opens (its form starts empty each time).
 */
export function CancelJobDialog({
  job,
  open,
  onClose,
  clock = systemClock,
}: {
  job: Job;
  open: boolean;
  onClose: () => void;
  /** The moment the terms are computed for (tests fix it). */
  clock?: () => Date;
}) {
  const notify = useNotify();
  const booking = useBookingCancellation(job.id, open);
  const cancel = useStaffCancel();
  const [reason, setReason] = useState('');
  const [waive, setWaive] = useState(false);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [now, setNow] = useState(clock);

  useEffect(() => {
    if (!open) return;
    // The terms change as the slot draws near: recompute each minute while the dialog is open.
    const timer = setInterval(() => setNow(clock()), 60_000);
    return () => clearInterval(timer);
  }, [open, clock]);

  const facts: CancellationFacts | undefined = booking.data
    ? {
        scheduledDate: booking.data.scheduledDate,
        timeSlot: booking.data.timeSlot,
        price: booking.data.price,
        paymentMethod: booking.data.paymentMethod,
        paymentStatus: booking.data.paymentStatus,
        amountPaid: booking.data.amountPaid,
      }
    : undefined;
  const terms = facts ? termsNow(facts, now) : undefined;
  const outcome = facts && terms ? cancellationOutcome(facts, terms, waive) : undefined;

  const onOk = async () => {
    const trimmed = reason.trim();
    if (!trimmed) return setReasonError(CANCEL_REASON_REQUIRED);
    if (trimmed.length > REASON_MAX) return setReasonError('The reason is too long (500 characters at most)');
    await cancel.mutateAsync({ jobId: job.id, reason: trimmed, waiveFee: waive }).then(() => {
      notify.success('Job Cancelled', `Job ${job.jobNumber} has been cancelled and its time slot freed.`);
      onClose();
    }, failureReported);
  };

  return (
    <Modal
      open={open}
      title={`Cancel Job ${job.jobNumber}`}
      okText="Cancel Job"
      okButtonProps={{ danger: true, disabled: !outcome }}
      cancelText="Keep Job"
      onOk={() => void onOk()}
      onCancel={onClose}
      confirmLoading={cancel.isPending}
      destroyOnHidden
    >
      <p className="dash-muted">
        Booked for {formatDate(job.scheduledDate)}, {job.timeSlot}. The time slot is freed at once.
      </p>
      {booking.isPending && (
        <div role="status">
          <Spin size="small" /> Working out the cancellation terms…
        </div>
      )}
      {booking.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title="The cancellation terms could not be loaded"
          description={errorMessage(booking.error, 'Please try again.')}
        />
      )}
      {outcome && (
        <section aria-label="Cancellation terms" className="dash-cancel-terms">
          <p>
            <strong>{outcome.band}</strong>
          </p>
          {outcome.refund && <p>{outcome.refund}</p>}
          <p>{outcome.fee}</p>
        </section>
      )}
      <Form layout="vertical" component="div">
        <Form.Item
          label="Reason"
          htmlFor="cancel-reason"
          required
          validateStatus={reasonError ? 'error' : undefined}
          help={reasonError ? <span id="cancel-reason-error">{reasonError}</span> : undefined}
        >
          <Input.TextArea
            id="cancel-reason"
            value={reason}
            maxLength={REASON_MAX}
            rows={3}
            onChange={(e) => {
              setReason(e.target.value);
              if (reasonError) setReasonError(null);
            }}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? 'cancel-reason-error' : undefined}
          />
        </Form.Item>
        {terms && terms.fee > 0n && (
          <Checkbox checked={waive} onChange={(e) => setWaive(e.target.checked)}>
            Waive the fee
          </Checkbox>
        )}
      </Form>
    </Modal>
  );
}

import { Alert, Modal, Spin } from 'antd';
import { errorMessage } from '@tyres/platform';
import { useBookingCancellation } from '../api/bookings-staff';
import type { Job } from '../api/types';
import { formatDate } from '../lib/dates';
import { noShowCharge } from './cancellation';

/**
 * Mark no-show (issue 18, admin): a confirmation that states the charge before staff confirm it. The policy charges
 * a no-show in full (the kernel's `noShowTerms`): a prepaid booking keeps the whole charge, a pay-on-site one is
 * invoiced the job's price. The price and what the card was charged come from booking (the same answer the Cancel
 * dialog reads). `onConfirm` records it; the dialog stays open (and the caller toasts) when it fails.
 */
export function NoShowDialog({
  job,
  open,
  onClose,
  onConfirm,
  confirming = false,
}: {
  job: Job;
  open: boolean;
  onClose: () => void;
  onConfirm: () => Promise<boolean>;
  confirming?: boolean;
}) {
  const booking = useBookingCancellation(job.id, open);
  const charge = booking.data
    ? noShowCharge({
        scheduledDate: booking.data.scheduledDate,
        timeSlot: booking.data.timeSlot,
        price: booking.data.price,
        paymentMethod: booking.data.paymentMethod,
        paymentStatus: booking.data.paymentStatus,
        amountPaid: booking.data.amountPaid,
      })
    : undefined;
  return (
    <Modal
      open={open}
      title={`Mark Job ${job.jobNumber} as No-Show?`}
      okText="Mark No-Show"
      okButtonProps={{ danger: true, disabled: !charge }}
      cancelText="Back"
      confirmLoading={confirming}
      onOk={async () => {
        if (await onConfirm()) onClose();
      }}
      onCancel={onClose}
      destroyOnHidden
    >
      <p>
        The customer was not there for the booking on {formatDate(job.scheduledDate)}, {job.timeSlot}.
      </p>
      {booking.isPending && (
        <div role="status">
          <Spin size="small" /> Working out the charge…
        </div>
      )}
      {booking.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title="The charge could not be worked out"
          description={errorMessage(booking.error, 'Please try again.')}
        />
      )}
      {charge && <p className="dash-no-show-charge">{charge}</p>}
    </Modal>
  );
}

import { useState } from 'react';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bookingApi } from '../api/client';
import { invalidateJobs } from '../api/jobs';
import { failureReported, failureToast } from '../api/mutation-toasts';
import type { Job } from '../api/types';
import { useDashboard } from '../context';
import { useNotify } from '../hooks/useNotify';

/** What every service shows in place of an erased customer's name (packages/events ERASED_CUSTOMER_NAME). */
export const ERASED_CUSTOMER = 'Erased customer';
/**
 * Whether the job's customer was erased on request: the name every service writes in place of theirs (their phone is
 * then the placeholder "Erased" and their email an undeliverable .invalid address, never to be called or written to).
 */
export function isErasedCustomer(job: Pick<Job, 'customer'>): boolean {
  return job.customer?.name === ERASED_CUSTOMER;
}
/** Booking's message for a missing reason (POST …/erase-customer answers it too). */
export const ERASE_REASON_REQUIRED = 'Please give the reason or request reference for the erasure';
const REASON_MAX = 500;

/**
 * POST /api/dashboard/bookings/{jobId}/erase-customer { reason, confirm }: booking erases the customer of the job's
 * booking (every booking of theirs) and tells every service (CustomerErased). Resolves once booking answered; the
 * job lists refetch (the jobs service applies the event a moment later, and the live feed refreshes it again).
 */
export function useEraseCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { jobId: string; reason: string }) =>
      bookingApi.post('/api/dashboard/bookings/{jobId}/erase-customer', {
        params: { jobId: input.jobId },
        body: { reason: input.reason, confirm: true },
      }),
    meta: failureToast({ errorTitle: 'Erase Failed', errorFallback: 'Failed to erase the customer data.' }),
    onSettled: () => invalidateJobs(queryClient),
  });
}

/**
 * Issue 18 (privacy, APP 11.2): "Erase customer data" in the job detail, for admins. The dialog names the customer,
 * says what goes and what is kept (invoices for five years, shown as "Erased customer") and that it cannot be
 * undone, and asks for the reason or the request's reference.
 */
export function EraseCustomerAction({ job }: { job: Job }) {
  const { isAdmin } = useDashboard();
  const [open, setOpen] = useState(false);
  if (!isAdmin) return null;
  const erased = isErasedCustomer(job);
  return (
    <section className="dash-detail__section" aria-labelledby="jd-privacy">
      <h3 id="jd-privacy" className="dash-detail__heading">
        Privacy
      </h3>
      {erased ? (
        <p className="dash-muted">This customer’s personal data has been erased on request.</p>
      ) : (
        <Button danger onClick={() => setOpen(true)}>
          Erase customer data
        </Button>
      )}
      {open && !erased && <EraseCustomerDialog job={job} onClose={() => setOpen(false)} />}
    </section>
  );
}

export function EraseCustomerDialog({ job, onClose }: { job: Job; onClose: () => void }) {
  const notify = useNotify();
  const erase = useEraseCustomer();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const name = job.customer?.name ?? 'this customer';

  const onOk = async () => {
    const trimmed = reason.trim();
    if (!trimmed) return setReasonError(ERASE_REASON_REQUIRED);
    await erase.mutateAsync({ jobId: job.id, reason: trimmed }).then((answer) => {
      const jobs = answer.jobIds.length;
      notify.success(
        'Customer Data Erased',
        `${name}'s personal data was erased from ${jobs} ${jobs === 1 ? 'job' : 'jobs'}. Invoices are kept as "${ERASED_CUSTOMER}".`,
      );
      onClose();
    }, failureReported);
  };

  return (
    <Modal
      open
      title={`Erase ${name}'s data`}
      okText="Erase customer data"
      okButtonProps={{ danger: true }}
      cancelText="Keep data"
      onOk={() => void onOk()}
      onCancel={onClose}
      confirmLoading={erase.isPending}
      destroyOnHidden
    >
      <Alert type="warning" showIcon role="alert" title="This cannot be undone." />
      <p>
        The name, phone, email, address, vehicle, notes, photos and messages of <strong>{name}</strong> are
        removed from every booking of theirs, in every part of the system.
      </p>
      <p className="dash-muted">
        Their invoices are kept for five years, as tax law requires, with the customer shown as “
        {ERASED_CUSTOMER}”.
      </p>
      <Form layout="vertical" component="div">
        <Form.Item
          label="Reason or request reference"
          htmlFor="erase-reason"
          required
          validateStatus={reasonError ? 'error' : undefined}
          help={reasonError ? <span id="erase-reason-error">{reasonError}</span> : undefined}
        >
          <Input.TextArea
            id="erase-reason"
            value={reason}
            maxLength={REASON_MAX}
            rows={2}
            // Kept as the record of the erasure: the request, not the person.
            placeholder="e.g. Email of 25 Nov 2026, ref PRIV-12 (no personal details)"
            onChange={(e) => {
              setReason(e.target.value);
              if (reasonError) setReasonError(null);
            }}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? 'erase-reason-error' : undefined}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

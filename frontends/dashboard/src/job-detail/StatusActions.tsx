import { useState } from 'react';
import { Alert, Button, Checkbox, Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@tyres/platform';
import { jobsApi } from '../api/client';
import { existingInvoiceMessage, invalidateInvoices, useGenerateInvoice } from '../api/billing';
import { invalidateJobs, useUpdateJobStatus } from '../api/jobs';
import type { Job } from '../api/types';
import type { JobStatus } from '../lib/constants';
import { useNotify } from '../hooks/useNotify';
import { enRouteEta } from '../lib/dates';
import { dialable } from '../lib/format';
import { isErasedCustomer } from './EraseCustomerAction';
import { enRouteSmsText, statusAction } from './progress';

/**
 * The toast text while the customer SMS is on its way. It is never called sent here: only notify knows whether a
 * provider accepted it, and says so over the dashboard's live connection (the `sms_delivery` message).
 */
export const smsPendingNote = (eta: string) => ` Sending the customer an SMS with ETA ${eta}…`;
export const SMS_REFUSED_NOTE = ' The customer SMS could not be sent to this phone number.';

/** A status change that failed (the mutation cache has toasted it). */
const failed = () => false;

/** Polls the job until its status is no longer `from` (true), or gives up after `timeoutMs` (false). */
async function movedOnFrom(jobId: string, from: string, timeoutMs = 8000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const current = await jobsApi.get('/api/dashboard/jobs/{id}', { params: { id: jobId } });
      if (current.status !== from) return true;
    } catch {
      return false;
    }
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

/**
 * The status button of the job detail (spec section 4): Start Work (En Route) offering the customer SMS with an
 * ETA 30 minutes from now, Complete Work, Generate Invoice (then the job moves to invoiced), Mark as Paid, and
 * "Job Complete" once paid. A job that already has an invoice is not invoiced twice: billing answers 409 and
 * `onInvoiceExists` shows that invoice.
 */
export function StatusActions({
  job,
  onInvoiceExists,
}: {
  job: Job;
  onInvoiceExists?: (existing: { message: string }) => void;
}) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const updateStatus = useUpdateJobStatus();
  const generate = useGenerateInvoice();
  const [startOpen, setStartOpen] = useState(false);
  const [sendSms, setSendSms] = useState(true);
  const [eta, setEta] = useState(() => enRouteEta());
  const action = statusAction(job.status);
  // An erased customer's contact details are placeholders: nothing can be sent to them.
  const erased = isErasedCustomer(job);

  // A failure is toasted by the mutation cache ("Update Failed"); the Start Work modal then stays open.
  const changeStatus = (to: JobStatus, success: [string, string], notifyCustomer?: boolean) =>
    updateStatus.mutateAsync({ id: job.id, status: to, notifyCustomer }).then((result) => {
      const smsNote = notifyCustomer
        ? result?.smsRequested === false
          ? SMS_REFUSED_NOTE
          : smsPendingNote(eta)
        : '';
      notify.success(success[0], success[1] + smsNote);
      return true;
    }, failed);

  const onGenerate = async () => {
    let invoiceNumber: string | undefined;
    try {
      const answer = await generate.mutateAsync(job.id);
      invoiceNumber = answer?.customerInvoice?.invoiceNumber;
    } catch (error) {
      // Other failures are toasted by the mutation cache ("Invoice Generation Failed").
      const message = existingInvoiceMessage(error);
      if (message) {
        // Not a failure: the job is invoiced already (e.g. a prepaid booking's paid invoice). Show that one.
        notify.success('Invoice Already Exists', message);
        await invalidateInvoices(queryClient);
        onInvoiceExists?.({ message });
      }
      return;
    }
    // The job then moves to invoiced: the jobs service does that itself when billing announces the invoice. Wait
    // for it briefly; only if it has not happened does the dashboard move the job (a 409 then means it just did).
    if (!(await movedOnFrom(job.id, 'completed'))) {
      const moved = await updateStatus.mutateAsync({ id: job.id, status: 'invoiced' }).then(
        () => true,
        // A 409 (the jobs service just did it) is quiet and fine; anything else was toasted: stop there.
        (error: unknown) => error instanceof ApiError && error.status === 409,
      );
      if (!moved) return;
    }
    await invalidateJobs(queryClient);
    notify.success(
      'Invoice Generated',
      invoiceNumber ? `Invoice ${invoiceNumber} has been created.` : 'The invoice has been created.',
    );
  };

  const busy = updateStatus.isPending || generate.isPending;
  const smsText = enRouteSmsText(job.customer?.name ?? '', eta);

  switch (action.kind) {
    case 'start':
      return (
        <>
          <Button
            type="primary"
            size="large"
            block
            loading={busy}
            onClick={() => {
              setEta(enRouteEta());
              setSendSms(!erased);
              setStartOpen(true);
            }}
          >
            {action.label}
          </Button>
          <Modal
            open={startOpen}
            title="Start Work (En Route)"
            okText="Start Work"
            cancelText="Cancel"
            confirmLoading={updateStatus.isPending}
            onCancel={() => setStartOpen(false)}
            onOk={async () => {
              if (
                await changeStatus(
                  action.to,
                  ['Work Started', `Job ${job.jobNumber} is now in progress.`],
                  sendSms && !erased,
                )
              )
                setStartOpen(false);
            }}
            destroyOnHidden
          >
            <p>
              You are on your way to <strong>{job.customer?.name}</strong>. Estimated arrival:{' '}
              <strong>{eta}</strong> (30 minutes from now).
            </p>
            {erased ? (
              <p className="dash-muted">
                The customer’s contact details were erased on request: no SMS can be sent.
              </p>
            ) : (
              <>
                <Checkbox checked={sendSms} onChange={(e) => setSendSms(e.target.checked)}>
                  Send the customer an SMS with the ETA
                </Checkbox>
                <blockquote className="dash-sms-preview" aria-label="SMS preview">
                  {smsText}
                </blockquote>
                {job.customer?.phone && (
                  <a
                    className="dash-link"
                    href={`sms:${dialable(job.customer.phone)}?body=${encodeURIComponent(smsText)}`}
                  >
                    Or send it from this phone instead
                  </a>
                )}
              </>
            )}
          </Modal>
        </>
      );
    case 'complete':
      return (
        <Button
          type="primary"
          size="large"
          block
          loading={busy}
          onClick={() =>
            void changeStatus(action.to, ['Work Completed', `Job ${job.jobNumber} is completed.`])
          }
        >
          {action.label}
        </Button>
      );
    case 'invoice':
      return (
        <Button type="primary" size="large" block loading={busy} onClick={() => void onGenerate()}>
          {action.label}
        </Button>
      );
    case 'paid':
      return (
        <Button
          type="primary"
          size="large"
          block
          loading={busy}
          onClick={() =>
            void changeStatus(action.to, ['Payment Recorded', `Job ${job.jobNumber} is marked as paid.`])
          }
        >
          {action.label}
        </Button>
      );
    case 'done':
      return (
        <Alert type="success" showIcon title="Job Complete" description="This job is finished and paid." />
      );
    default:
      return null;
  }
}

import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Col, Form, Input, Modal, Row } from 'antd';
import { MAX_TYRE_QUANTITY, MIN_TYRE_QUANTITY, vehicleYearProblem } from '@tyres/kernel';
import { errorMessage, type RequestBodyOf } from '@tyres/platform';
import type { paths as JobsPaths } from '@tyres/platform/api-types/jobs';
import { jobsApi } from '../api/client';
import { invalidateJobs } from '../api/jobs';
import { failureReported, failureToast } from '../api/mutation-toasts';
import type { Job } from '../api/types';
import { useDashboard } from '../context';
import { useNotify } from '../hooks/useNotify';
import { useJobHistory } from './JobHistory';

export type JobEditBody = RequestBodyOf<JobsPaths, '/api/dashboard/jobs/{id}', 'patch'>;

/** The jobs service's messages, checked here first so the admin sees them at the field. */
export const PRICE_INVALID =
  'Price must be an amount of 0 or more with at most 2 decimal places, e.g. "189.50"';
export const REASON_REQUIRED = 'Please give a reason for the change';
export const NOTHING_TO_EDIT = 'Change at least one field';
export const TYRE_QUANTITY_INVALID = `Tyres must be a whole number from ${MIN_TYRE_QUANTITY} to ${MAX_TYRE_QUANTITY}, or left empty`;
const PRICE = /^\d+(\.\d{1,2})?$/;
const WHOLE = /^\d+$/;

/** A whole-number entry: digits only (no "two", "2,5", "2.5" or "-1"). */
function wholeNumber(text: string): number | undefined {
  const t = text.trim();
  return WHOLE.test(t) ? Number(t) : undefined;
}

/**
 * The numeric fields' problems, checked before anything is sent: an entry that is not a whole number within the
 * service's bounds is an error at its field, never sent (and never sent as null). Only an emptied tyre quantity
 * clears it. The year is checked when the vehicle is sent (any part of it changed), since it is sent whole.
 */
export function numberProblems(
  job: Job,
  values: Values,
  now: Date = new Date(),
): Partial<Record<'year' | 'tyreQuantity', string>> {
  const before = valuesOf(job);
  const changed = (k: keyof Values) => values[k].trim() !== before[k].trim();
  const problems: Partial<Record<'year' | 'tyreQuantity', string>> = {};
  if (changed('make') || changed('model') || changed('year') || changed('registration')) {
    const year = wholeNumber(values.year);
    const problem = vehicleYearProblem(year ?? Number.NaN, now);
    if (problem) problems.year = problem;
  }
  if (changed('tyreQuantity') && values.tyreQuantity.trim()) {
    const qty = wholeNumber(values.tyreQuantity);
    if (qty === undefined || qty < MIN_TYRE_QUANTITY || qty > MAX_TYRE_QUANTITY)
      problems.tyreQuantity = TYRE_QUANTITY_INVALID;
  }
  return problems;
}

/** PATCH /api/dashboard/jobs/{id}: the changed fields, the reason and the edit version the form was opened at. */
export function useEditJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; body: JobEditBody }) =>
      jobsApi.patch('/api/dashboard/jobs/{id}', { params: { id: input.id }, body: input.body }),
    meta: failureToast({ errorTitle: 'Edit Failed', errorFallback: 'Failed to save the job.' }),
    // The job, the lists and the history (under the job's key) refetch.
    onSettled: () => invalidateJobs(queryClient),
  });
}

export interface Values {
  customerValue: string;
  address: string;
  suburb: string;
  postcode: string;
  make: string;
  model: string;
  year: string;
  registration: string;
  tyreSize: string;
  tyreQuantity: string;
  tyreBrand: string;
  notes: string;
}

function valuesOf(job: Job): Values {
  return {
    customerValue: job.customerValue,
    address: job.address,
    suburb: job.suburb,
    postcode: job.postcode,
    make: job.vehicle?.make ?? '',
    model: job.vehicle?.model ?? '',
    year: job.vehicle?.year ? String(job.vehicle.year) : '',
    registration: job.vehicle?.registration ?? '',
    tyreSize: job.tyreSize ?? '',
    tyreQuantity: job.tyreQuantity ? String(job.tyreQuantity) : '',
    tyreBrand: job.tyreBrand ?? '',
    notes: job.notes ?? '',
  };
}

/**
 * The body of an edit: only the fields the admin changed (the vehicle as a whole when any part of it changed), or
 * undefined when nothing changed. Numbers the form holds as text are sent as numbers; a blank optional is null.
 * Throws on a numeric entry that is not a whole number (callers check `numberProblems` first): an unparsable entry is
 * never sent, in particular never as null (which would clear the field).
 */
export function editBody(job: Job, values: Values, reason: string, version: number): JobEditBody | undefined {
  const before = valuesOf(job);
  const changed = (k: keyof Values) => values[k].trim() !== before[k].trim();
  const body: Partial<JobEditBody> = {};
  if (changed('customerValue')) body.customerValue = values.customerValue.trim();
  if (changed('address')) body.address = values.address.trim();
  if (changed('suburb')) body.suburb = values.suburb.trim();
  if (changed('postcode')) body.postcode = values.postcode.trim();
  if (changed('make') || changed('model') || changed('year') || changed('registration'))
    body.vehicle = {
      make: values.make.trim(),
      model: values.model.trim(),
      year: wholeOrThrow(values.year, 'year'),
      registration: values.registration.trim(),
    } as JobEditBody['vehicle'];
  if (changed('tyreSize')) body.tyreSize = values.tyreSize.trim() || null;
  if (changed('tyreQuantity'))
    body.tyreQuantity = values.tyreQuantity.trim() ? wholeOrThrow(values.tyreQuantity, 'tyreQuantity') : null;
  if (changed('tyreBrand')) body.tyreBrand = values.tyreBrand.trim() || null;
  if (changed('notes')) body.notes = values.notes.trim() || null;
  if (Object.keys(body).length === 0) return undefined;
  return { ...body, reason: reason.trim(), version } as JobEditBody;
}

function wholeOrThrow(text: string, field: string): number {
  const n = wholeNumber(text);
  if (n === undefined) throw new Error(`${field} is not a whole number`);
  return n;
}

/** Issue 19: "Edit Job" in the job detail, for admins: the button and its dialog. */
export function EditJobAction({ job }: { job: Job }) {
  const { isAdmin } = useDashboard();
  const [open, setOpen] = useState(false);
  if (!isAdmin) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>Edit Job</Button>
      {open && <EditJobDialog job={job} onClose={() => setOpen(false)} />}
    </>
  );
}

export function EditJobDialog({ job, onClose }: { job: Job; onClose: () => void }) {
  const notify = useNotify();
  const edit = useEditJob();
  const history = useJobHistory(job.id);
  // The version this form edits: read once, so an edit made meanwhile by someone else is a conflict, not overwritten.
  const [version] = useState<number | undefined>(() => history.data?.version);
  const seenVersion = version ?? history.data?.version;
  const [values, setValues] = useState<Values>(() => valuesOf(job));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<keyof Values | 'reason' | 'form', string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const set = (k: keyof Values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [k]: e.target.value }));

  const onOk = async () => {
    const problems: typeof errors = {};
    if (!PRICE.test(values.customerValue.trim())) problems.customerValue = PRICE_INVALID;
    Object.assign(problems, numberProblems(job, values));
    if (!reason.trim()) problems.reason = REASON_REQUIRED;
    const numbersOk = !problems.year && !problems.tyreQuantity;
    const body =
      seenVersion === undefined || !numbersOk ? undefined : editBody(job, values, reason, seenVersion);
    if (seenVersion !== undefined && numbersOk && !body) problems.form = NOTHING_TO_EDIT;
    setErrors(problems);
    setServerError(null);
    if (Object.keys(problems).length > 0 || !body) return;
    await edit.mutateAsync({ id: job.id, body }).then(
      () => {
        notify.success('Job Updated', `Job ${job.jobNumber} was updated.`);
        onClose();
      },
      (error: unknown) => {
        setServerError(errorMessage(error, 'Failed to save the job.'));
        return failureReported();
      },
    );
  };

  const field = (k: keyof Values, label: string, extra: { inputMode?: 'decimal' | 'numeric' } = {}) => (
    <Form.Item
      label={label}
      htmlFor={`edit-job-${k}`}
      validateStatus={errors[k] ? 'error' : undefined}
      help={errors[k] ? <span id={`edit-job-${k}-error`}>{errors[k]}</span> : undefined}
    >
      <Input
        id={`edit-job-${k}`}
        value={values[k]}
        onChange={set(k)}
        inputMode={extra.inputMode}
        aria-invalid={errors[k] ? true : undefined}
        aria-describedby={errors[k] ? `edit-job-${k}-error` : undefined}
      />
    </Form.Item>
  );

  return (
    <Modal
      open
      title={`Edit Job ${job.jobNumber}`}
      okText="Save Changes"
      cancelText="Cancel"
      onOk={() => void onOk()}
      okButtonProps={{ disabled: seenVersion === undefined }}
      onCancel={onClose}
      confirmLoading={edit.isPending}
      destroyOnHidden
    >
      {history.isError && (
        <Alert type="error" showIcon title="Could not load the job's history; try again." />
      )}
      <Form layout="vertical" component="div">
        {field('customerValue', 'Price (inc. GST)', { inputMode: 'decimal' })}
        {field('address', 'Address')}
        <Row gutter={12}>
          <Col span={14}>{field('suburb', 'Suburb')}</Col>
          <Col span={10}>{field('postcode', 'Postcode', { inputMode: 'numeric' })}</Col>
        </Row>
        <Row gutter={12}>
          <Col span={12}>{field('make', 'Vehicle make')}</Col>
          <Col span={12}>{field('model', 'Vehicle model')}</Col>
        </Row>
        <Row gutter={12}>
          <Col span={12}>{field('year', 'Vehicle year', { inputMode: 'numeric' })}</Col>
          <Col span={12}>{field('registration', 'Registration')}</Col>
        </Row>
        <Row gutter={12}>
          <Col span={10}>{field('tyreSize', 'Tyre size')}</Col>
          <Col span={6}>{field('tyreQuantity', 'Tyres', { inputMode: 'numeric' })}</Col>
          <Col span={8}>{field('tyreBrand', 'Tyre brand')}</Col>
        </Row>
        <Form.Item label="Notes" htmlFor="edit-job-notes">
          <Input.TextArea
            id="edit-job-notes"
            value={values.notes}
            onChange={set('notes')}
            rows={2}
            maxLength={2000}
          />
        </Form.Item>
        <Form.Item
          label="Reason for the change"
          htmlFor="edit-job-reason"
          required
          validateStatus={errors.reason ? 'error' : undefined}
          help={errors.reason ? <span id="edit-job-reason-error">{errors.reason}</span> : undefined}
        >
          <Input.TextArea
            id="edit-job-reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            rows={2}
            maxLength={500}
            aria-invalid={errors.reason ? true : undefined}
            aria-describedby={errors.reason ? 'edit-job-reason-error' : undefined}
          />
        </Form.Item>
      </Form>
      {errors.form && <Alert type="warning" showIcon role="alert" title={errors.form} />}
      {serverError && <Alert type="error" showIcon role="alert" title={serverError} />}
    </Modal>
  );
}

import { useQuery } from '@tanstack/react-query';
import { Alert, Spin } from 'antd';
import type { ResponseOf } from '@tyres/platform';
import type { paths as JobsPaths } from '@tyres/platform/api-types/jobs';
import { jobsApi } from '../api/client';
import { keys } from '../api/keys';
import { formatTimestamp } from '../lib/dates';
import { formatMoney } from '../lib/money';

export type JobHistoryAnswer = ResponseOf<JobsPaths, '/api/dashboard/jobs/{id}/history', 'get'>;
type Change = JobHistoryAnswer['edits'][number]['changes'][number];

/** The key of a job's history: under the job's key, so every job invalidation refetches it too. */
export const jobHistoryKey = (jobId: string) => [...keys.job(jobId), 'history'] as const;

/** GET /api/dashboard/jobs/{id}/history: the admin's edits, newest first, and the job's edit version. */
export function useJobHistory(jobId: string, enabled = true) {
  return useQuery({
    queryKey: jobHistoryKey(jobId),
    queryFn: () => jobsApi.get('/api/dashboard/jobs/{id}/history', { params: { id: jobId } }),
    enabled,
  });
}

export const FIELD_LABELS: Record<Change['field'], string> = {
  customerValue: 'Price',
  address: 'Address',
  suburb: 'Suburb',
  postcode: 'Postcode',
  vehicle: 'Vehicle',
  notes: 'Notes',
  tyreSize: 'Tyre size',
  tyreQuantity: 'Tyre quantity',
  tyreBrand: 'Tyre brand',
};

/** A field's value as a person reads it. */
export function showValue(field: Change['field'], value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'customerValue') return formatMoney(value);
  if (field === 'vehicle' && typeof value === 'object') {
    const v = value as {
      make?: string;
      model?: string;
      year?: number;
      color?: string | null;
      registration?: string;
    };
    return [
      v.year,
      v.make,
      v.model,
      v.color ? `(${v.color})` : '',
      v.registration ? `· ${v.registration}` : '',
    ]
      .filter(Boolean)
      .join(' ');
  }
  return String(value);
}

/**
 * Issue 19: the job's edit history in the job detail: who changed what, when and why, each field before → after.
 * Hidden while the job has never been edited.
 */
export function JobHistory({ jobId }: { jobId: string }) {
  const history = useJobHistory(jobId);
  if (history.isPending)
    return (
      <section className="dash-detail__section" aria-labelledby="jd-history" aria-busy="true">
        <h3 id="jd-history" className="dash-detail__heading">
          History
        </h3>
        <Spin size="small" />
      </section>
    );
  if (history.isError)
    return (
      <section className="dash-detail__section" aria-labelledby="jd-history">
        <h3 id="jd-history" className="dash-detail__heading">
          History
        </h3>
        <Alert type="error" showIcon title="Could not load the job's history" />
      </section>
    );
  // An answer without edits (never edited, or not the history at all) shows nothing.
  const edits = Array.isArray(history.data.edits) ? history.data.edits : [];
  if (edits.length === 0) return null;
  return (
    <section className="dash-detail__section" aria-labelledby="jd-history">
      <h3 id="jd-history" className="dash-detail__heading">
        History
      </h3>
      <ol className="dash-history" aria-label="Edits, newest first">
        {edits.map((edit) => (
          <li key={edit.version} className="dash-history__entry">
            <p className="dash-history__meta">
              <strong>{edit.editedBy.username}</strong> · {formatTimestamp(edit.editedAt)}
            </p>
            <p className="dash-history__reason">Reason: {edit.reason}</p>
            <ul className="dash-history__changes">
              {edit.changes.map((c) => (
                <li key={c.field}>
                  {FIELD_LABELS[c.field]}:{' '}
                  {c.erased ? (
                    <span className="dash-muted">erased</span>
                  ) : (
                    <>
                      {showValue(c.field, c.before)} → {showValue(c.field, c.after)}
                    </>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}

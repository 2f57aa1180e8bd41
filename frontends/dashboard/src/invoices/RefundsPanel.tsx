import { Alert, Button, Spin, Tag } from 'antd';
import { errorMessage } from '@tyres/platform';
import { useRefunds, useRetryRefund } from '../api/refunds';
import { useNotify } from '../hooks/useNotify';
import { formatTimestamp } from '../lib/dates';
import { formatMoney } from '../lib/money';

const STATUS: Record<string, { label: string; color: string }> = {
  requested: { label: 'Requested', color: 'default' },
  pending: { label: 'Pending', color: 'processing' },
  succeeded: { label: 'Succeeded', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

/**
 * Card refunds of cancelled prepaid bookings (issue 18), newest first: the job, the amount, where it stands with
 * Stripe, and for a failed one its error and a Retry. Admin only (the Invoices tab is).
 */
export function RefundsPanel({ enabled = true }: { enabled?: boolean }) {
  const notify = useNotify();
  const refunds = useRefunds(20, enabled);
  const retry = useRetryRefund();
  const items = refunds.data?.items ?? [];
  return (
    <section className="dash-panel" aria-labelledby="dash-refunds-title" style={{ marginTop: 16 }}>
      <div className="dash-panel__bar">
        <h2 id="dash-refunds-title" className="dash-panel__title">
          Card Refunds
          {refunds.data && <span className="dash-panel__count"> ({refunds.data.total})</span>}
        </h2>
      </div>
      {refunds.isPending && enabled && (
        <div role="status">
          <Spin size="small" /> Loading refunds…
        </div>
      )}
      {refunds.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title="Failed to fetch refunds"
          description={errorMessage(refunds.error, 'Please try again.')}
        />
      )}
      {refunds.data && items.length === 0 && <p className="dash-muted">No refunds yet.</p>}
      {items.length > 0 && (
        <ul className="dash-purchases" aria-label="Card refunds">
          {items.map((r) => {
            const status = STATUS[r.status] ?? { label: r.status, color: 'default' };
            return (
              <li key={r.id} className="dash-purchase" aria-label={`Refund for ${r.jobNumber}`}>
                <strong>{r.jobNumber}</strong> <span className="dash-money">{formatMoney(r.amount)}</span>{' '}
                <span className="dash-muted">
                  ({r.refundPercent}%{r.mode === 'test' ? ', test mode' : ''})
                </span>{' '}
                <Tag color={status.color}>{status.label}</Tag>
                <span className="dash-muted">
                  {r.status === 'succeeded' && r.succeededAt
                    ? `Refunded ${formatTimestamp(r.succeededAt)}`
                    : `Requested ${formatTimestamp(r.requestedAt)}`}
                </span>
                {r.status === 'failed' && (
                  <>
                    {r.lastError && <div role="note">{r.lastError}</div>}
                    <Button
                      size="small"
                      loading={retry.isPending && retry.variables === r.id}
                      onClick={() =>
                        retry.mutate(r.id, {
                          onSuccess: () =>
                            notify.success(
                              'Refund Retry Requested',
                              `The refund for ${r.jobNumber} is asked for again.`,
                            ),
                        })
                      }
                    >
                      Retry
                    </Button>
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

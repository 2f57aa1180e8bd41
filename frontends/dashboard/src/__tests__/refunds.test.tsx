import '../testing/polyfills';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RefundsPanel } from '../invoices/RefundsPanel';
import { renderWithApp, stubFetch } from '../testing/render';

/** Billing's GET /api/dashboard/refunds items (issue 18). */
function refund(over: Record<string, unknown> = {}) {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    jobId: '11111111-1111-4111-8111-111111111111',
    jobNumber: 'JOB-000123',
    paymentIntentId: 'pi_123',
    amount: '762.55',
    refundPercent: 100,
    currency: 'aud',
    mode: 'test',
    status: 'succeeded',
    providerRefundId: 're_123',
    attempts: 1,
    lastError: null,
    requestedAt: '2026-12-08T02:00:00.000Z',
    succeededAt: '2026-12-08T02:00:05.000Z',
    failedAt: null,
    updatedAt: '2026-12-08T02:00:05.000Z',
    ...over,
  };
}

describe('Card refunds (Invoices tab)', () => {
  test('each refund with its job, amount and status; a failed one shows why and can be retried', async () => {
    const failed = refund({
      id: '33333333-3333-4333-8333-333333333333',
      jobNumber: 'JOB-000124',
      amount: '381.28',
      refundPercent: 50,
      status: 'failed',
      succeededAt: null,
      lastError: 'Stripe reported the refund failed: expired_or_canceled_card',
    });
    const calls = stubFetch({
      'GET /api/dashboard/refunds': { body: [refund(), failed], headers: { 'X-Total-Count': '2' } },
      'POST /api/dashboard/refunds/*': {
        status: 202,
        body: {
          success: true,
          message: 'Refund retry requested',
          refund: { ...failed, status: 'requested' },
        },
      },
    });
    renderWithApp(<RefundsPanel />);
    const list = await screen.findByRole('list', { name: 'Card refunds' });
    const ok = within(list).getByRole('listitem', { name: 'Refund for JOB-000123' });
    expect(ok).toHaveTextContent('$762.55');
    expect(ok).toHaveTextContent('Succeeded');
    expect(ok).toHaveTextContent('test mode');
    expect(within(ok).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    const bad = within(list).getByRole('listitem', { name: 'Refund for JOB-000124' });
    expect(bad).toHaveTextContent('Failed');
    expect(bad).toHaveTextContent('expired_or_canceled_card');
    await userEvent.click(within(bad).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.method === 'POST' && c.path === `/api/dashboard/refunds/${failed.id}/retry`),
      ).toBe(true),
    );
    expect(await screen.findByText('Refund Retry Requested')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Card Refunds/ })).toHaveTextContent('(2)');
  });

  test('none yet, and a list that cannot be loaded says so', async () => {
    stubFetch({ 'GET /api/dashboard/refunds': { body: [], headers: { 'X-Total-Count': '0' } } });
    const view = renderWithApp(<RefundsPanel />);
    expect(await screen.findByText('No refunds yet.')).toBeInTheDocument();
    view.unmount();
    stubFetch({
      'GET /api/dashboard/refunds': { status: 403, body: { message: 'Only an admin can do that' } },
    });
    renderWithApp(<RefundsPanel />);
    expect(await screen.findByText('Only an admin can do that', {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});

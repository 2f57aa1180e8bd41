import '../testing/polyfills';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EraseCustomerAction, ERASE_REASON_REQUIRED } from '../job-detail/EraseCustomerAction';
import { JobDetailDialog } from '../job-detail/JobDetailDialog';
import { job, jobDetail, renderWithApp, stubFetch, TECH } from '../testing/render';

const theJob = job();
const ERASE_PATH = `POST /api/dashboard/bookings/${theJob.id}/erase-customer`;
const ANSWER = {
  customerId: '0f4c2b9e-8d1a-4f3b-9a51-6f1e2d3c4b5a',
  erasedAt: '2026-11-25T01:00:00.000Z',
  erasedByUserId: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e',
  jobIds: [theJob.id],
  bookingIds: ['7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'],
  alreadyErased: false,
};

describe('Erase customer data (privacy, admin)', () => {
  test('the dialog names the customer, says it cannot be undone and what is kept; the reason is required', async () => {
    const calls = stubFetch({ [ERASE_PATH]: ANSWER, 'GET /api/dashboard/jobs*': [] });
    renderWithApp(<EraseCustomerAction job={theJob} />);
    await userEvent.click(screen.getByRole('button', { name: 'Erase customer data' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent("Erase Olivia Smith's data");
    expect(dialog).toHaveTextContent('This cannot be undone.');
    expect(dialog).toHaveTextContent('Their invoices are kept for five years');
    expect(dialog).toHaveTextContent('“Erased customer”');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase customer data' }));
    expect(await within(dialog).findByText(ERASE_REASON_REQUIRED)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await userEvent.type(
      within(dialog).getByLabelText('Reason or request reference'),
      'Email request, ref PRIV-7',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase customer data' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        reason: 'Email request, ref PRIV-7',
        confirm: true,
      }),
    );
    expect(await screen.findByText('Customer Data Erased')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('"Keep data" closes without erasing', async () => {
    const calls = stubFetch({ [ERASE_PATH]: ANSWER });
    renderWithApp(<EraseCustomerAction job={theJob} />);
    await userEvent.click(screen.getByRole('button', { name: 'Erase customer data' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep data' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  test('an erased customer shows as erased, with no action', () => {
    stubFetch({});
    renderWithApp(
      <EraseCustomerAction
        job={job({ customer: { name: 'Erased customer', phone: 'Erased', email: 'erased@erased.invalid' } })}
      />,
    );
    expect(screen.getByText('This customer’s personal data has been erased on request.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Erase customer data' })).not.toBeInTheDocument();
  });

  test('technicians do not see it', () => {
    stubFetch({});
    renderWithApp(<EraseCustomerAction job={theJob} />, { user: TECH });
    expect(screen.queryByRole('button', { name: 'Erase customer data' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Privacy' })).not.toBeInTheDocument();
  });

  test('the job detail of an erased customer offers no call, SMS or email, and links no placeholder', async () => {
    const erased = job({
      customer: { name: 'Erased customer', phone: 'Erased', email: 'erased-1@erased.invalid' },
    });
    stubFetch({
      'GET /api/dashboard/jobs/*': jobDetail(erased),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      [`GET /api/dashboard/bookings/${erased.id}/cancellation`]: {
        status: 404,
        body: { message: 'No booking for this job' },
      },
    });
    renderWithApp(<JobDetailDialog jobId={erased.id} onClose={() => undefined} />);
    expect(
      await screen.findByText(
        'The customer’s contact details were erased on request: there is no one to call, text or email.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    for (const name of [/^Call /, /^Send SMS to /, /^Email /])
      expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    expect(document.querySelector('a[href^="tel:"], a[href^="sms:"], a[href^="mailto:"]')).toBeNull();
    expect(screen.queryByText('erased-1@erased.invalid')).not.toBeInTheDocument();
  });
});

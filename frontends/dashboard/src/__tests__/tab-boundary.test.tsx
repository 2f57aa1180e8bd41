import '../testing/polyfills';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { DashboardHeader } from '../components/DashboardHeader';
import { NotificationCenter } from '../notifications/NotificationCenter';
import { DashboardPage } from '../pages/DashboardPage';
import { job, renderWithApp, stubFetch } from '../testing/render';

/** A schedule tab that renders what the server sends and breaks on a shape it does not expect. */
jest.mock('../tabs/ScheduleTab', () => ({
  ScheduleTab: function BrokenSchedule() {
    const query = useQuery<{ slots: string[] }>({ queryKey: ['/api/test/schedule-shape'] });
    if (!query.data) return <p>Loading schedule</p>;
    return <p>{`Schedule has ${query.data.slots.length} slots`}</p>;
  },
}));

function Frame() {
  return (
    <NotificationCenter>
      <DashboardHeader onLogout={() => undefined} loggingOut={false} />
      <DashboardPage onLogout={() => undefined} loggingOut={false} />
    </NotificationCenter>
  );
}

describe('error boundary per tab', () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    // React reports the caught render error on the console; expected here.
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  test('a tab that throws shows an error with Retry; the header and other tabs keep working; Retry refetches', async () => {
    let shapeCalls = 0;
    stubFetch({
      'GET /api/dashboard/jobs-with-details': { body: [job()], headers: { 'X-Total-Count': '1' } },
      // First answer has the wrong shape (the tab throws rendering it); the retry gets the right one.
      'GET /api/test/schedule-shape': () => (++shapeCalls === 1 ? {} : { slots: ['8-10 AM', '10-12 PM'] }),
    });
    renderWithApp(<Frame />, { path: '/dashboard?tab=schedule' });

    expect(await screen.findByRole('alert')).toHaveTextContent('Schedule could not be shown.');
    // The header still works.
    expect(screen.getByRole('button', { name: /new booking/i })).toBeInTheDocument();

    // Another tab works, and coming back starts the schedule afresh (still broken: the data is cached).
    await userEvent.click(screen.getByRole('tab', { name: 'Jobs' }));
    expect(await screen.findAllByText('JOB-000123')).not.toHaveLength(0);
    expect(screen.queryByText('Schedule could not be shown.')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Schedule' }));
    expect(await screen.findByText('Schedule could not be shown.')).toBeInTheDocument();
    expect(shapeCalls).toBe(1);

    // Retry: the boundary resets and the tab's data is loaded again.
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Schedule has 2 slots')).toBeInTheDocument();
    await waitFor(() => expect(shapeCalls).toBe(2));
  });
});

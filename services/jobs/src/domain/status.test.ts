import {
  canTransition,
  illegalTransitionMessage,
  JOB_STATUSES,
  normaliseStatusInput,
  timestampFieldFor,
  TRANSITIONS,
  type JobStatus,
} from './status';

describe('job status transitions', () => {
  const allowed: [JobStatus, JobStatus][] = [
    ['new', 'in-progress'],
    ['in-progress', 'completed'],
    ['completed', 'invoiced'],
    ['invoiced', 'paid'],
    ['new', 'cancelled'],
    ['in-progress', 'cancelled'],
  ];

  it('allows exactly new → in-progress → completed → invoiced → paid, and cancelling unfinished work', () => {
    const all = JOB_STATUSES.flatMap((from) =>
      JOB_STATUSES.map((to) => [from, to] as [JobStatus, JobStatus]),
    );
    const permitted = all.filter(([from, to]) => canTransition(from, to));
    expect(permitted.sort()).toEqual([...allowed].sort());
  });

  it.each(
    JOB_STATUSES.flatMap((from) =>
      JOB_STATUSES.filter((to) => !canTransition(from, to)).map((to) => [from, to]),
    ),
  )('refuses %s → %s with a message naming the current status', (from, to) => {
    const message = illegalTransitionMessage('JOB-1001', from as JobStatus, to as JobStatus);
    expect(message).toContain(from);
    expect(message).toContain('JOB-1001');
  });

  it('paid and cancelled are final', () => {
    expect(TRANSITIONS.paid).toEqual([]);
    expect(TRANSITIONS.cancelled).toEqual([]);
  });

  it('sets the timestamp of the status entered', () => {
    expect(timestampFieldFor('in-progress')).toBe('inProgressAt');
    expect(timestampFieldFor('completed')).toBe('completedAt');
    expect(timestampFieldFor('invoiced')).toBe('invoicedAt');
    expect(timestampFieldFor('paid')).toBe('paidAt');
    expect(timestampFieldFor('cancelled')).toBe('cancelledAt');
    expect(timestampFieldFor('new')).toBeUndefined();
  });

  it('names the current status and the allowed next step', () => {
    expect(illegalTransitionMessage('JOB-7', 'completed', 'in-progress')).toBe(
      'Cannot change job JOB-7 from completed to in-progress: the job is currently completed. From completed it can only move to invoiced.',
    );
    expect(illegalTransitionMessage('JOB-7', 'paid', 'paid')).toBe(
      'Cannot change job JOB-7 from paid to paid: the job is currently paid.',
    );
  });

  it('accepts the schedule spelling in_progress', () => {
    expect(normaliseStatusInput('in_progress')).toBe('in-progress');
    expect(normaliseStatusInput('paid')).toBe('paid');
  });
});

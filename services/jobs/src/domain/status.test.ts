import {
  canTransition,
  DASHBOARD_STATUSES,
  illegalTransitionMessage,
  invoiceSteps,
  isJobStatus,
  JOB_STATUSES,
  normaliseStatusInput,
  RESCHEDULABLE,
  STATUS_TIMESTAMP,
  stepTime,
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

  it('knows the six statuses, and the Jobs tab filter shows all but cancelled', () => {
    expect(JOB_STATUSES).toEqual(['new', 'in-progress', 'completed', 'invoiced', 'paid', 'cancelled']);
    expect(DASHBOARD_STATUSES).toEqual(['new', 'in-progress', 'completed', 'invoiced', 'paid']);
  });

  it('allows exactly new → in-progress → completed → invoiced → paid, and cancelling unfinished work', () => {
    const all = JOB_STATUSES.flatMap((from) =>
      JOB_STATUSES.map((to) => [from, to] as [JobStatus, JobStatus]),
    );
    const permitted = all.filter(([from, to]) => canTransition(from, to));
    expect(permitted.sort()).toEqual([...allowed].sort());
  });

  it('lists the moves from each status in the order the message names them', () => {
    expect(TRANSITIONS).toEqual({
      new: ['in-progress', 'cancelled'],
      'in-progress': ['completed', 'cancelled'],
      completed: ['invoiced'],
      invoiced: ['paid'],
      paid: [],
      cancelled: [],
    });
    expect(Object.isFrozen(TRANSITIONS)).toBe(true);
  });

  it.each(
    JOB_STATUSES.flatMap((from) =>
      JOB_STATUSES.filter((to) => !canTransition(from, to)).map((to) => [from, to]),
    ),
  )('refuses %s → %s with a message naming the current status', (from, to) => {
    const message = illegalTransitionMessage('JOB-1001', from as JobStatus, to as JobStatus);
    expect(message).toContain(`the job is currently ${from}.`);
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
    expect(STATUS_TIMESTAMP).toEqual({
      'in-progress': 'inProgressAt',
      completed: 'completedAt',
      invoiced: 'invoicedAt',
      paid: 'paidAt',
      cancelled: 'cancelledAt',
    });
  });

  it('names the current status and the allowed next steps', () => {
    expect(illegalTransitionMessage('JOB-7', 'completed', 'in-progress')).toBe(
      'Cannot change job JOB-7 from completed to in-progress: the job is currently completed. From completed it can only move to invoiced.',
    );
    expect(illegalTransitionMessage('JOB-7', 'new', 'paid')).toBe(
      'Cannot change job JOB-7 from new to paid: the job is currently new. From new it can only move to in-progress or cancelled.',
    );
    expect(illegalTransitionMessage('JOB-7', 'paid', 'paid')).toBe(
      'Cannot change job JOB-7 from paid to paid: the job is currently paid.',
    );
  });

  it('accepts the schedule spelling in_progress', () => {
    expect(normaliseStatusInput('in_progress')).toBe('in-progress');
    expect(normaliseStatusInput('in-progress')).toBe('in-progress');
    expect(normaliseStatusInput('paid')).toBe('paid');
    expect(normaliseStatusInput('')).toBe('');
  });

  it('recognises the stored statuses only', () => {
    for (const status of JOB_STATUSES) expect(isJobStatus(status)).toBe(true);
    for (const other of ['in_progress', 'Paid', '', 'done', 42, null, undefined, ['new']])
      expect(isJobStatus(other)).toBe(false);
  });

  it('only a job not yet done can be rescheduled', () => {
    expect(RESCHEDULABLE).toEqual(['new', 'in-progress']);
  });
});

describe('what customer invoices do to a job (issue 12: the status follows the work)', () => {
  it('never move a job whose work is not done, however paid the invoice (a prepaid booking)', () => {
    for (const status of ['new', 'in-progress', 'cancelled', 'paid'] as const) {
      expect(invoiceSteps(status, ['paid'])).toEqual([]);
      expect(invoiceSteps(status, ['draft'])).toEqual([]);
    }
  });

  it('a completed job with an active invoice is invoiced; paid too when every active invoice is paid', () => {
    expect(invoiceSteps('completed', ['draft'])).toEqual(['invoiced']);
    expect(invoiceSteps('completed', ['sent'])).toEqual(['invoiced']);
    expect(invoiceSteps('completed', ['overdue'])).toEqual(['invoiced']);
    expect(invoiceSteps('completed', ['paid'])).toEqual(['invoiced', 'paid']);
    expect(invoiceSteps('completed', ['paid', 'paid'])).toEqual(['invoiced', 'paid']);
    expect(invoiceSteps('completed', ['paid', 'sent'])).toEqual(['invoiced']);
    expect(invoiceSteps('completed', ['sent', 'paid'])).toEqual(['invoiced']);
  });

  it('an invoiced job is paid when every active invoice is', () => {
    expect(invoiceSteps('invoiced', ['paid'])).toEqual(['paid']);
    expect(invoiceSteps('invoiced', ['paid', 'draft'])).toEqual([]);
    expect(invoiceSteps('invoiced', ['sent'])).toEqual([]);
  });

  it('cancelled invoices do not count', () => {
    expect(invoiceSteps('completed', [])).toEqual([]);
    expect(invoiceSteps('completed', ['cancelled'])).toEqual([]);
    expect(invoiceSteps('invoiced', ['cancelled'])).toEqual([]);
    expect(invoiceSteps('completed', ['cancelled', 'paid'])).toEqual(['invoiced', 'paid']);
    expect(invoiceSteps('invoiced', ['paid', 'cancelled'])).toEqual(['paid']);
  });

  it('a step takes effect at the invoice time, but never at or before the job entered its status', () => {
    const completed = new Date('2026-11-24T03:00:00.000Z');
    const later = new Date('2026-11-24T04:00:00.000Z');
    const earlier = new Date('2026-11-20T01:00:00.000Z');
    expect(stepTime(later, completed)).toBe(later);
    expect(stepTime(earlier, completed)).toEqual(new Date('2026-11-24T03:00:00.001Z'));
    expect(stepTime(new Date(completed), completed)).toEqual(new Date('2026-11-24T03:00:00.001Z'));
    expect(stepTime(earlier, null)).toBe(earlier);
  });
});

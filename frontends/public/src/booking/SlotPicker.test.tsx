import '../testing/polyfills';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithSite, stubFetch } from '../testing/render';
import { SlotPicker } from './SlotPicker';

// Tuesday 24 November 2026, 10:30 in Perth: an emergency callout now arrives from 11:00, in the 10-12 AM slot.
const NOW = new Date('2026-11-24T10:30:00+08:00');
const TODAY = '2026-11-24';

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['setTimeout', 'clearTimeout', 'queueMicrotask', 'nextTick'] });
});
afterEach(() => jest.useRealTimers());

function picker(slots: { slot: string; isAvailable: boolean; blockedReason: string | null }[], date = TODAY) {
  stubFetch({ 'GET /api/time-slots': { json: slots } });
  const onChange = jest.fn();
  renderWithSite(<SlotPicker date={date} value="" onChange={onChange} idBase="slot" />);
  return onChange;
}

describe('slot picker: emergency callout "as soon as possible" (issue 19)', () => {
  test('today with a technician free: the slot under way is offered with the 30-60 minute response time', async () => {
    picker([
      { slot: '8-10 AM', isAvailable: false, blockedReason: 'Time has passed' },
      { slot: '10-12 AM', isAvailable: true, blockedReason: null },
      { slot: '12-2 PM', isAvailable: true, blockedReason: null },
      { slot: '2-4 PM', isAvailable: true, blockedReason: null },
    ]);
    const asap = await screen.findByRole('radio', { name: /10-12 AM/ });
    expect(asap).toBeEnabled();
    expect(asap).toHaveAccessibleDescription(
      'As soon as possible: a technician will be with you in 30-60 minutes',
    );
    expect(screen.getByRole('radio', { name: /8-10 AM/ })).toBeDisabled();
  });

  test('today full: the next free slot today and the call button', async () => {
    const onChange = picker([
      { slot: '8-10 AM', isAvailable: false, blockedReason: 'Time has passed' },
      { slot: '10-12 AM', isAvailable: false, blockedReason: null },
      { slot: '12-2 PM', isAvailable: false, blockedReason: null },
      { slot: '2-4 PM', isAvailable: true, blockedReason: null },
    ]);
    expect(await screen.findByRole('radio', { name: /10-12 AM/ })).toBeDisabled();
    expect(screen.getByRole('note')).toHaveTextContent(
      'No technician is free for an emergency callout today (30-60 minutes). The next available time today is 2-4 PM.',
    );
    expect(screen.getByRole('link', { name: /Call/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^tel:/),
    );
    await userEvent
      .setup({ advanceTimers: jest.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Choose 2-4 PM' }));
    expect(onChange).toHaveBeenCalledWith('2-4 PM');
  });

  test('another day: no emergency offer, started slots do not exist', async () => {
    picker(
      [
        { slot: '8-10 AM', isAvailable: true, blockedReason: null },
        { slot: '10-12 AM', isAvailable: false, blockedReason: null },
        { slot: '12-2 PM', isAvailable: true, blockedReason: null },
        { slot: '2-4 PM', isAvailable: true, blockedReason: null },
      ],
      '2026-11-25',
    );
    expect(await screen.findByRole('radio', { name: /10-12 AM/ })).toHaveAccessibleDescription('Unavailable');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});

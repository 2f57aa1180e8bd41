import '../testing/polyfills';
import { act, screen } from '@testing-library/react';
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

type Slot = { slot: string; isAvailable: boolean; blockedReason: string | null };
const free = (slot: string): Slot => ({ slot, isAvailable: true, blockedReason: null });
const passed = (slot: string): Slot => ({ slot, isAvailable: false, blockedReason: 'Time has passed' });
const ASAP = /As soon as possible/;

function picker(slots: Slot[], date = TODAY) {
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

  test('today a closed public holiday: its name, not "no technician free"', async () => {
    const holiday = 'Closed for Christmas Day';
    picker([
      { slot: '8-10 AM', isAvailable: false, blockedReason: 'Time has passed' },
      { slot: '10-12 AM', isAvailable: false, blockedReason: holiday },
      { slot: '12-2 PM', isAvailable: false, blockedReason: holiday },
      { slot: '2-4 PM', isAvailable: false, blockedReason: holiday },
    ]);
    expect(await screen.findByRole('radio', { name: /12-2 PM/ })).toHaveAccessibleDescription(holiday);
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent(
      'An emergency callout (30-60 minutes) is not available today: Closed for Christmas Day. Please choose another day.',
    );
    expect(note).not.toHaveTextContent(/No technician is free/);
  });

  test("today the emergency slot blocked by staff: the block's reason, and the next free slot", async () => {
    picker([
      { slot: '8-10 AM', isAvailable: false, blockedReason: 'Time has passed' },
      { slot: '10-12 AM', isAvailable: false, blockedReason: 'Staff training' },
      { slot: '12-2 PM', isAvailable: true, blockedReason: null },
      { slot: '2-4 PM', isAvailable: true, blockedReason: null },
    ]);
    await screen.findByRole('radio', { name: /10-12 AM/ });
    expect(screen.getByRole('note')).toHaveTextContent(
      'An emergency callout (30-60 minutes) is not available today: Staff training. The next available time today is 12-2 PM.',
    );
    expect(screen.getByRole('note')).not.toHaveTextContent(/No technician is free/);
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

  test('7:00, before the callout hours: no "as soon as possible"; the next slot (8-10 AM) and the call button', async () => {
    jest.setSystemTime(new Date('2026-11-24T07:00:00+08:00'));
    const onChange = picker([free('8-10 AM'), free('10-12 AM'), free('12-2 PM'), free('2-4 PM')]);
    const first = await screen.findByRole('radio', { name: /8-10 AM/ });
    expect(first).toBeEnabled();
    expect(first).not.toHaveAccessibleDescription(ASAP);
    expect(screen.queryByText(ASAP)).toBeNull();
    expect(screen.getByRole('note')).toHaveTextContent(
      'An emergency callout (30-60 minutes) is not available right now: emergency callouts run Monday to Friday, 8am–4pm. The next available time today is 8-10 AM. For urgent help, call us.',
    );
    expect(screen.getByRole('link', { name: /Call/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^tel:/),
    );
    await userEvent
      .setup({ advanceTimers: jest.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Choose 8-10 AM' }));
    expect(onChange).toHaveBeenCalledWith('8-10 AM');
  });

  test('the picker follows the clock: at 8:00 the 8-10 AM slot under way becomes "as soon as possible"', async () => {
    jest.setSystemTime(new Date('2026-11-24T07:59:45+08:00'));
    picker([free('8-10 AM'), free('10-12 AM'), free('12-2 PM'), free('2-4 PM')]);
    const first = await screen.findByRole('radio', { name: /8-10 AM/ });
    expect(first).not.toHaveAccessibleDescription(ASAP);
    act(() => jest.advanceTimersByTime(30_000));
    expect(first).toHaveAccessibleDescription(
      'As soon as possible: a technician will be with you in 30-60 minutes',
    );
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  test('9:45: the arrival falls in 10-12 AM, not started yet: a normal booking of it, no 30-60 minute promise', async () => {
    jest.setSystemTime(new Date('2026-11-24T09:45:00+08:00'));
    picker([free('8-10 AM'), free('10-12 AM'), free('12-2 PM'), free('2-4 PM')]);
    const slot = await screen.findByRole('radio', { name: /10-12 AM/ });
    expect(slot).toBeEnabled();
    expect(screen.queryByText(ASAP)).toBeNull();
    expect(screen.getByRole('radio', { name: /8-10 AM/ })).toHaveAccessibleDescription('Time has passed');
    expect(screen.getByRole('note')).toHaveTextContent(
      'An emergency callout (30-60 minutes) is not available right now. The next available time today is 10-12 AM.',
    );
  });

  test('15:30, too late for a callout today: no offer, "choose another day" and the call button', async () => {
    jest.setSystemTime(new Date('2026-11-24T15:30:00+08:00'));
    picker([passed('8-10 AM'), passed('10-12 AM'), passed('12-2 PM'), passed('2-4 PM')]);
    expect(await screen.findByRole('radio', { name: /2-4 PM/ })).toBeDisabled();
    expect(screen.queryByText(ASAP)).toBeNull();
    expect(screen.getByRole('note')).toHaveTextContent(
      'emergency callouts run Monday to Friday, 8am–4pm. Please choose another day. For urgent help, call us.',
    );
    expect(screen.queryByRole('button', { name: /^Choose/ })).toBeNull();
  });

  test('moving a booking (the manage page): no emergency offer or note', async () => {
    stubFetch({
      'GET /api/time-slots': { json: [passed('8-10 AM'), free('10-12 AM'), free('12-2 PM'), free('2-4 PM')] },
    });
    renderWithSite(<SlotPicker date={TODAY} value="" onChange={jest.fn()} idBase="slot" current="12-2 PM" />);
    expect(await screen.findByRole('radio', { name: /10-12 AM/ })).toBeDisabled();
    expect(screen.queryByText(ASAP)).toBeNull();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});

import { dismissToasts, toast, TOAST_DURATION_MS, TOAST_REMOVE_DELAY_MS, useToast } from './toast';

const region = () => document.getElementById('tyres-toasts');
const open = () =>
  Array.from(region()?.querySelectorAll<HTMLElement>('.tyres-toast[data-state="open"]') ?? []);

beforeEach(() => {
  jest.useFakeTimers();
  region()?.remove();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('toasts (spec sections 8 and 9)', () => {
  test('default and destructive looks; destructive ones are alerts', () => {
    toast({ title: 'Booking Created', description: 'All good' });
    expect(open()[0]).toHaveClass('tyres-toast--default');
    expect(open()[0]).toHaveAttribute('role', 'status');
    toast({ title: 'Booking Failed', description: 'Nope', variant: 'destructive' });
    expect(open()[0]).toHaveClass('tyres-toast--destructive');
    expect(open()[0]).toHaveAttribute('role', 'alert');
    expect(open()[0]).toHaveTextContent('Booking FailedNope');
  });

  test('only one toast shows at a time', () => {
    toast({ title: 'First' });
    toast({ title: 'Second' });
    toast({ title: 'Third' });
    expect(open()).toHaveLength(1);
    expect(open()[0]).toHaveTextContent('Third');
  });

  test('closes after 5 s by default, or the given duration; pauses while hovered', () => {
    expect(TOAST_DURATION_MS).toBe(5000);
    toast({ title: 'Short' });
    jest.advanceTimersByTime(4999);
    expect(open()).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(open()).toHaveLength(0);

    toast({ title: 'Long', duration: 10_000 });
    jest.advanceTimersByTime(6000);
    expect(open()).toHaveLength(1);
    open()[0]!.dispatchEvent(new MouseEvent('mouseenter'));
    jest.advanceTimersByTime(20_000);
    expect(open()).toHaveLength(1);
    open()[0]!.dispatchEvent(new MouseEvent('mouseleave'));
    jest.advanceTimersByTime(10_000);
    expect(open()).toHaveLength(0);
  });

  test('a dismissed toast stays hidden in the DOM for the removal delay, then goes', () => {
    expect(TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
    toast({ title: 'Bye' });
    region()!.querySelector<HTMLButtonElement>('button[aria-label="Dismiss notification"]')!.click();
    const el = region()!.querySelector('.tyres-toast')!;
    expect(el).toHaveAttribute('data-state', 'closed');
    expect(el).toHaveAttribute('aria-hidden', 'true');
    jest.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(el.isConnected).toBe(false);
  });

  test('useToast() needs no provider and dismiss() closes the open toast', () => {
    const api = useToast();
    api.toast({ title: 'From a hook' });
    expect(open()).toHaveLength(1);
    api.dismiss();
    expect(open()).toHaveLength(0);
    dismissToasts();
  });

  test('the live region moves into an open modal dialog, so toasts are not hidden behind it', () => {
    const dialog = document.createElement('dialog');
    dialog.setAttribute('open', '');
    document.body.appendChild(dialog);
    toast({ title: 'Inside' });
    expect(region()?.parentElement).toBe(dialog);
    dialog.remove();
    toast({ title: 'Outside' });
    expect(region()?.parentElement).toBe(document.body);
  });
});

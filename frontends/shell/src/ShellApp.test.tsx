import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RemoteAppModule, RemoteAppProps } from '@tyres/platform';
import { createQueryClient } from '@tyres/platform/query-client';
import { resetLazyApp, setRemoteRetry } from './lazy-apps';
import { loadRemoteApp } from './remotes';
import { defaultConfig } from './runtime-config';
import { ShellApp } from './ShellApp';

jest.mock('./remotes', () => ({ loadRemoteApp: jest.fn() }));
const load = loadRemoteApp as jest.MockedFunction<typeof loadRemoteApp>;

function PublicApp({ business }: RemoteAppProps) {
  return <h1>Welcome to {business.name}</h1>;
}
const publicModule = { default: PublicApp } as unknown as RemoteAppModule;

const config = {
  ...defaultConfig(() => 'https://shop.example/'),
  business: { name: 'Tyres Co', phone: '+61800000000', phoneDisplay: '0800 000 000', abn: null, email: null },
};

let sleeps: number[];
beforeEach(() => {
  sleeps = [];
  load.mockReset();
  resetLazyApp('public'); // each test loads the remote afresh
  // Delays counted, not waited for.
  setRemoteRetry({
    retries: 3,
    baseDelayMs: 500,
    maxDelayMs: 4000,
    random: () => 1,
    sleep: async (ms) => void sleeps.push(ms),
  });
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => jest.restoreAllMocks());

const renderShell = () => render(<ShellApp config={config} queryClient={createQueryClient()} />);

describe('loading the remote (shell)', () => {
  test('a remote that fails to load twice is loaded again automatically, with backoff', async () => {
    load
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockRejectedValueOnce(new Error('Loading chunk 42 failed'))
      .mockResolvedValueOnce(publicModule);
    renderShell();
    expect(await screen.findByRole('heading', { name: 'Welcome to Tyres Co' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(3);
    expect(load).toHaveBeenCalledWith('public');
    expect(sleeps).toEqual([500, 1000]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('when every retry fails: the error page with Retry and the phone; Retry loads it again', async () => {
    load.mockRejectedValue(new TypeError('Failed to fetch'));
    renderShell();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Sorry, this page couldn't be loaded");
    expect(load).toHaveBeenCalledTimes(4);
    expect(sleeps).toEqual([500, 1000, 2000]);
    expect(screen.getByRole('link', { name: 'Call 0800 000 000' })).toHaveAttribute(
      'href',
      'tel:+61800000000',
    );

    load.mockReset();
    load.mockResolvedValueOnce(publicModule);
    await act(async () => {
      await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    });
    expect(await screen.findByRole('heading', { name: 'Welcome to Tyres Co' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

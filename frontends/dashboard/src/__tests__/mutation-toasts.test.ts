import '../testing/polyfills';
import { createQueryClient, ApiError } from '@tyres/platform';
import { failureReported, failureToast, installMutationToasts } from '../api/mutation-toasts';

const toasts = () =>
  Array.from(document.querySelectorAll('#tyres-toasts .tyres-toast')).map((el) => ({
    text: el.textContent,
    state: (el as HTMLElement).dataset.state,
  }));

function run(
  queryClient: ReturnType<typeof createQueryClient>,
  meta: Record<string, unknown>,
  error: unknown,
) {
  return queryClient
    .getMutationCache()
    .build(queryClient, { mutationFn: () => Promise.reject(error), meta })
    .execute(undefined)
    .catch(failureReported);
}

describe('mutation failure toasts (one place, from meta)', () => {
  beforeEach(() => document.getElementById('tyres-toasts')?.remove());

  test("the server's message under the mutation's title, else its fallback; installed twice it still toasts once", async () => {
    const queryClient = createQueryClient();
    const uninstallA = installMutationToasts(queryClient);
    const uninstallB = installMutationToasts(queryClient);
    const meta = failureToast({ errorTitle: 'Delete Failed', errorFallback: 'Failed to delete job.' });

    await run(queryClient, meta, new ApiError(500, 'Error', JSON.stringify({ message: 'Database down' })));
    expect(toasts()).toEqual([
      { text: expect.stringContaining('Delete FailedDatabase down'), state: 'open' },
    ]);

    await run(queryClient, meta, new ApiError(502, 'Bad Gateway', ''));
    const open = toasts().filter((t) => t.state === 'open');
    expect(open).toEqual([
      { text: expect.stringContaining('Delete FailedFailed to delete job.'), state: 'open' },
    ]);
    // One toast per failure (the previous one closed), however many times the listener was installed.
    expect(toasts()).toHaveLength(2);

    uninstallA();
    await run(queryClient, meta, new Error('boom'));
    expect(toasts().filter((t) => t.state === 'open')[0]!.text).toContain('Failed to delete job.');
    uninstallB();
    document.getElementById('tyres-toasts')?.remove();
    await run(queryClient, meta, new Error('boom'));
    expect(toasts()).toEqual([]);
  });

  test('quietWhen keeps a failure that is no failure silent; a mutation without meta is left to its screen', async () => {
    const queryClient = createQueryClient();
    const uninstall = installMutationToasts(queryClient);
    await run(
      queryClient,
      failureToast({
        errorTitle: 'Invoice Generation Failed',
        quietWhen: (error) => error instanceof ApiError && error.status === 409,
      }),
      new ApiError(409, 'Conflict', JSON.stringify({ message: 'Job JOB-1 already has invoice INV-1' })),
    );
    await run(queryClient, {}, new Error('handled by the screen'));
    expect(toasts()).toEqual([]);
    uninstall();
  });
});

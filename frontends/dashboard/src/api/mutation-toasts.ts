import { useEffect } from 'react';
import {
  useQueryClient,
  type Mutation,
  type MutationCache,
  type MutationCacheNotifyEvent,
  type QueryClient,
} from '@tanstack/react-query';
import { errorMessage, toast } from '@tyres/platform';

/**
 * Mutation failures, handled once (spec section 8): a mutation says in its `meta` what its failure toast reads, and
 * one listener on the QueryClient's MutationCache raises it: a destructive toast with the server's message when it
 * sent one, else the fallback text. Success toasts stay with the screens, which know what to confirm (the job
 * number, the customer, the SMS note).
 *
 * The shell owns the QueryClient and shares it with every remote, so the dashboard listens on that client's cache
 * (useMutationToasts, mounted once at the dashboard's root) instead of constructing a client of its own.
 */
export interface MutationToasts<TVariables = unknown> {
  /** Title of the failure toast. */
  errorTitle: string | ((variables: TVariables, error: unknown) => string);
  /** Failure text when the server sent no message. */
  errorFallback?: string | ((variables: TVariables, error: unknown) => string);
  /** Failures that are not failures for this action (e.g. a 409 meaning "done already"): no toast. */
  quietWhen?: (error: unknown, variables: TVariables) => boolean;
}

/** The `meta` of a mutation whose failures the cache toasts, typed against the mutation's variables. */
export function failureToast<TVariables>(config: MutationToasts<TVariables>): Record<string, unknown> {
  return { failureToast: config };
}

const text = <V>(
  value: string | ((variables: V, error: unknown) => string) | undefined,
  variables: V,
  error: unknown,
) => (typeof value === 'function' ? value(variables, error) : value);

function configOf(mutation: Mutation<unknown, unknown, unknown, unknown>): MutationToasts | undefined {
  return (mutation.options.meta as { failureToast?: MutationToasts } | undefined)?.failureToast;
}

function raiseToasts(event: MutationCacheNotifyEvent): void {
  if (event.type !== 'updated' || event.action.type !== 'error') return;
  const config = configOf(event.mutation);
  if (!config) return;
  const { variables } = event.mutation.state;
  const { error } = event.action;
  if (config.quietWhen?.(error, variables)) return;
  toast({
    title: text(config.errorTitle, variables, error) ?? '',
    description: errorMessage(error, text(config.errorFallback, variables, error) ?? ''),
    variant: 'destructive',
  });
}

/** One subscription per cache however often it is installed (a test may mount the whole app inside its own). */
const subscriptions = new WeakMap<MutationCache, { count: number; unsubscribe: () => void }>();

/** Toasts the failures of every mutation of `queryClient` that declares a failureToast; returns the uninstall. */
export function installMutationToasts(queryClient: QueryClient): () => void {
  const cache = queryClient.getMutationCache();
  const current = subscriptions.get(cache) ?? { count: 0, unsubscribe: cache.subscribe(raiseToasts) };
  current.count += 1;
  subscriptions.set(cache, current);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    current.count -= 1;
    if (current.count > 0) return;
    current.unsubscribe();
    subscriptions.delete(cache);
  };
}

/** Mounts the mutation toasts for the QueryClient in context while the component is mounted. */
export function useMutationToasts(): void {
  const queryClient = useQueryClient();
  useEffect(() => installMutationToasts(queryClient), [queryClient]);
}

/**
 * For `mutateAsync(...).catch(failureReported)`: the failure has been toasted by the mutation cache already, so the
 * caller only stops (a confirm dialog closes, a form stays open) without an unhandled rejection.
 */
export const failureReported = (): undefined => undefined;

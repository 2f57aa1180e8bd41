import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { ApiError, type RequestBodyOf } from '@tyres/platform';
import type { paths as JobsPaths } from '@tyres/platform/api-types/jobs';
import { jobsApi } from './client';
import { JOB_STATUSES, type JobStatus } from '@tyres/kernel';
import { SCHEDULE_FILTER_STATUSES } from '../lib/constants';
import { keys } from './keys';
import { failureToast } from './mutation-toasts';

/** Jobs service calls (spec section 7 "Dashboard jobs"). */

export interface JobsQuery {
  /** Dashboard vocabulary (new, in-progress, ...); 'all' or empty for every status. */
  status?: string;
  /** Schedule vocabulary (pending, confirmed, in_progress, completed). */
  scheduleStatus?: string;
  page: number;
  pageSize: number;
}

/** Key and fetcher of one page of GET /api/dashboard/jobs-with-details (newest first; total from X-Total-Count). */
export function jobsPageQuery(params: JobsQuery) {
  return {
    queryKey: keys.jobsList(params),
    queryFn: () =>
      jobsApi.page('/api/dashboard/jobs-with-details', {
        query: {
          status: JOB_STATUSES.find((status) => status === params.status),
          scheduleStatus: scheduleFilter(params.scheduleStatus),
          page: params.page,
          pageSize: params.pageSize,
        },
      }),
  };
}

/** A filter from the address bar: one the jobs service knows, else none (every job). */
function scheduleFilter(value: string | undefined) {
  return SCHEDULE_FILTER_STATUSES.find((status) => status === value);
}

export function useJobsPage(params: JobsQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...jobsPageQuery(params),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/**
 * Starts loading the jobs tab's first page alongside the session check when the dashboard opens on it (the list
 * answers for whoever the session is, so it need not wait for GET /api/user). Saves a round trip and the frame's
 * first render from the time to interactive; without a session the 401 is simply dropped.
 */
export function prefetchLandingJobs(
  queryClient: QueryClient,
  location: { pathname: string; search: string },
  pageSize: number,
): void {
  if (!['/', '/dashboard', '/dashboard/'].includes(location.pathname)) return;
  const params = new URLSearchParams(location.search);
  if ((params.get('tab') ?? 'jobs') !== 'jobs') return;
  const page = Math.max(1, Math.floor(Number(params.get('page') ?? '1')) || 1);
  void queryClient.prefetchQuery(jobsPageQuery({ status: params.get('status') ?? 'all', page, pageSize }));
}

/** How many jobs match a filter (a one-item page; the count is the X-Total-Count header). */
export function useJobCount(filter: { status?: string; scheduleStatus?: string }) {
  const query = useJobsPage({ ...filter, page: 1, pageSize: 1 });
  return { count: query.data?.total, isPending: query.isPending, isError: query.isError };
}

/** GET /api/dashboard/jobs/{id}: the job with customer, vehicle and photos. */
export function useJob(id: string | null | undefined) {
  return useQuery({
    queryKey: keys.job(id ?? ''),
    queryFn: () => jobsApi.get('/api/dashboard/jobs/{id}', { params: { id: id ?? '' } }),
    enabled: Boolean(id),
  });
}

/** GET /api/dashboard/technicians (active technicians). */
export function useTechnicians(enabled = true) {
  return useQuery({
    queryKey: keys.technicians,
    queryFn: () => jobsApi.get('/api/dashboard/technicians'),
    enabled,
  });
}

/** Everything that shows jobs: lists, counts, one job. */
export function invalidateJobs(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.jobsAll }),
    queryClient.invalidateQueries({ queryKey: keys.jobsRoot }),
  ]).then(() => undefined);
}

/** Every cached slot list (public availability, free slots and the admin time slot tab). */
export function invalidateSlots(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.slotsRoot }),
    queryClient.invalidateQueries({ queryKey: keys.adminSlotsRoot }),
  ]).then(() => undefined);
}

/** Marks status changes, so what they cause elsewhere (notify's SMS outcome) can wait for their own toast. */
export const JOB_STATUS_MUTATION = ['job-status'] as const;

export function useUpdateJobStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: JOB_STATUS_MUTATION,
    mutationFn: (input: { id: string; status: JobStatus; notifyCustomer?: boolean }) =>
      jobsApi.patch('/api/dashboard/jobs/{id}/status', {
        params: { id: input.id },
        body: {
          status: input.status,
          ...(input.notifyCustomer !== undefined ? { notifyCustomer: input.notifyCustomer } : {}),
        },
      }),
    meta: failureToast<{ status: string }>({
      errorTitle: 'Update Failed',
      errorFallback: (input) =>
        input.status === 'paid' ? 'Failed to update payment status.' : 'Failed to update job status.',
      // Moving a just-invoiced job to invoiced: a 409 means the jobs service has done it already.
      quietWhen: (error, input) =>
        input.status === 'invoiced' && error instanceof ApiError && error.status === 409,
    }),
    onSettled: () => invalidateJobs(queryClient),
  });
}

export function useAssignJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { jobId: string; technicianId: string | null }) =>
      jobsApi.patch('/api/dashboard/jobs/{jobId}/assign', {
        params: { jobId: input.jobId },
        body: { technicianId: input.technicianId },
      }),
    meta: failureToast({ errorTitle: 'Assignment Failed', errorFallback: 'Failed to update assignment.' }),
    onSettled: () => invalidateJobs(queryClient),
  });
}

export function useRescheduleJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      input: { id: string } & RequestBodyOf<JobsPaths, '/api/dashboard/jobs/{id}/reschedule', 'put'>,
    ) =>
      jobsApi.put('/api/dashboard/jobs/{id}/reschedule', {
        params: { id: input.id },
        body: { scheduledDate: input.scheduledDate, timeSlot: input.timeSlot },
      }),
    meta: failureToast({ errorTitle: 'Reschedule Failed', errorFallback: 'Failed to reschedule job.' }),
    onSettled: () => Promise.all([invalidateJobs(queryClient), invalidateSlots(queryClient)]),
  });
}

/** DELETE /api/dashboard/jobs/{id}; invalidates cached time-slot data too (the slot is free again). */
export function useDeleteJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (job: { id: string; jobNumber: string }) =>
      jobsApi.delete('/api/dashboard/jobs/{id}', { params: { id: job.id } }),
    meta: failureToast({ errorTitle: 'Delete Failed', errorFallback: 'Failed to delete job.' }),
    onSuccess: (_data, job) => {
      queryClient.removeQueries({ queryKey: keys.job(job.id), exact: true });
    },
    onSettled: () => Promise.all([invalidateJobs(queryClient), invalidateSlots(queryClient)]),
  });
}

/**
 * Runs `show` once no status change of this job (any job when null) is still in flight, after the change's own
 * success toast. notify can report an SMS's outcome before the PATCH that asked for it has answered; shown at once,
 * that outcome would then be replaced by the later "Work Started" toast and never seen. `show` always runs a task
 * later (never synchronously). Returns a cancel function.
 */
export function afterStatusChangesOf(
  queryClient: QueryClient,
  jobId: string | null,
  show: () => void,
): () => void {
  const pending = () =>
    queryClient.isMutating({
      mutationKey: JOB_STATUS_MUTATION,
      predicate: (mutation) =>
        jobId === null || (mutation.state.variables as { id?: string } | undefined)?.id === jobId,
    }) > 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Always a task later: the success toast is raised where mutateAsync resolves, after the mutation settles (a
  // failure toast as it settles, from the mutation cache).
  const showSoon = () => {
    timer = setTimeout(show, 0);
  };
  let unsubscribe = () => undefined as void;
  if (pending()) {
    unsubscribe = queryClient.getMutationCache().subscribe(() => {
      if (pending()) return;
      unsubscribe();
      showSoon();
    });
  } else showSoon();
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}

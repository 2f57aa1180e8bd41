import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { bookingApi, jobsApi } from './client';
import { invalidateJobs, invalidateSlots } from './jobs';
import { keys } from './keys';
import { failureToast } from './mutation-toasts';
import type { Job } from './types';
import { moveChanges, type MoveTarget, type SlotAvailability } from '../schedule/model';

/**
 * The schedule's data: the jobs of a date range, and moving a job (reschedule and/or assign).
 *
 * The jobs service filters by scheduled date (`scheduledFrom`/`scheduledTo`, Perth dates, inclusive, at most
 * 62 days), so a view asks for exactly its week or day: one request, 100 a page, and further pages only
 * when the answer says there are more (a week with more than 100 bookings). Nothing is filtered or dropped here.
 */
export const SCHEDULE_PAGE_SIZE = 100;

export const scheduleKey = (from: string, to: string) => [...keys.jobsAll, 'schedule', from, to] as const;
const scheduleRoot = [...keys.jobsAll, 'schedule'] as const;

export interface ScheduleData {
  jobs: Job[];
}

export async function fetchScheduleJobs(from: string, to: string): Promise<ScheduleData> {
  const jobs: Job[] = [];
  for (let page = 1; ; page += 1) {
    const result = await jobsApi.page('/api/dashboard/jobs-with-details', {
      query: { scheduledFrom: from, scheduledTo: to, page, pageSize: SCHEDULE_PAGE_SIZE },
    });
    jobs.push(...result.items);
    if (result.items.length < SCHEDULE_PAGE_SIZE || page * SCHEDULE_PAGE_SIZE >= result.total)
      return { jobs };
  }
}

/** The jobs scheduled from `from` to `to` (inclusive). A technician gets only their own (the server decides). */
export function useScheduleJobs(from: string, to: string) {
  return useQuery({ queryKey: scheduleKey(from, to), queryFn: () => fetchScheduleJobs(from, to) });
}

export interface MoveInput {
  job: Job;
  to: MoveTarget;
  /** The technician's name for the optimistic card (null for Unassigned). */
  technicianName: string | null;
}

type Snapshot = [readonly unknown[], ScheduleData | undefined][];

/** Every cached schedule range with the job shown where it is going. */
function showMoved(queryClient: QueryClient, input: MoveInput): Snapshot {
  const before = queryClient.getQueriesData<ScheduleData>({ queryKey: scheduleRoot });
  for (const [key, data] of before) {
    if (!data) continue;
    const [, , from, to] = key as [string, string, string, string];
    const others = data.jobs.filter((j) => j.id !== input.job.id);
    const moved: Job = {
      ...input.job,
      scheduledDate: input.to.date,
      timeSlot: input.to.slot,
      assignedTechnicianId: input.to.technicianId,
      assignedTechnician: input.to.technicianId
        ? { id: input.to.technicianId, username: input.technicianName ?? '' }
        : null,
    };
    const inRange = input.to.date >= from && input.to.date <= to;
    queryClient.setQueryData<ScheduleData>(key, { ...data, jobs: inRange ? [...others, moved] : others });
  }
  return before;
}

/**
 * Moves a job: PUT …/reschedule when the date or slot changes (booking's slot rules: full slot, horizon, past
 * slot, a finished job all refuse), then PATCH …/assign when the technician changes. The card moves at once and
 * goes back where it was if either call is refused; the failure toast carries the server's message.
 */
export function useMoveJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: MoveInput) => {
      const change = moveChanges(input.job, input.to);
      if (change.reschedule)
        await jobsApi.put('/api/dashboard/jobs/{id}/reschedule', {
          params: { id: input.job.id },
          body: { scheduledDate: input.to.date, timeSlot: input.to.slot },
        });
      if (change.assign)
        await jobsApi.patch('/api/dashboard/jobs/{jobId}/assign', {
          params: { jobId: input.job.id },
          body: { technicianId: input.to.technicianId },
        });
      return change;
    },
    onMutate: async (input: MoveInput) => {
      await queryClient.cancelQueries({ queryKey: scheduleRoot });
      return { before: showMoved(queryClient, input) };
    },
    onError: (_error, _input, context) => {
      for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
    },
    meta: failureToast<MoveInput>({
      errorTitle: (input) => `Job ${input.job.jobNumber} Not Moved`,
      errorFallback: 'Failed to move the job.',
    }),
    onSettled: () => Promise.all([invalidateJobs(queryClient), invalidateSlots(queryClient)]),
  });
}

/**
 * Booking's technician suggestion for a job's own slot (admin): free technicians, fewest jobs that day first, and
 * the one to preselect. Asked for only when `enabled` (a selector being opened), and kept under the jobs keys so
 * an assignment or a move refreshes it.
 */
export function useTechnicianSuggestion(jobId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...keys.jobsAll, 'technician-suggestion', jobId],
    queryFn: async (): Promise<SlotAvailability> => {
      const s = await bookingApi.get('/api/dashboard/calendar/jobs/{jobId}/technician-suggestion', {
        params: { jobId },
      });
      return {
        suggestedTechnicianId: s.suggestedTechnicianId,
        freeTechnicianIds: s.freeTechnicians.map((t) => t.userId),
      };
    },
    enabled,
    retry: false,
  });
}

/**
 * Who is free for `job` at (`date`, `slot`) (the Move… dialog's target): the job's own slot is booking's
 * suggestion for the job (its own reservation not counted against its technician); another slot is that date's
 * capacity (booking's free technicians of the slot, the first being its suggestion).
 */
export function useSlotAvailability(job: Job, date: string, slot: string) {
  const own = date === job.scheduledDate && slot === job.timeSlot;
  const suggestion = useTechnicianSuggestion(job.id, own);
  const capacity = useQuery({
    queryKey: [...keys.jobsAll, 'capacity', date],
    queryFn: () => bookingApi.get('/api/dashboard/calendar/capacity', { query: { date } }),
    enabled: !own,
    retry: false,
  });
  if (own) return { data: suggestion.data, isLoading: suggestion.isLoading };
  const free = capacity.data?.slots.find((s) => s.slot === slot)?.freeTechnicians;
  const data: SlotAvailability | undefined = free && {
    suggestedTechnicianId: free[0]?.userId ?? null,
    freeTechnicianIds: free.map((t) => t.userId),
  };
  return { data, isLoading: capacity.isLoading };
}

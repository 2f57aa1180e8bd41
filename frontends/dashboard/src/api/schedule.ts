import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { errorMessage } from '@tyres/platform';
import { bookingApi, jobsApi } from './client';
import { rosterQuery } from './calendar';
import { invalidateJobs, invalidateSlots } from './jobs';
import { keys } from './keys';
import { failureToast } from './mutation-toasts';
import type { Job } from './types';
import {
  dayLabel,
  moveChanges,
  notFreeReason,
  type MoveTarget,
  type SlotAvailability,
} from '../schedule/model';

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
 * A move of which one call went through and the other was refused (the reschedule done, the assignment refused):
 * the job is neither where it was nor where it was dropped. Its message says exactly what happened ("Moved to Mon
 * 14 Dec, 2-4 PM, but not assigned to sam: <the server's reason>"); the view refetches to show the truth.
 */
export class PartialMoveError extends Error {
  constructor(
    readonly input: MoveInput,
    /** The call that went through. */
    readonly done: 'reschedule' | 'assign',
    /** The refusal of the other call (the server's error). */
    readonly refusal: unknown,
  ) {
    super(partialMoveText(input, done, refusal));
    this.name = 'PartialMoveError';
  }
}

function partialMoveText(input: MoveInput, done: 'reschedule' | 'assign', cause: unknown): string {
  const where = `${dayLabel(input.to.date)}, ${input.to.slot}`;
  const who = input.to.technicianId ? `assigned to ${input.technicianName ?? 'the technician'}` : 'unassigned';
  if (done === 'reschedule')
    return `Moved to ${where}, but not ${who}: ${errorMessage(cause, 'Failed to assign the technician.')}`;
  return `${who[0]!.toUpperCase()}${who.slice(1)}, but not moved to ${where}: ${errorMessage(cause, 'Failed to reschedule the job.')}`;
}

/**
 * Moves a job: PUT …/reschedule when the date or slot changes (booking's slot rules: full slot, horizon, past
 * slot, a finished job all refuse), then PATCH …/assign when the technician changes. The card moves at once and
 * goes back where it was if the first call is refused ("Not Moved", with the server's message). When the
 * reschedule goes through and the assignment is refused, the card shows the reschedule only and the toast says
 * so (PartialMoveError, "Partly Moved"); either way the schedule is refetched afterwards.
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
        try {
          await jobsApi.patch('/api/dashboard/jobs/{jobId}/assign', {
            params: { jobId: input.job.id },
            body: { technicianId: input.to.technicianId },
          });
        } catch (error) {
          if (change.reschedule) throw new PartialMoveError(input, 'reschedule', error);
          throw error;
        }
      return change;
    },
    onMutate: async (input: MoveInput) => {
      await queryClient.cancelQueries({ queryKey: scheduleRoot });
      return { before: showMoved(queryClient, input) };
    },
    onError: (error, input, context) => {
      for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
      // Half done: show the half that went through until the refetch answers.
      if (error instanceof PartialMoveError && error.done === 'reschedule')
        showMoved(queryClient, {
          ...input,
          to: { ...input.to, technicianId: input.job.assignedTechnicianId ?? null },
          technicianName: input.job.assignedTechnician?.username ?? null,
        });
    },
    meta: failureToast<MoveInput>({
      errorTitle: (input, error) =>
        error instanceof PartialMoveError
          ? `Job ${input.job.jobNumber} Partly Moved`
          : `Job ${input.job.jobNumber} Not Moved`,
      errorFallback: (_input, error) =>
        error instanceof PartialMoveError ? error.message : 'Failed to move the job.',
    }),
    onSettled: () => Promise.all([invalidateJobs(queryClient), invalidateSlots(queryClient)]),
  });
}

const suggestionQuery = (jobId: string) => ({
  queryKey: [...keys.jobsAll, 'technician-suggestion', jobId] as const,
  queryFn: async (): Promise<SlotAvailability> => {
    const s = await bookingApi.get('/api/dashboard/calendar/jobs/{jobId}/technician-suggestion', {
      params: { jobId },
    });
    return {
      suggestedTechnicianId: s.suggestedTechnicianId,
      freeTechnicianIds: s.freeTechnicians.map((t) => t.userId),
    };
  },
  retry: false,
});

const capacityQuery = (date: string) => ({
  queryKey: [...keys.jobsAll, 'capacity', date] as const,
  queryFn: () => bookingApi.get('/api/dashboard/calendar/capacity', { query: { date } }),
  retry: false,
});

type DayCapacity = Awaited<ReturnType<ReturnType<typeof capacityQuery>['queryFn']>>;

function slotAvailability(capacity: DayCapacity | undefined, slot: string): SlotAvailability | undefined {
  const free = capacity?.slots.find((s) => s.slot === slot)?.freeTechnicians;
  return (
    free && {
      suggestedTechnicianId: free[0]?.userId ?? null,
      freeTechnicianIds: free.map((t) => t.userId),
      closedFor: capacity?.holiday && !capacity.holiday.opened ? capacity.holiday.name : undefined,
    }
  );
}

const isOwnSlot = (job: Job, date: string, slot: string) => date === job.scheduledDate && slot === job.timeSlot;

/**
 * Booking's technician suggestion for a job's own slot (admin): free technicians, fewest jobs that day first, and
 * the one to preselect. Asked for only when `enabled` (a selector being opened), and kept under the jobs keys so
 * an assignment or a move refreshes it.
 */
export function useTechnicianSuggestion(jobId: string, enabled: boolean) {
  return useQuery({ ...suggestionQuery(jobId), enabled });
}

/**
 * Who is free for `job` at (`date`, `slot`) (the Move… dialog's target): the job's own slot is booking's
 * suggestion for the job (its own reservation not counted against its technician); another slot is that date's
 * capacity (booking's free technicians of the slot, the first being its suggestion).
 */
export function useSlotAvailability(job: Job, date: string, slot: string) {
  const own = isOwnSlot(job, date, slot);
  const suggestion = useTechnicianSuggestion(job.id, own);
  const capacity = useQuery({ ...capacityQuery(date), enabled: !own });
  if (own) return { data: suggestion.data, isLoading: suggestion.isLoading };
  return { data: slotAvailability(capacity.data, slot), isLoading: capacity.isLoading };
}

/**
 * Before a move commits (a drop or Move…): why the target technician is not free at the target slot ("sam is on
 * leave that day (Annual leave)", "sam already has job JOB-00012 then", "sam is not rostered on Saturdays"), or
 * null when they are free, nobody is named (Unassigned) or booking could not be asked. Only a warning: the server
 * still decides when the move is sent.
 */
export function useNotFreeCheck() {
  const queryClient = useQueryClient();
  return async (job: Job, to: MoveTarget, technicianName: string | null, shown: readonly Job[]) => {
    const change = moveChanges(job, to);
    if (!to.technicianId || (!change.reschedule && !change.assign)) return null;
    const [availability, roster] = await Promise.all([
      isOwnSlot(job, to.date, to.slot)
        ? queryClient.fetchQuery(suggestionQuery(job.id)).catch(() => undefined)
        : queryClient
            .fetchQuery(capacityQuery(to.date))
            .then((c) => slotAvailability(c, to.slot))
            .catch(() => undefined),
      queryClient.fetchQuery({ ...rosterQuery, staleTime: 60_000 }).catch(() => undefined),
    ]);
    return notFreeReason({
      job,
      to,
      technicianName: technicianName ?? 'The technician',
      availability,
      roster,
      jobs: shown,
    });
  };
}

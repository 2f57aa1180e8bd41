import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@tyres/platform/api-types/booking';
import { bookingApi } from './client';
import { invalidateSlots } from './jobs';
import { failureToast } from './mutation-toasts';

/** The business calendar (issue 19, booking's /api/dashboard/calendar): roster and leave, blocks, holidays. */
type Schemas = components['schemas'];
export type RosterTechnician = Schemas['RosterTechnician'];
export type CalendarBlock = Schemas['CalendarBlock'];
export type PublicHoliday = Schemas['PublicHoliday'];
export type CalendarBlockInput = Schemas['CalendarBlockInput'];

const ROOT = ['/api/dashboard/calendar'] as const;
const calendarKeys = {
  roster: [...ROOT, 'roster'] as const,
  blocks: [...ROOT, 'blocks'] as const,
  holidays: [...ROOT, 'holidays'] as const,
};

/** The roster's query (also read imperatively: a schedule move checks leave and rostered days). */
export const rosterQuery = {
  queryKey: calendarKeys.roster,
  queryFn: () => bookingApi.get('/api/dashboard/calendar/roster'),
};
export const useRoster = () => useQuery(rosterQuery);
export const useCalendarBlocks = () =>
  useQuery({
    queryKey: calendarKeys.blocks,
    queryFn: () => bookingApi.get('/api/dashboard/calendar/blocks'),
  });
export const useHolidays = () =>
  useQuery({
    queryKey: calendarKeys.holidays,
    queryFn: () => bookingApi.get('/api/dashboard/calendar/holidays', { query: {} }),
  });

export function useCalendarMutations() {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ROOT }), invalidateSlots(queryClient)]);
  const meta = (what: string) =>
    failureToast({ errorTitle: 'Calendar Change Failed', errorFallback: `Failed to ${what}.` });
  return {
    setWeekdays: useMutation({
      mutationFn: (input: { userId: string; weekdays: number[] }) =>
        bookingApi.put('/api/dashboard/calendar/roster/{userId}', {
          params: { userId: input.userId },
          body: { weekdays: input.weekdays },
        }),
      meta: meta('update the roster'),
      onSettled: refresh,
    }),
    addLeave: useMutation({
      mutationFn: (input: { userId: string; startDate: string; endDate: string; reason: string }) =>
        bookingApi.post('/api/dashboard/calendar/roster/{userId}/leave', {
          params: { userId: input.userId },
          body: { startDate: input.startDate, endDate: input.endDate, reason: input.reason },
        }),
      meta: meta('add the leave'),
      onSettled: refresh,
    }),
    removeLeave: useMutation({
      mutationFn: (input: { userId: string; leaveId: string }) =>
        bookingApi.delete('/api/dashboard/calendar/roster/{userId}/leave/{leaveId}', { params: input }),
      meta: meta('remove the leave'),
      onSettled: refresh,
    }),
    addBlock: useMutation({
      mutationFn: (body: CalendarBlockInput) => bookingApi.post('/api/dashboard/calendar/blocks', { body }),
      meta: meta('add the block'),
      onSettled: refresh,
    }),
    removeBlock: useMutation({
      mutationFn: (id: string) =>
        bookingApi.delete('/api/dashboard/calendar/blocks/{id}', { params: { id } }),
      meta: meta('remove the block'),
      onSettled: refresh,
    }),
    setHolidayOpen: useMutation({
      mutationFn: (input: { date: string; open: boolean }) =>
        input.open
          ? bookingApi.put('/api/dashboard/calendar/holidays/{date}/open', {
              params: { date: input.date },
              body: {},
            })
          : bookingApi.delete('/api/dashboard/calendar/holidays/{date}/open', {
              params: { date: input.date },
            }),
      meta: meta('change the holiday'),
      onSettled: refresh,
    }),
  };
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ResponseOf } from '@tyres/platform';
import type { paths as ReportingPaths } from '@tyres/platform/api-types/reporting';
import { reportingApi } from './client';
import { keys } from './keys';

/** Reporting service (GET /api/dashboard/reports/*, optional startDate and endDate). */
type Kind = 'gst' | 'purchases-payables' | 'enhanced-pl';
type Shapes = { [K in Kind]: ResponseOf<ReportingPaths, `/api/dashboard/reports/${K}`> };

export function useReport<K extends Kind>(
  kind: K,
  range: { startDate: string; endDate: string },
  enabled = true,
) {
  return useQuery<Shapes[K]>({
    queryKey: keys.report(kind, range),
    queryFn: () =>
      // The three reports take the same period; the path picks the answer's shape.
      reportingApi.get(`/api/dashboard/reports/${kind}` as `/api/dashboard/reports/${Kind}`, {
        query: { startDate: range.startDate, endDate: range.endDate },
      }) as Promise<Shapes[K]>,
    placeholderData: keepPreviousData,
    enabled,
  });
}

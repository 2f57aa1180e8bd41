import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '@tyres/platform';
import { keys } from './keys';
import type { EnhancedPlReport, GstReport, PayablesReport } from './types';

/** Reporting service (GET /api/dashboard/reports/*, optional startDate and endDate). */
type Kind = 'gst' | 'purchases-payables' | 'enhanced-pl';
interface Shapes {
  gst: GstReport;
  'purchases-payables': PayablesReport;
  'enhanced-pl': EnhancedPlReport;
}

export function useReport<K extends Kind>(
  kind: K,
  range: { startDate: string; endDate: string },
  enabled = true,
) {
  return useQuery<Shapes[K]>({
    queryKey: keys.report(kind, range),
    queryFn: () =>
      apiGet<Shapes[K]>(`/api/dashboard/reports/${kind}`, {
        query: { startDate: range.startDate, endDate: range.endDate },
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

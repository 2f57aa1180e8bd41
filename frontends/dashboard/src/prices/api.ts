import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@tyres/platform/api-types/booking';
import { bookingApi } from '../api/client';
import { failureToast } from '../api/mutation-toasts';

/** The price list (issue 19 item 5, booking's /api/dashboard/prices): fees, tyre catalogue, scheduled changes. */
type Schemas = components['schemas'];
export type PriceListView = Schemas['PriceListAdminView'];
export type FeeVersion = Schemas['FeeScheduleVersion'];
export type CatalogueTyre = Schemas['CatalogueTyre'];
export type AuditEntry = Schemas['PriceListAuditEntry'];
export type Fees = FeeVersion['fees'];
export type FeeKey = keyof Fees;

/** Every field of a fee schedule: the money fees, then the card surcharge rate (a percentage, "1.70"). */
export const FEE_KEYS: FeeKey[] = [
  'calloutFee',
  'punctureRepair',
  'fittingPerTyre',
  'balancingPerTyre',
  'prepaidDiscount',
  'cardSurchargeRate',
];
/** The one fee that is a rate, not dollars. */
export const RATE_KEY = 'cardSurchargeRate' satisfies FeeKey;

const ROOT = ['/api/dashboard/prices'] as const;
const keys = { list: [...ROOT, 'list'] as const, audit: [...ROOT, 'audit'] as const };

export const usePriceList = () =>
  useQuery({ queryKey: keys.list, queryFn: () => bookingApi.get('/api/dashboard/prices') });
export const usePriceAudit = () =>
  useQuery({ queryKey: keys.audit, queryFn: () => bookingApi.get('/api/dashboard/prices/audit') });

/** effectiveFrom as the API takes it: a Perth date, or null for "now". */
export type EffectiveFrom = string | null;

export function usePriceMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ROOT });
  const meta = (what: string) =>
    failureToast({ errorTitle: 'Price Change Failed', errorFallback: `Failed to ${what}.` });
  return {
    scheduleFees: useMutation({
      mutationFn: (input: Fees & { effectiveFrom: EffectiveFrom; reason: string }) =>
        bookingApi.put('/api/dashboard/prices/fees', { body: input }),
      meta: meta('change the fees'),
      onSettled: refresh,
    }),
    addTyre: useMutation({
      mutationFn: (input: {
        size: string;
        brand: string;
        model: string;
        price: string;
        inStock: boolean;
        effectiveFrom: EffectiveFrom;
        reason: string;
      }) => bookingApi.post('/api/dashboard/prices/tyres', { body: input }),
      meta: meta('add the tyre'),
      onSettled: refresh,
    }),
    changeTyre: useMutation({
      mutationFn: (input: {
        id: string;
        price?: string;
        inStock?: boolean;
        effectiveFrom: EffectiveFrom;
        reason: string;
      }) => {
        const { id, ...body } = input;
        return bookingApi.put('/api/dashboard/prices/tyres/{id}', { params: { id }, body });
      },
      meta: meta('change the tyre'),
      onSettled: refresh,
    }),
    cancelChange: useMutation({
      mutationFn: (input: { id: string; reason: string }) =>
        bookingApi.delete('/api/dashboard/prices/changes/{id}', {
          params: { id: input.id },
          body: { reason: input.reason },
        }),
      meta: meta('cancel the change'),
      onSettled: refresh,
    }),
  };
}

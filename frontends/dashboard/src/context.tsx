import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { BusinessInfo } from '@tyres/platform';
import type { SessionUser } from './auth/user';

/** What every dashboard screen may need: who is signed in, the business, and where "home" is. */
export interface DashboardContextValue {
  user: SessionUser;
  business: BusinessInfo;
  /** '/dashboard', or '/' on the business host. */
  homePath: string;
  isAdmin: boolean;
}

const Context = createContext<DashboardContextValue | null>(null);

export function DashboardProvider({
  value,
  children,
}: {
  value: Omit<DashboardContextValue, 'isAdmin'>;
  children: ReactNode;
}) {
  const memo = useMemo(() => ({ ...value, isAdmin: value.user.role === 'admin' }), [value]);
  return <Context.Provider value={memo}>{children}</Context.Provider>;
}

export function useDashboard(): DashboardContextValue {
  const value = useContext(Context);
  if (!value) throw new Error('useDashboard outside DashboardProvider');
  return value;
}

export const NEW_BOOKING_PATH = '/dashboard/booking/new';
export const NEW_INVOICE_PATH = '/dashboard/invoices/new';

/** Navigation helpers that keep the staff member inside the admin app. */
export function useDashboardNavigation() {
  const navigate = useNavigate();
  const { homePath } = useDashboard();
  return useMemo(
    () => ({
      home: (tab?: string) => navigate(tab ? `${homePath}?tab=${encodeURIComponent(tab)}` : homePath),
      homeWith: (params: Record<string, string>) =>
        navigate(`${homePath}?${new URLSearchParams(params).toString()}`),
      newBooking: () => navigate(NEW_BOOKING_PATH),
      newInvoice: (jobId: string) => navigate(`${NEW_INVOICE_PATH}?jobId=${encodeURIComponent(jobId)}`),
    }),
    [navigate, homePath],
  );
}

import type { SessionUser } from '../auth/user';

export interface DashboardTab {
  key: string;
  label: string;
}

/** Spec "Dashboard": admin tabs. */
export const ADMIN_TABS: DashboardTab[] = [
  { key: 'jobs', label: 'Jobs' },
  { key: 'schedule', label: 'Schedule' },
  { key: 'invoices', label: 'Invoices' },
  { key: 'expenses', label: 'Expenses' },
  { key: 'time-slots', label: 'Time Slots' },
  { key: 'reports', label: 'Reports' },
  { key: 'prices', label: 'Prices' },
  { key: 'team', label: 'Team' },
  { key: 'settings', label: 'Settings' },
];

/** Spec "Dashboard": technician tabs. */
export const TECHNICIAN_TABS: DashboardTab[] = [
  { key: 'jobs', label: 'My Jobs' },
  { key: 'schedule', label: 'My Schedule' },
  { key: 'settings', label: 'Settings' },
];

export const DEFAULT_TAB = 'jobs';

export function tabsFor(user: SessionUser): DashboardTab[] {
  return user.role === 'admin' ? ADMIN_TABS : TECHNICIAN_TABS;
}

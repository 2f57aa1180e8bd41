import { lazy, Suspense, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Spin } from 'antd';
import { ComingSoon } from '../components/ComingSoon';
import { SettingsTab } from '../components/SettingsTab';
import { TabBar, tabId } from '../components/TabBar';
import { TabErrorBoundary } from '../components/TabErrorBoundary';
import { useDashboard } from '../context';
import { useUrlParam } from '../hooks/useUrlParam';
import { JobsTab } from '../tabs/JobsTab';
import { DEFAULT_TAB, tabsFor } from './tabs';

// The jobs tab is the landing tab and ships with the frame; every other tab, the job detail and the charts load
// when first opened (script size per route: npm run bench:dashboard).
const ScheduleTab = lazy(() => import('../tabs/ScheduleTab').then((m) => ({ default: m.ScheduleTab })));
const InvoicesTab = lazy(() => import('../invoices/InvoicesTab').then((m) => ({ default: m.InvoicesTab })));
const ExpensesTab = lazy(() => import('../tabs/ExpensesTab').then((m) => ({ default: m.ExpensesTab })));
const TimeSlotsTab = lazy(() => import('../tabs/TimeSlotsTab').then((m) => ({ default: m.TimeSlotsTab })));
const ReportsTab = lazy(() => import('../reports/ReportsTab').then((m) => ({ default: m.ReportsTab })));
const TeamTab = lazy(() => import('../tabs/TeamTab').then((m) => ({ default: m.TeamTab })));
const PricesTab = lazy(() => import('../prices/PricesTab').then((m) => ({ default: m.PricesTab })));
const JobDetailDialog = lazy(() =>
  import('../job-detail/JobDetailDialog').then((m) => ({ default: m.JobDetailDialog })),
);

/** Parameters that belong to the whole app and survive a tab change (domain=business keeps the admin app). */
const APP_PARAMS = ['domain'];

function TabLoading() {
  return (
    <div className="dash-center dash-center--small" role="status" aria-live="polite">
      <Spin />
      <span className="dash-center__text">Loading...</span>
    </div>
  );
}

/** Dashboard body: role-based tabs (the tab lives in ?tab=), the tab's content, and the job detail (?job=). */
export function DashboardPage({ onLogout, loggingOut }: { onLogout: () => void; loggingOut: boolean }) {
  const { user, business } = useDashboard();
  const [searchParams, setSearchParams] = useSearchParams();
  const [jobId, setJobId] = useUrlParam('job');

  const tabs = tabsFor(user);
  const activeKey = searchParams.get('tab') || DEFAULT_TAB;
  const activeTab = tabs.find((tab) => tab.key === activeKey);

  const selectTab = (key: string) => {
    // A new tab starts with its own defaults; only app-wide parameters are kept.
    setSearchParams((params) => {
      const next = new URLSearchParams();
      for (const name of APP_PARAMS) {
        const value = params.get(name);
        if (value !== null) next.set(name, value);
      }
      next.set('tab', key);
      return next;
    });
  };

  let body: ReactNode;
  switch (activeTab?.key) {
    case 'jobs':
      body = <JobsTab />;
      break;
    case 'schedule':
      body = <ScheduleTab />;
      break;
    case 'invoices':
      body = <InvoicesTab />;
      break;
    case 'expenses':
      body = <ExpensesTab />;
      break;
    case 'time-slots':
      body = <TimeSlotsTab />;
      break;
    case 'reports':
      body = <ReportsTab />;
      break;
    case 'team':
      body = <TeamTab />;
      break;
    case 'prices':
      body = <PricesTab />;
      break;
    case 'settings':
      body = <SettingsTab user={user} onLogout={onLogout} loggingOut={loggingOut} />;
      break;
    default:
      // Spec: unknown tabs (including another role's tabs) show a coming soon note.
      body = <ComingSoon label={activeTab?.label} />;
  }

  return (
    <>
      <title>{`${activeTab?.label ?? 'Dashboard'} | ${business.name}`}</title>
      <nav className="dash-tabs" aria-label="Dashboard sections">
        <div className="dash-container">
          <TabBar
            items={tabs}
            activeKey={activeTab?.key ?? ''}
            onChange={selectTab}
            label="Dashboard sections"
            idPrefix="dash"
            panelId="dash-tabpanel"
          />
        </div>
      </nav>
      <main className="dash-container dash-body" id="dash-main">
        <div
          role="tabpanel"
          id="dash-tabpanel"
          aria-labelledby={activeTab ? tabId('dash', activeTab.key) : undefined}
          aria-label={activeTab ? undefined : 'Dashboard section'}
        >
          <TabErrorBoundary key={activeTab?.key ?? ''} label={activeTab?.label ?? 'This section'}>
            <Suspense fallback={<TabLoading />}>{body}</Suspense>
          </TabErrorBoundary>
        </div>
      </main>
      {jobId && (
        <Suspense fallback={null}>
          <JobDetailDialog jobId={jobId} onClose={() => setJobId(null)} />
        </Suspense>
      )}
    </>
  );
}

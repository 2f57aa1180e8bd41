import { lazy, Suspense, useMemo, useState } from 'react';
import { Outlet, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { injectStyles, type BusinessInfo, type RemoteAppProps } from '@tyres/platform';
import css from './dashboard.css';
import { dashboardTheme, paletteCss } from './theme';
import { useLogout } from './auth/mutations';
import { CheckingAuth, LOGIN_PATH, RequireUser } from './auth/RequireUser';
import type { SessionUser } from './auth/user';
import { DashboardHeader } from './components/DashboardHeader';
import { DashboardProvider } from './context';
import { prefetchLandingJobs } from './api/jobs';
import { useMutationToasts } from './api/mutation-toasts';
import { JOBS_PAGE_SIZE } from './lib/constants';
import { useNotify } from './hooks/useNotify';
import { NotificationCenter } from './notifications/NotificationCenter';
import { DashboardPage } from './pages/DashboardPage';
import { NotFoundPage } from './pages/NotFoundPage';

// The palette's variables first: dashboard.css only refers to them.
injectStyles('dashboard-palette', paletteCss);
injectStyles('dashboard', css);

// Whole pages that only some visits need load on demand (the login form brings react-hook-form and zod, which
// the jobs tab does not need).
const LoginPage = lazy(() => import('./pages/LoginPage').then((m) => ({ default: m.LoginPage })));
const NewBookingPage = lazy(() =>
  import('./pages/NewBookingPage').then((m) => ({ default: m.NewBookingPage })),
);
const NewInvoicePage = lazy(() =>
  import('./invoices/NewInvoicePage').then((m) => ({ default: m.NewInvoicePage })),
);

/** Signed-in frame of every staff route: the session, shared context, live notifications. */
function StaffLayout({
  business,
  homePath,
  user,
}: {
  business: BusinessInfo;
  homePath: string;
  user: SessionUser;
}) {
  const value = useMemo(() => ({ business, homePath, user }), [business, homePath, user]);
  return (
    <DashboardProvider value={value}>
      <NotificationCenter>
        <div className="dash-app">
          <meta name="robots" content="noindex" />
          <Suspense fallback={<CheckingAuth />}>
            <Outlet />
          </Suspense>
        </div>
      </NotificationCenter>
    </DashboardProvider>
  );
}

function DashboardHome() {
  const navigate = useNavigate();
  const notify = useNotify();
  const logout = useLogout({
    onSuccess: () => {
      notify.success('Logged out', 'You have been signed out.');
      navigate(LOGIN_PATH, { replace: true });
    },
  });
  const onLogout = () => logout.mutate();
  return (
    <>
      <DashboardHeader onLogout={onLogout} loggingOut={logout.isPending} />
      <DashboardPage onLogout={onLogout} loggingOut={logout.isPending} />
    </>
  );
}

/**
 * The staff app (spec section 2, admin routes). The shell renders it for /dashboard*, /auth, the
 * business host and ?domain=business; `/` is only reached here in the latter two cases.
 */
export default function DashboardApp({ business, homePath }: RemoteAppProps) {
  const queryClient = useQueryClient();
  const location = useLocation();
  useMutationToasts();
  useState(() => prefetchLandingJobs(queryClient, location, JOBS_PAGE_SIZE));
  const login = <LoginPage business={business} homePath={homePath} />;
  const staff = (
    <RequireUser>{(user) => <StaffLayout business={business} homePath={homePath} user={user} />}</RequireUser>
  );
  return (
    <ConfigProvider theme={dashboardTheme}>
      <div className="dash-root">
        <Suspense fallback={<CheckingAuth />}>
          <Routes>
            <Route element={staff}>
              <Route index element={<DashboardHome />} />
              <Route path="dashboard" element={<DashboardHome />} />
              <Route path="dashboard/booking/new" element={<NewBookingPage />} />
              <Route path="dashboard/invoices/new" element={<NewInvoicePage />} />
            </Route>
            <Route path="auth" element={login} />
            <Route path="dashboard/login" element={login} />
            <Route path="*" element={<NotFoundPage business={business} homePath={homePath} />} />
          </Routes>
        </Suspense>
      </div>
    </ConfigProvider>
  );
}

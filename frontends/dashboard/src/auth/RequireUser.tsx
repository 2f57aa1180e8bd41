import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Button, Result, Spin } from 'antd';
import type { SessionUser } from './user';
import { useSessionUser } from './user';

export const LOGIN_PATH = '/auth';

export function CheckingAuth() {
  return (
    <div className="dash-center" role="status" aria-live="polite">
      <Spin size="large" />
      <p className="dash-center__text">Checking authentication...</p>
    </div>
  );
}

/** Spec section 2: protected routes show "Checking authentication..." and send visitors to /auth. */
export function RequireUser({ children }: { children: (user: SessionUser) => ReactNode }) {
  const { data: user, isPending, isError, refetch } = useSessionUser();
  const location = useLocation();

  if (isPending) return <CheckingAuth />;
  if (isError) {
    return (
      <div className="dash-center">
        <Result
          status="warning"
          title="We couldn't check your session"
          subTitle="Please check your connection and try again."
          extra={
            <Button type="primary" onClick={() => void refetch()}>
              Retry
            </Button>
          }
        />
      </div>
    );
  }
  if (!user)
    return <Navigate to={LOGIN_PATH} replace state={{ from: location.pathname + location.search }} />;
  return <>{children(user)}</>;
}

import { Button, Tag, Tooltip } from 'antd';
import type { SessionUser } from '../auth/user';
import { useDashboard, useDashboardNavigation } from '../context';
import { useNotificationStatus } from '../notifications/NotificationCenter';

export function roleLabel(role: SessionUser['role']): string {
  return role === 'admin' ? 'Admin' : 'Technician';
}

const STATUS_TEXT = {
  live: 'Live: new bookings appear as they arrive',
  connecting: 'Connecting to live updates...',
  reconnecting: 'Reconnecting to live updates...',
  disconnected: 'Live updates disconnected',
} as const;

function LiveIndicator() {
  const { status, reconnect } = useNotificationStatus();
  const label = status === 'live' ? 'Live' : status === 'disconnected' ? 'Offline' : 'Connecting';
  return (
    <Tooltip title={STATUS_TEXT[status]}>
      <span className={`dash-live dash-live--${status}`} role="status" aria-label={STATUS_TEXT[status]}>
        <span className="dash-live__dot" aria-hidden="true" />
        <span className="dash-live__text">{label}</span>
        {status === 'disconnected' && (
          <Button size="small" type="link" onClick={reconnect} className="dash-live__retry">
            Reconnect
          </Button>
        )}
      </span>
    </Tooltip>
  );
}

/** Dashboard header: business, New Booking, live status, who is signed in, Logout. */
export function DashboardHeader({ onLogout, loggingOut }: { onLogout: () => void; loggingOut: boolean }) {
  const { business, user } = useDashboard();
  const nav = useDashboardNavigation();
  return (
    <header className="dash-header">
      <div className="dash-container dash-header__inner">
        <div className="dash-header__brand">
          <span className="dash-logo__mark" aria-hidden="true" />
          <div className="dash-header__titles">
            <span className="dash-header__name">{business.name}</span>
            <span className="dash-header__section">Dashboard</span>
          </div>
        </div>
        <div className="dash-header__user">
          <LiveIndicator />
          <Button type="primary" onClick={nav.newBooking} className="dash-header__new">
            New Booking
          </Button>
          <div className="dash-header__who">
            <span className="dash-header__username" title={user.username}>
              {user.username}
            </span>
            <Tag color={user.role === 'admin' ? 'blue' : 'green'} className="dash-header__role">
              {roleLabel(user.role)}
            </Tag>
          </div>
          <Button onClick={onLogout} loading={loggingOut} className="dash-header__logout">
            Logout
          </Button>
        </div>
      </div>
    </header>
  );
}

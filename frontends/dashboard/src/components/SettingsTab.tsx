import { Button, Descriptions } from 'antd';
import type { SessionUser } from '../auth/user';
import { roleLabel } from './DashboardHeader';

/** Spec "Dashboard": Settings tab shows username, email (or "Not set"), role, and Logout. */
export function SettingsTab({
  user,
  onLogout,
  loggingOut,
}: {
  user: SessionUser;
  onLogout: () => void;
  loggingOut: boolean;
}) {
  return (
    <section className="dash-panel" aria-labelledby="dash-settings-title">
      <h2 id="dash-settings-title" className="dash-panel__title">
        Account
      </h2>
      <Descriptions
        column={1}
        bordered
        size="middle"
        className="dash-settings__details"
        styles={{ label: { width: 120 } }}
        items={[
          { key: 'username', label: 'Username', children: user.username },
          { key: 'email', label: 'Email', children: user.email || 'Not set' },
          { key: 'role', label: 'Role', children: roleLabel(user.role) },
        ]}
      />
      <Button danger className="dash-settings__logout" onClick={onLogout} loading={loggingOut}>
        Logout
      </Button>
    </section>
  );
}

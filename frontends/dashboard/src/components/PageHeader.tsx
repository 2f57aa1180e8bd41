import { Button } from 'antd';
import { useDashboard, useDashboardNavigation } from '../context';

/** Header of the full-page forms (New Booking, New Invoice): back to the dashboard and the "Admin Dashboard" label. */
export function PageHeader({ title, backTab }: { title: string; backTab?: string }) {
  const { business } = useDashboard();
  const nav = useDashboardNavigation();
  return (
    <header className="dash-header">
      <div className={`dash-container dash-container--narrow dash-header__inner`}>
        <div className="dash-header__brand">
          <Button onClick={() => nav.home(backTab)} aria-label="Back to dashboard" className="dash-back">
            ← Back
          </Button>
          <div className="dash-header__titles">
            <span className="dash-header__name">Admin Dashboard</span>
            <span className="dash-header__section">{business.name}</span>
          </div>
        </div>
      </div>
      <div className="dash-container dash-container--narrow">
        <h1 className="dash-page-title">{title}</h1>
      </div>
    </header>
  );
}

import { Tag } from 'antd';
import { statusLabel } from '../lib/format';

const JOB_COLORS: Record<string, string> = {
  new: 'blue',
  'in-progress': 'orange',
  completed: 'green',
  invoiced: 'purple',
  paid: 'cyan',
  cancelled: 'default',
};

const SCHEDULE_COLORS: Record<string, string> = {
  pending: 'gold',
  confirmed: 'blue',
  in_progress: 'orange',
  completed: 'green',
  cancelled: 'default',
};

const INVOICE_COLORS: Record<string, string> = {
  draft: 'default',
  sent: 'blue',
  paid: 'green',
  overdue: 'red',
  cancelled: 'default',
};

export function JobStatusTag({ status }: { status: string }) {
  return (
    <Tag color={JOB_COLORS[status] ?? 'default'} className="dash-status-tag">
      {statusLabel(status)}
    </Tag>
  );
}

export function ScheduleStatusTag({ status }: { status: string }) {
  return (
    <Tag color={SCHEDULE_COLORS[status] ?? 'default'} className="dash-status-tag">
      {statusLabel(status)}
    </Tag>
  );
}

export function InvoiceStatusTag({ status }: { status: string }) {
  return (
    <Tag color={INVOICE_COLORS[status] ?? 'default'} className="dash-status-tag">
      {statusLabel(status)}
    </Tag>
  );
}

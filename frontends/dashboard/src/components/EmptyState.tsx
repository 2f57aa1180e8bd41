import type { ReactNode } from 'react';
import { Empty } from 'antd';

/** The empty state of a list: the spec's text as the description (e.g. "No jobs found"). */
export function EmptyState({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <div className="dash-empty" role="status">
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text}>
        {children}
      </Empty>
    </div>
  );
}

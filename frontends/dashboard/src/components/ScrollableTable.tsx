import { useEffect, useRef } from 'react';
import { Table, type TableProps } from 'antd';

/**
 * An antd Table whose sideways-scrolling area can be reached by keyboard. A table of plain figures has nothing
 * focusable in it, so on a phone its hidden columns could only be scrolled to by touch (axe:
 * scrollable-region-focusable, WCAG 2.1.1). antd renders the scrolling element itself and has no prop for it, so after
 * each render it gets tabindex=0 and a name (role=region, aria-label = `label`): Tab reaches it, the arrow keys scroll.
 */
export function ScrollableTable<T extends object>({ label, ...props }: TableProps<T> & { label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const area of ref.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body') ??
      []) {
      area.tabIndex = 0;
      area.setAttribute('role', 'region');
      area.setAttribute('aria-label', label);
    }
  });
  return (
    <div ref={ref}>
      <Table<T> {...props} />
    </div>
  );
}

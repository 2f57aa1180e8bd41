import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabBarItem {
  key: string;
  label: ReactNode;
}

/** The id of a TabBar's tab (for the panel's aria-labelledby). */
export const tabId = (idPrefix: string, key: string) => `${idPrefix}-tab-${key}`;

/**
 * A row of tabs that only switches (the content is rendered by the caller, in the element `panelId`, which carries
 * role="tabpanel" and aria-labelledby={tabId(idPrefix, activeKey)}).
 *
 * antd's Tabs put their overflow "more" button inside role="tablist" once the tabs do not fit (phones), which axe
 * reports as aria-required-children (critical, issue 19): a tablist may own only tabs. Here the tablist owns its tabs
 * and nothing else; on a narrow screen the row scrolls sideways (each tab is a button, so the row is reachable by
 * keyboard) and the selected tab is scrolled into view. Keys as in the WAI-ARIA tabs pattern: Left/Right move and
 * select, Home/End go to the first/last tab; only the selected tab is in the Tab order.
 */
export function TabBar({
  items,
  activeKey,
  onChange,
  label,
  idPrefix,
  panelId,
  className,
}: {
  items: TabBarItem[];
  activeKey: string;
  onChange: (key: string) => void;
  /** Accessible name of the tablist. */
  label: string;
  idPrefix: string;
  panelId: string;
  className?: string;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const activeIndex = items.findIndex((item) => item.key === activeKey);

  useEffect(() => {
    const active = listRef.current?.querySelector<HTMLElement>('[aria-selected="true"]');
    // Not in jsdom (no layout); inline: 'nearest' leaves the page's vertical scroll alone.
    active?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeKey]);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const from = activeIndex < 0 ? 0 : activeIndex;
    let to: number | null = null;
    if (event.key === 'ArrowRight') to = (from + 1) % items.length;
    else if (event.key === 'ArrowLeft') to = (from - 1 + items.length) % items.length;
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = items.length - 1;
    if (to === null) return;
    event.preventDefault();
    const key = items[to]!.key;
    onChange(key);
    document.getElementById(tabId(idPrefix, key))?.focus();
  };

  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label={label}
      aria-orientation="horizontal"
      className={`dash-tabbar${className ? ` ${className}` : ''}`}
    >
      {items.map((item, index) => {
        const selected = item.key === activeKey;
        return (
          <button
            key={item.key}
            type="button"
            role="tab"
            id={tabId(idPrefix, item.key)}
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected || (activeIndex < 0 && index === 0) ? 0 : -1}
            className={`dash-tabbar__tab${selected ? ' dash-tabbar__tab--active' : ''}`}
            onKeyDown={onKeyDown}
            onClick={() => {
              if (!selected) onChange(item.key);
            }}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TabBar, tabId } from '../components/TabBar';

const ITEMS = [
  { key: 'jobs', label: 'Jobs' },
  { key: 'schedule', label: 'Schedule' },
  { key: 'settings', label: 'Settings' },
];

function Tabs({ initial = 'jobs' }: { initial?: string }) {
  const [active, setActive] = useState(initial);
  return (
    <>
      <TabBar
        items={ITEMS}
        activeKey={active}
        onChange={setActive}
        label="Sections"
        idPrefix="t"
        panelId="panel"
      />
      <div role="tabpanel" id="panel" aria-labelledby={tabId('t', active)}>
        {`${active} content`}
      </div>
    </>
  );
}

describe('TabBar (issue 19: a tablist owning only tabs)', () => {
  test('the tablist owns exactly its tabs; the selected one is in the Tab order and names the panel', () => {
    render(<Tabs initial="schedule" />);
    const list = screen.getByRole('tablist', { name: 'Sections' });
    expect([...list.children].map((c) => c.getAttribute('role'))).toEqual(['tab', 'tab', 'tab']);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected'), t.tabIndex])).toEqual([
      ['Jobs', 'false', -1],
      ['Schedule', 'true', 0],
      ['Settings', 'false', -1],
    ]);
    expect(tabs.every((t) => t.getAttribute('aria-controls') === 'panel')).toBe(true);
    expect(screen.getByRole('tabpanel', { name: 'Schedule' })).toHaveTextContent('schedule content');
  });

  test('click selects; arrow keys move and select (wrapping), Home and End go to the ends', async () => {
    render(<Tabs />);
    await userEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('settings content');
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Jobs' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Jobs' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Settings' })).toHaveFocus();
    await userEvent.keyboard('{Home}');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('jobs content');
    await userEvent.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Settings' })).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'Settings' })).toBeInTheDocument();
  });
});

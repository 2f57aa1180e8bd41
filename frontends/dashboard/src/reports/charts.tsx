import type { ReactElement } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { categoryLabel } from '../lib/format';
import { formatMoney } from '../lib/money';
import { palette } from '../theme';

/**
 * Charts for the reports tab (recharts, loaded only with this tab). Every chart has a text summary as its
 * accessible name, and the same figures are in the cards and tables next to it.
 */

export const PALETTE = [
  palette.primary,
  palette.success,
  palette.warning,
  palette.danger,
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#ea580c',
  '#475569',
];

const money = (v: unknown) => formatMoney(typeof v === 'number' ? v.toFixed(2) : String(v ?? 0));
const compact = (v: number) =>
  Math.abs(v) >= 1000 ? `$${(v / 1000).toFixed(v % 1000 === 0 ? 0 : 1)}k` : `$${v}`;
const num = (v: string | number | null | undefined) => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
};

function ChartFrame({
  label,
  height = 260,
  children,
}: {
  label: string;
  height?: number;
  children: ReactElement;
}) {
  return (
    <figure className="dash-chart" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height={height}>
        {children}
      </ResponsiveContainer>
    </figure>
  );
}

/**
 * Grouped (or stacked) bars: one group per entry, one bar per series. `horizontal` lays the bars sideways with the
 * names on the left, for long names (suppliers) that would collide under vertical bars on a phone.
 */
export function MoneyBarChart({
  label,
  data,
  series,
  stacked = false,
  horizontal = false,
  height,
}: {
  label: string;
  data: { name: string; [key: string]: string | number }[];
  series: { key: string; name: string; color: string }[];
  stacked?: boolean;
  horizontal?: boolean;
  height?: number;
}) {
  const radius: [number, number, number, number] = horizontal ? [0, 4, 4, 0] : [4, 4, 0, 0];
  return (
    <ChartFrame label={label} height={height ?? (horizontal ? 72 + 44 * data.length : undefined)}>
      <BarChart
        data={data}
        layout={horizontal ? 'vertical' : 'horizontal'}
        margin={{ top: 8, right: 16, left: 0, bottom: 8 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={horizontal} horizontal={!horizontal} />
        {horizontal ? (
          <>
            <XAxis type="number" tickFormatter={compact} tick={{ fontSize: 12 }} />
            <YAxis type="category" dataKey="name" tick={{ fontSize: 12 }} width={140} interval={0} />
          </>
        ) : (
          <>
            <XAxis dataKey="name" tick={{ fontSize: 12 }} interval={0} />
            <YAxis tickFormatter={compact} tick={{ fontSize: 12 }} width={56} />
          </>
        )}
        <Tooltip formatter={(v) => money(v)} />
        <Legend />
        {series.map((s, i) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.name}
            fill={s.color}
            stackId={stacked ? 'stack' : undefined}
            // Only the outer end of a stack is rounded.
            radius={!stacked || i === series.length - 1 ? radius : 0}
            maxBarSize={horizontal ? 28 : undefined}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFrame>
  );
}

/** One bar per figure, each in its own colour (e.g. GST collected, paid, net). */
export function FigureBars({
  label,
  data,
  height = 220,
}: {
  label: string;
  data: { name: string; value: number; color: string }[];
  height?: number;
}) {
  return (
    <ChartFrame label={label} height={height}>
      <BarChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="name" tick={{ fontSize: 12 }} />
        <YAxis tickFormatter={compact} tick={{ fontSize: 12 }} width={56} />
        <Tooltip formatter={(v) => money(v)} />
        <Bar dataKey="value" name="Amount" radius={[4, 4, 0, 0]} maxBarSize={96} isAnimationActive={false}>
          {data.map((d) => (
            <Cell key={d.name} fill={d.color} />
          ))}
        </Bar>
      </BarChart>
    </ChartFrame>
  );
}

/** Share of a total by category: a donut, and a legend that says each category's amount and share. */
export function CategoryPie({
  label,
  data,
}: {
  label: string;
  data: { category: string; amount: string | number }[];
}) {
  const rows = data
    .map((d) => ({ name: categoryLabel(d.category), value: num(d.amount) }))
    .filter((d) => d.value > 0);
  const total = rows.reduce((sum, row) => sum + row.value, 0);
  const share = (value: number) => (total > 0 ? `${Math.round((value / total) * 100)}%` : '');
  return (
    <ChartFrame label={label} height={220 + 22 * Math.ceil(rows.length / 2)}>
      <PieChart>
        <Pie
          data={rows}
          dataKey="value"
          nameKey="name"
          innerRadius="45%"
          outerRadius="80%"
          paddingAngle={2}
          isAnimationActive={false}
        >
          {rows.map((row, i) => (
            <Cell key={row.name} fill={PALETTE[i % PALETTE.length]} />
          ))}
        </Pie>
        <Tooltip formatter={(v) => money(v)} />
        <Legend
          formatter={(name: string, entry) => {
            const value = (entry.payload as { value?: number } | undefined)?.value ?? 0;
            return `${name} ${money(value)} (${share(value)})`;
          }}
        />
      </PieChart>
    </ChartFrame>
  );
}

export { num };

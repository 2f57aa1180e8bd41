import type { ReactNode } from 'react';
import { Alert, Segmented, Table, Tag } from 'antd';
import { useReport } from '../api/reports';
import type { EnhancedPlReport, GstReport, PayablesReport } from '../api/types';
import { DateField } from '../components/DateField';
import { EmptyState } from '../components/EmptyState';
import { TabBar, tabId } from '../components/TabBar';
import { QueryError } from '../components/QueryError';
import { ScrollableTable } from '../components/ScrollableTable';
import { InvoiceStatusTag } from '../components/StatusTag';
import { useUrlParam } from '../hooks/useUrlParam';
import { isDateString } from '../lib/dates';
import { formatShortDate } from '../lib/dates';
import { categoryLabel } from '../lib/format';
import { cents, formatMoney } from '../lib/money';
import { CategoryPie, FigureBars, MoneyBarChart, num, PALETTE } from './charts';
import { PRESETS, presetRange, rangeProblem, type Preset } from './range';

function Stat({ label, value, tone }: { label: string; value: ReactNode; tone?: 'good' | 'bad' }) {
  return (
    <div className={`dash-stat${tone ? ` dash-stat--${tone}` : ''}`}>
      <span className="dash-stat__label">{label}</span>
      <span className="dash-stat__value">{value}</span>
    </div>
  );
}

/** Columns that only fit from small tablets up; phones keep the names, GST and totals. */
const WIDE: ['sm'] = ['sm'];

const isZero = (v: string | number | null | undefined) => cents(v) === 0n;
const pct = (v: string | number | null | undefined) => `${Number(v ?? 0).toFixed(1)}%`;

function ReportState({
  query,
  failure,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  failure: string;
  children: ReactNode;
}) {
  if (query.isError)
    return <QueryError title={failure} error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending)
    return (
      <div className="dash-loading" role="status">
        Loading report...
      </div>
    );
  return <>{children}</>;
}

/** GST: collected on customer invoices, paid on purchases, the net; for looking at, not for lodging. */
export function GstView({ report }: { report: GstReport }) {
  const empty =
    report.customerInvoices.length === 0 &&
    report.purchaseInvoices.length === 0 &&
    isZero(report.gstCollected) &&
    isZero(report.gstPaid);
  if (empty) return <EmptyState text="No GST data available for the selected period" />;
  const net = cents(report.netGST);
  return (
    <div className="dash-report">
      <Alert
        type="info"
        showIcon
        title="Visual only"
        description="These figures help you check GST at a glance. Lodge your BAS from your accounting records."
      />
      <div className="dash-stats dash-stats--3">
        <Stat label="GST Collected" value={formatMoney(report.gstCollected)} />
        <Stat label="GST Paid" value={formatMoney(report.gstPaid)} />
        <Stat
          label={net >= 0n ? 'Net GST Payable' : 'Net GST Refund'}
          value={formatMoney(report.netGST)}
          tone={net > 0n ? 'bad' : 'good'}
        />
      </div>
      <FigureBars
        label={`GST collected ${formatMoney(report.gstCollected)}, GST paid ${formatMoney(report.gstPaid)}, net ${formatMoney(report.netGST)}`}
        data={[
          { name: 'Collected', value: num(report.gstCollected), color: PALETTE[0]! },
          { name: 'Paid', value: num(report.gstPaid), color: PALETTE[2]! },
          { name: 'Net', value: num(report.netGST), color: PALETTE[1]! },
        ]}
      />
      <h3 className="dash-detail__heading">Customer Invoices</h3>
      <ScrollableTable
        label="Customer invoices"
        size="small"
        rowKey={(r) => r.invoiceNumber}
        dataSource={report.customerInvoices}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No customer invoices in this period' }}
        columns={[
          { title: 'Invoice', dataIndex: 'invoiceNumber' },
          { title: 'Customer', dataIndex: 'customerName' },
          {
            title: 'Date',
            dataIndex: 'issueDate',
            responsive: WIDE,
            render: (v: string) => formatShortDate(v),
          },
          {
            title: 'Status',
            dataIndex: 'status',
            responsive: WIDE,
            render: (v: string) => <InvoiceStatusTag status={v} />,
          },
          {
            title: 'Subtotal',
            dataIndex: 'subtotal',
            align: 'right',
            responsive: WIDE,
            render: (v: string) => formatMoney(v),
          },
          { title: 'GST', dataIndex: 'gstAmount', align: 'right', render: (v: string) => formatMoney(v) },
          { title: 'Total', dataIndex: 'totalAmount', align: 'right', render: (v: string) => formatMoney(v) },
        ]}
      />
      <h3 className="dash-detail__heading">Purchase Invoices</h3>
      <ScrollableTable
        label="Purchase invoices"
        size="small"
        rowKey={(r) => `${r.supplierName}-${r.invoiceNumber}`}
        dataSource={report.purchaseInvoices}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No purchase invoices in this period' }}
        columns={[
          { title: 'Invoice', dataIndex: 'invoiceNumber' },
          { title: 'Supplier', dataIndex: 'supplierName' },
          {
            title: 'Date',
            dataIndex: 'invoiceDate',
            responsive: WIDE,
            render: (v: string) => formatShortDate(v),
          },
          {
            title: 'Paid',
            dataIndex: 'isPaid',
            responsive: WIDE,
            render: (v: boolean) => <Tag color={v ? 'green' : 'orange'}>{v ? 'Paid' : 'Unpaid'}</Tag>,
          },
          {
            title: 'Subtotal',
            dataIndex: 'subtotal',
            align: 'right',
            responsive: WIDE,
            render: (v: string) => formatMoney(v),
          },
          { title: 'GST', dataIndex: 'gstAmount', align: 'right', render: (v: string) => formatMoney(v) },
          { title: 'Total', dataIndex: 'totalAmount', align: 'right', render: (v: string) => formatMoney(v) },
        ]}
      />
    </div>
  );
}

/** Purchases and payables: totals, by supplier (chart), by category, upcoming payments. */
export function PayablesView({ report }: { report: PayablesReport }) {
  const empty =
    report.purchasesBySupplier.length === 0 &&
    report.upcomingPayments.length === 0 &&
    isZero(report.totalPurchases) &&
    isZero(report.totalPayables);
  if (empty) return <EmptyState text="No payables data available for the selected period" />;
  const suppliers = [...report.purchasesBySupplier]
    .sort((a, b) => num(b.totalAmount) - num(a.totalAmount))
    .slice(0, 8);
  return (
    <div className="dash-report">
      <div className="dash-stats">
        <Stat label="Total Purchases" value={formatMoney(report.totalPurchases)} />
        <Stat label="Paid" value={formatMoney(report.totalPaid)} tone="good" />
        <Stat
          label="Payables"
          value={formatMoney(report.totalPayables)}
          tone={isZero(report.totalPayables) ? undefined : 'bad'}
        />
        <Stat
          label="Overdue"
          value={
            typeof report.overduePurchases === 'number'
              ? report.overduePurchases
              : formatMoney(report.overduePurchases)
          }
          tone="bad"
        />
      </div>
      {suppliers.length > 0 && (
        <>
          <h3 className="dash-detail__heading">Payables by Supplier</h3>
          <MoneyBarChart
            label={`Purchases by supplier: ${suppliers.map((s) => `${s.supplierName} ${formatMoney(s.totalAmount)} (${formatMoney(s.unpaidAmount)} unpaid)`).join('; ')}`}
            data={suppliers.map((s) => ({
              name: s.supplierName,
              paid: num(s.paidAmount),
              unpaid: num(s.unpaidAmount),
            }))}
            series={[
              { key: 'paid', name: 'Paid', color: PALETTE[1]! },
              { key: 'unpaid', name: 'Unpaid', color: PALETTE[3]! },
            ]}
            stacked
            horizontal
          />
        </>
      )}
      {report.purchasesByCategory.length > 0 && (
        <>
          <h3 className="dash-detail__heading">By Category</h3>
          <ScrollableTable
            label="Purchases by category"
            size="small"
            rowKey="category"
            dataSource={report.purchasesByCategory}
            pagination={false}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: 'Category', dataIndex: 'category', render: (v: string) => categoryLabel(v) },
              { title: 'Invoices', dataIndex: 'invoiceCount', align: 'right', responsive: WIDE },
              {
                title: 'Total',
                dataIndex: 'totalAmount',
                align: 'right',
                render: (v: string) => formatMoney(v),
              },
              {
                title: 'Paid',
                dataIndex: 'paidAmount',
                responsive: WIDE,
                align: 'right',
                render: (v: string) => formatMoney(v),
              },
              {
                title: 'Unpaid',
                dataIndex: 'unpaidAmount',
                align: 'right',
                render: (v: string) => formatMoney(v),
              },
            ]}
          />
        </>
      )}
      <h3 className="dash-detail__heading">Upcoming Payments</h3>
      <ScrollableTable
        label="Upcoming payments"
        size="small"
        rowKey="id"
        dataSource={report.upcomingPayments}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'Nothing due' }}
        columns={[
          { title: 'Supplier', dataIndex: 'supplierName' },
          { title: 'Invoice', dataIndex: 'invoiceNumber', responsive: WIDE },
          { title: 'Due', dataIndex: 'dueDate', responsive: WIDE, render: (v: string) => formatShortDate(v) },
          {
            title: 'Days',
            dataIndex: 'daysUntilDue',
            render: (d: number) => (
              <Tag color={d < 0 || d <= 7 ? 'red' : d <= 14 ? 'gold' : 'default'}>
                {d < 0 ? `${-d} overdue` : `${d} days`}
              </Tag>
            ),
          },
          {
            title: 'Amount',
            dataIndex: 'totalAmount',
            align: 'right',
            render: (v: string) => formatMoney(v),
          },
        ]}
      />
    </div>
  );
}

/** Profit and loss: revenue against expenses (chart), margins, where money comes from and goes. */
export function PlView({ report }: { report: EnhancedPlReport }) {
  const empty = isZero(report.revenue.totalRevenue) && isZero(report.expenses.totalExpenses);
  if (empty) return <EmptyState text="No P&L data available for the selected period" />;
  const net = cents(report.profit.netProfit);
  return (
    <div className="dash-report">
      <p className="dash-muted">Every figure excludes GST (income is the invoices&apos; amounts less their GST).</p>
      <div className="dash-stats">
        <Stat label="Total Revenue (ex GST)" value={formatMoney(report.revenue.totalRevenue)} />
        <Stat label="Total Expenses (ex GST)" value={formatMoney(report.expenses.totalExpenses)} />
        <Stat
          label={`Gross Profit (${pct(report.profit.grossMargin)})`}
          value={formatMoney(report.profit.grossProfit)}
        />
        <Stat
          label={`Net Profit (${pct(report.profit.netMargin)})`}
          value={formatMoney(report.profit.netProfit)}
          tone={net >= 0n ? 'good' : 'bad'}
        />
      </div>
      <h3 className="dash-detail__heading">Revenue vs Expenses</h3>
      <MoneyBarChart
        label={`Revenue ${formatMoney(report.revenue.totalRevenue)} against expenses ${formatMoney(report.expenses.totalExpenses)}; net profit ${formatMoney(report.profit.netProfit)}`}
        data={[
          {
            name: 'Revenue',
            invoices: num(report.revenue.customerInvoices),
            jobs: num(report.revenue.jobRevenue),
          },
          {
            name: 'Expenses',
            jobCosts: num(report.expenses.jobCosts),
            business: num(report.expenses.businessExpenses),
          },
        ]}
        series={[
          { key: 'invoices', name: 'Customer invoices', color: PALETTE[0]! },
          { key: 'jobs', name: 'Job revenue', color: PALETTE[5]! },
          { key: 'jobCosts', name: 'Job costs', color: PALETTE[2]! },
          { key: 'business', name: 'Business expenses', color: PALETTE[3]! },
        ]}
        stacked
      />
      <div className="dash-report__split">
        <div>
          <h3 className="dash-detail__heading">Expense Categories</h3>
          {report.breakdown.topExpenseCategories.length > 0 ? (
            <CategoryPie
              label={`Expenses by category: ${report.breakdown.topExpenseCategories.map((c) => `${categoryLabel(c.category)} ${formatMoney(c.amount)}`).join('; ')}`}
              data={report.breakdown.topExpenseCategories}
            />
          ) : (
            <p className="dash-muted">No expenses in this period.</p>
          )}
        </div>
        <div>
          <h3 className="dash-detail__heading">Top Revenue Streams</h3>
          <Table
            size="small"
            rowKey="category"
            dataSource={report.breakdown.topRevenueStreams}
            pagination={false}
            locale={{ emptyText: 'No revenue in this period' }}
            columns={[
              { title: 'Stream', dataIndex: 'category', render: (v: string) => categoryLabel(v) },
              { title: 'Amount', dataIndex: 'amount', align: 'right', render: (v: string) => formatMoney(v) },
              {
                title: 'Share',
                dataIndex: 'percentage',
                align: 'right',
                render: (v: string | number) => pct(v),
              },
            ]}
          />
        </div>
      </div>
    </div>
  );
}

const SUB_TABS = [
  {
    key: 'gst',
    // "(Visual Only)" drops to a second line on phones so all three sub-tabs fit side by side.
    label: (
      <span className="dash-subtab">
        GST Tracking<span className="dash-subtab__note"> (Visual Only)</span>
      </span>
    ),
  },
  { key: 'payables', label: 'Payables' },
  { key: 'pl', label: 'P&L Report' },
];

/** Reports (admins): a period (start and end dates) and three sub-tabs. Only the open sub-tab is fetched. */
export function ReportsTab() {
  const [report, setReport] = useUrlParam('report', 'gst');
  const [preset, setPreset] = useUrlParam('period', 'month');
  const [from, setFrom] = useUrlParam('from');
  const [to, setTo] = useUrlParam('to');
  const range =
    preset === 'custom'
      ? { startDate: isDateString(from) ? from : '', endDate: isDateString(to) ? to : '' }
      : presetRange(
          (PRESETS.some((p) => p.value === preset) ? preset : 'month') as Exclude<Preset, 'custom'>,
        );
  const problem = rangeProblem(range.startDate, range.endDate);
  const gst = useReport('gst', range, report === 'gst' && !problem);
  const payables = useReport('purchases-payables', range, report === 'payables' && !problem);
  const pl = useReport('enhanced-pl', range, report === 'pl' && !problem);

  const setDate = (which: 'from' | 'to', value: string | null) => {
    const other: Record<string, string | null> =
      which === 'from' ? { to: range.endDate || null } : { from: range.startDate || null };
    (which === 'from' ? setFrom : setTo)(value, { period: 'custom', ...other });
  };

  const activeReport = SUB_TABS.some((t) => t.key === report) ? report : 'gst';
  let body: ReactNode;
  if (problem) body = <Alert type="error" showIcon title={problem} />;
  else if (report === 'payables')
    body = (
      <ReportState query={payables} failure="Failed to fetch Purchases/Payables report">
        {payables.data && <PayablesView report={payables.data} />}
      </ReportState>
    );
  else if (report === 'pl')
    body = (
      <ReportState query={pl} failure="Failed to fetch Enhanced P&L report">
        {pl.data && <PlView report={pl.data} />}
      </ReportState>
    );
  else
    body = (
      <ReportState query={gst} failure="Failed to fetch GST report">
        {gst.data && <GstView report={gst.data} />}
      </ReportState>
    );

  return (
    <section className="dash-panel" aria-labelledby="dash-reports-title">
      <div className="dash-panel__bar">
        <h2 id="dash-reports-title" className="dash-panel__title">
          Reports
        </h2>
      </div>
      <div className="dash-report-filters" role="group" aria-label="Report period">
        <Segmented
          options={PRESETS}
          value={preset}
          onChange={(v) =>
            setPreset(
              String(v),
              v === 'custom'
                ? { from: range.startDate || null, to: range.endDate || null }
                : { from: null, to: null },
            )
          }
          className="dash-presets"
        />
        <div className="dash-report-dates">
          <div className="dash-line-field">
            <label className="dash-line-inputs__label" htmlFor="report-start">
              Start Date
            </label>
            <DateField
              id="report-start"
              value={range.startDate || null}
              onChange={(v) => setDate('from', v)}
              placeholder="Start date"
            />
          </div>
          <div className="dash-line-field">
            <label className="dash-line-inputs__label" htmlFor="report-end">
              End Date
            </label>
            <DateField
              id="report-end"
              value={range.endDate || null}
              onChange={(v) => setDate('to', v)}
              placeholder="End date"
            />
          </div>
        </div>
      </div>
      <TabBar
        items={SUB_TABS}
        activeKey={activeReport}
        onChange={(key) => setReport(key)}
        label="Reports"
        idPrefix="report"
        panelId="report-tabpanel"
        className="dash-tabbar--sub"
      />
      <div role="tabpanel" id="report-tabpanel" aria-labelledby={tabId('report', activeReport)}>
        {body}
      </div>
    </section>
  );
}

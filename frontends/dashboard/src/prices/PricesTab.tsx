import { useState, type ReactNode } from 'react';
import { Alert, Button, Checkbox, Form, Input, Modal, Spin, Table, Tag, type TableColumnsType } from 'antd';
import { errorMessage } from '@tyres/platform';
import { failureReported } from '../api/mutation-toasts';
import { ScrollableTable } from '../components/ScrollableTable';
import { useNotify } from '../hooks/useNotify';
import { formatShortDate, formatTimestamp } from '../lib/dates';
import {
  FEE_KEYS,
  RATE_KEY,
  usePriceAudit,
  usePriceList,
  usePriceMutations,
  type AuditEntry,
  type CatalogueTyre,
  type FeeKey,
  type Fees,
  type FeeVersion,
  type PriceListView,
} from './api';

/**
 * Prices (admins, issue 19 item 5): the fee schedule and the tyre catalogue in force, changes scheduled with an
 * effective date (empty: from now), and the audit history. A change applies to quotes made from its date; bookings
 * already made keep the price they were quoted.
 */

const FEE_LABELS: Record<FeeKey, string> = {
  calloutFee: 'Callout fee',
  punctureRepair: 'Puncture repair',
  fittingPerTyre: 'Fitting (per tyre)',
  balancingPerTyre: 'Balancing (per tyre)',
  prepaidDiscount: 'Prepaid online discount',
  cardSurchargeRate: 'Card surcharge',
};

const ACTION_LABELS: Record<string, string> = {
  'fees.scheduled': 'Fees changed',
  'fees.cancelled': 'Fee change cancelled',
  'tyre.created': 'Tyre added',
  'tyre.changed': 'Tyre changed',
  'tyre.change-cancelled': 'Tyre change cancelled',
};

export const money = (v: string | undefined) => (v === undefined ? '—' : `$${v}`);
/** A rate as the business writes it: "1.70" → "1.7%", "2.00" → "2%". */
export const rate = (v: string | undefined) =>
  v === undefined ? '—' : `${v.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')}%`;
/** A fee schedule field as shown: dollars, or the card surcharge as a percentage. */
const feeText = (key: string, v: string | undefined) => (key === RATE_KEY ? rate(v) : money(v));

/** "from now" or "from 1 Mar 2032" for an effective date input. */
const effectiveLabel = (date: string) => (date ? `from ${formatShortDate(date)}` : 'from now');

/** What a change did, for the audit history: "Callout fee $89.80 → $99.80; In stock yes → no". */
export function describeChange(entry: Pick<AuditEntry, 'before' | 'after' | 'subjectType'>): string {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const label = (key: string) =>
    (FEE_LABELS as Record<string, string>)[key] ??
    (key === 'inStock' ? 'In stock' : key === 'price' ? 'Price' : key);
  const show = (key: string, v: unknown) =>
    v === undefined || v === null
      ? '—'
      : typeof v === 'boolean'
        ? v
          ? 'yes'
          : 'no'
        : key === 'inStock'
          ? String(v)
          : feeText(key, String(v));
  const keys = [...FEE_KEYS, 'price', 'inStock'].filter((k) => k in before || k in after);
  const tyre = (s: Record<string, unknown>) =>
    s.size ? `${String(s.size)} ${String(s.brand)} ${String(s.model)}: ` : '';
  const parts = keys
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]) || !entry.after)
    .map((k) =>
      entry.after
        ? `${label(k)} ${show(k, before[k])} → ${show(k, after[k])}`
        : `${label(k)} ${show(k, before[k])}`,
    );
  return `${tyre(entry.after ? after : before)}${parts.join('; ') || 'no change'}`;
}

/** The effective date and reason every change asks for. */
function ChangeFields({
  idPrefix,
  date,
  setDate,
  reason,
  setReason,
}: {
  idPrefix: string;
  date: string;
  setDate: (v: string) => void;
  reason: string;
  setReason: (v: string) => void;
}) {
  return (
    <>
      <Form.Item label="Effective from (Perth date; leave empty for now)" htmlFor={`${idPrefix}-effective`}>
        <Input
          id={`${idPrefix}-effective`}
          type="date"
          value={date}
          onChange={(e) => setDate(e.target.value)}
        />
      </Form.Item>
      <Form.Item label="Reason (goes on the audit history)" htmlFor={`${idPrefix}-reason`} required>
        <Input.TextArea
          id={`${idPrefix}-reason`}
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </Form.Item>
    </>
  );
}

function FormError({ error }: { error: string | null }) {
  return error ? <Alert type="error" role="alert" showIcon title={error} /> : null;
}

/** Schedule a new fee schedule: every fee, prefilled with the one in force. */
export function FeeChangeDialog({ current, onClose }: { current: Fees; onClose: () => void }) {
  const notify = useNotify();
  const { scheduleFees } = usePriceMutations();
  const [fees, setFees] = useState<Fees>(current);
  const [date, setDate] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (reason.trim().length < 3) return setError('Please enter a reason (3 characters or more).');
    setError(null);
    void scheduleFees
      .mutateAsync({ ...fees, effectiveFrom: date || null, reason: reason.trim() })
      .then(() => {
        notify.success('Fees Scheduled', `The new fees apply to quotes ${effectiveLabel(date)}.`);
        onClose();
      })
      .catch((e: unknown) => {
        setError(errorMessage(e, 'The change could not be saved. Please try again.'));
        failureReported();
      });
  };
  return (
    <Modal
      open
      title="Change fees"
      okText="Schedule change"
      onOk={submit}
      onCancel={onClose}
      confirmLoading={scheduleFees.isPending}
      destroyOnHidden
    >
      <Form layout="vertical" component="div" requiredMark={false}>
        {FEE_KEYS.map((key) => (
          <Form.Item
            key={key}
            label={key === RATE_KEY ? `${FEE_LABELS[key]} (%)` : `${FEE_LABELS[key]} ($)`}
            htmlFor={`fee-${key}`}
            extra={
              key === RATE_KEY
                ? 'Up to 5%, 2 decimals. It must not exceed what accepting cards costs the business (RBA rule). Quotes and payment links use the rate in force when the customer sees the amount.'
                : undefined
            }
          >
            <Input
              id={`fee-${key}`}
              inputMode="decimal"
              value={fees[key]}
              onChange={(e) => setFees({ ...fees, [key]: e.target.value })}
            />
          </Form.Item>
        ))}
        <ChangeFields idPrefix="fees" date={date} setDate={setDate} reason={reason} setReason={setReason} />
        <FormError error={error} />
      </Form>
    </Modal>
  );
}

/** Add a tyre, or change one's price and stock (tyre given). */
export function TyreDialog({ tyre, onClose }: { tyre?: CatalogueTyre; onClose: () => void }) {
  const notify = useNotify();
  const { addTyre, changeTyre } = usePriceMutations();
  const [size, setSize] = useState('');
  const [brand, setBrand] = useState('');
  const [model, setModel] = useState('');
  const [price, setPrice] = useState(tyre?.price ?? '');
  const [inStock, setInStock] = useState(tyre?.inStock ?? true);
  const [date, setDate] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const pending = addTyre.isPending || changeTyre.isPending;
  const submit = () => {
    if (reason.trim().length < 3) return setError('Please enter a reason (3 characters or more).');
    setError(null);
    const common = { effectiveFrom: date || null, reason: reason.trim() };
    const request = tyre
      ? changeTyre.mutateAsync({
          id: tyre.id,
          ...(price !== tyre.price ? { price } : {}),
          ...(inStock !== tyre.inStock ? { inStock } : {}),
          ...common,
        })
      : addTyre.mutateAsync({ size, brand, model, price, inStock, ...common });
    void request
      .then(() => {
        notify.success(
          tyre ? 'Tyre Change Scheduled' : 'Tyre Added',
          `Quotes use it ${effectiveLabel(date)}.`,
        );
        onClose();
      })
      .catch((e: unknown) => {
        setError(errorMessage(e, 'The change could not be saved. Please try again.'));
        failureReported();
      });
  };
  const text = (id: string, label: string, value: string, set: (v: string) => void, hint?: string) => (
    <Form.Item label={label} htmlFor={id} extra={hint}>
      <Input id={id} value={value} onChange={(e) => set(e.target.value)} />
    </Form.Item>
  );
  return (
    <Modal
      open
      title={tyre ? `Change ${tyre.size} ${tyre.brand} ${tyre.model}` : 'Add tyre'}
      okText={tyre ? 'Schedule change' : 'Add tyre'}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={pending}
      destroyOnHidden
    >
      <Form layout="vertical" component="div" requiredMark={false}>
        {!tyre && (
          <>
            {text('tyre-size', 'Size', size, setSize, 'width/profile R rim, e.g. 205/55R16')}
            {text('tyre-brand', 'Brand', brand, setBrand)}
            {text('tyre-model', 'Model', model, setModel)}
          </>
        )}
        {text('tyre-price', 'Price per tyre ($, GST inclusive)', price, setPrice)}
        <Form.Item>
          <Checkbox id="tyre-in-stock" checked={inStock} onChange={(e) => setInStock(e.target.checked)}>
            In stock (offered to quotes)
          </Checkbox>
        </Form.Item>
        <ChangeFields idPrefix="tyre" date={date} setDate={setDate} reason={reason} setReason={setReason} />
        <FormError error={error} />
      </Form>
    </Modal>
  );
}

/** Cancel a scheduled change (asks for the reason). */
function CancelButton({ id, what }: { id: string; what: string }) {
  const notify = useNotify();
  const { cancelChange } = usePriceMutations();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (reason.trim().length < 3) return setError('Please enter a reason (3 characters or more).');
    void cancelChange
      .mutateAsync({ id, reason: reason.trim() })
      .then(() => {
        notify.success('Change Cancelled', `${what} will not apply.`);
        setOpen(false);
      })
      .catch((e: unknown) => {
        setError(errorMessage(e, 'The change could not be saved. Please try again.'));
        failureReported();
      });
  };
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} aria-label={`Cancel ${what}`}>
        Cancel
      </Button>
      {open && (
        <Modal
          open
          title={`Cancel ${what}`}
          okText="Cancel change"
          cancelText="Keep it"
          onOk={submit}
          onCancel={() => setOpen(false)}
          confirmLoading={cancelChange.isPending}
        >
          <Form layout="vertical" component="div" requiredMark={false}>
            <Form.Item label="Reason" htmlFor={`cancel-${id}`}>
              <Input id={`cancel-${id}`} value={reason} onChange={(e) => setReason(e.target.value)} />
            </Form.Item>
            <FormError error={error} />
          </Form>
        </Modal>
      )}
    </>
  );
}

function FeesCard({ list }: { list: PriceListView }) {
  const [editing, setEditing] = useState(false);
  const rows = [
    ...FEE_KEYS.map((key) => ({
      key,
      label: FEE_LABELS[key],
      value: feeText(key, list.fees.fees[key]),
      next: list.scheduledFees.map(
        (v) => `${feeText(key, v.fees[key])} from ${formatShortDate(v.effectiveFrom)}`,
      ),
      fixed: null as string | null,
    })),
    ...list.fixed.map((f) => ({
      key: f.key,
      label: f.label,
      value: money(f.value),
      next: [] as string[],
      fixed: f.note,
    })),
  ];
  const columns: TableColumnsType<(typeof rows)[number]> = [
    { title: 'Fee', dataIndex: 'label', key: 'label' },
    { title: 'In force', dataIndex: 'value', key: 'value', render: (v: string) => <strong>{v}</strong> },
    {
      title: 'Scheduled',
      key: 'next',
      render: (_: unknown, r) =>
        r.fixed ? (
          <span>
            <Tag>Fixed</Tag> {r.fixed}
          </span>
        ) : r.next.length ? (
          r.next.join(', ')
        ) : (
          <span className="dash-muted">No change scheduled</span>
        ),
    },
  ];
  return (
    <section className="dash-card" aria-labelledby="dash-prices-fees">
      <div className="dash-panel__bar">
        <h3 id="dash-prices-fees">Fees</h3>
        <Button type="primary" onClick={() => setEditing(true)}>
          Change fees
        </Button>
      </div>
      <p className="dash-muted">
        In force since {formatTimestamp(list.fees.effectiveFrom)} ({list.fees.reason}, by{' '}
        {list.fees.createdBy}).
      </p>
      <Table rowKey="key" size="small" pagination={false} columns={columns} dataSource={rows} />
      {list.scheduledFees.length > 0 && (
        <>
          <h4>Scheduled fee changes</h4>
          <ul className="dash-prices__scheduled">
            {list.scheduledFees.map((v: FeeVersion) => (
              <li key={v.id}>
                From {formatTimestamp(v.effectiveFrom)}: {v.reason} (by {v.createdBy}){' '}
                <CancelButton id={v.id} what={`the fee change from ${formatShortDate(v.effectiveFrom)}`} />
              </li>
            ))}
          </ul>
        </>
      )}
      {editing && <FeeChangeDialog current={list.fees.fees} onClose={() => setEditing(false)} />}
    </section>
  );
}

function TyresCard({ tyres }: { tyres: CatalogueTyre[] }) {
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<CatalogueTyre | 'new' | null>(null);
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? tyres.filter((t) => `${t.size} ${t.brand} ${t.model}`.toLowerCase().includes(needle))
    : tyres;
  const columns: TableColumnsType<CatalogueTyre> = [
    { title: 'Size', dataIndex: 'size', key: 'size' },
    { title: 'Brand', dataIndex: 'brand', key: 'brand' },
    { title: 'Model', dataIndex: 'model', key: 'model' },
    { title: 'Price', dataIndex: 'price', key: 'price', render: (v: string) => money(v) },
    {
      title: 'In stock',
      dataIndex: 'inStock',
      key: 'inStock',
      render: (v: boolean) => <Tag color={v ? 'green' : 'default'}>{v ? 'In stock' : 'Not offered'}</Tag>,
    },
    {
      title: 'Scheduled',
      key: 'scheduled',
      render: (_: unknown, t) =>
        t.scheduled.length ? (
          <ul className="dash-prices__scheduled">
            {t.scheduled.map((v) => (
              <li key={v.id}>
                {money(v.price)}, {v.inStock ? 'in stock' : 'not offered'} from{' '}
                {formatShortDate(v.effectiveFrom)}{' '}
                <CancelButton id={v.id} what={`the ${t.size} ${t.brand} change`} />
              </li>
            ))}
          </ul>
        ) : (
          <span className="dash-muted">—</span>
        ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_: unknown, t) => (
        <Button
          size="small"
          onClick={() => setEditing(t)}
          aria-label={`Change ${t.size} ${t.brand} ${t.model}`}
        >
          Change
        </Button>
      ),
    },
  ];
  return (
    <section className="dash-card" aria-labelledby="dash-prices-tyres">
      <div className="dash-panel__bar">
        <h3 id="dash-prices-tyres">Tyre catalogue</h3>
        <Button type="primary" onClick={() => setEditing('new')}>
          Add tyre
        </Button>
      </div>
      <Form.Item label="Find a tyre" htmlFor="dash-prices-filter">
        <Input
          id="dash-prices-filter"
          allowClear
          placeholder="Size, brand or model"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </Form.Item>
      <ScrollableTable
        label="Tyre catalogue table"
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={shown}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: true }}
      />
      {editing && (
        <TyreDialog tyre={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}

function AuditCard() {
  const audit = usePriceAudit();
  const columns: TableColumnsType<AuditEntry> = [
    { title: 'When', dataIndex: 'at', key: 'at', render: (v: string) => formatTimestamp(v) },
    { title: 'Who', dataIndex: 'actor', key: 'actor' },
    { title: 'What', dataIndex: 'action', key: 'action', render: (v: string) => ACTION_LABELS[v] ?? v },
    { title: 'Change', key: 'change', render: (_: unknown, e) => describeChange(e) },
    {
      title: 'Effective from',
      dataIndex: 'effectiveFrom',
      key: 'effectiveFrom',
      render: (v: string | null) => formatTimestamp(v),
    },
    { title: 'Reason', dataIndex: 'reason', key: 'reason' },
  ];
  let body: ReactNode;
  if (audit.isPending) body = <Spin />;
  else if (audit.isError)
    body = (
      <Alert
        type="error"
        showIcon
        title="Failed to load the history"
        description={errorMessage(audit.error, 'Please try again.')}
      />
    );
  else
    body = (
      <ScrollableTable
        label="Price history table"
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={audit.data ?? []}
        locale={{ emptyText: 'No price changes yet' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: true }}
      />
    );
  return (
    <section className="dash-card" aria-labelledby="dash-prices-audit">
      <h3 id="dash-prices-audit">History</h3>
      {body}
    </section>
  );
}

export function PricesTab() {
  const list = usePriceList();
  let body: ReactNode;
  if (list.isPending)
    body = (
      <div className="dash-center dash-center--small" role="status" aria-live="polite">
        <Spin />
        <span className="dash-center__text">Loading prices...</span>
      </div>
    );
  else if (list.isError)
    body = (
      <Alert
        type="error"
        showIcon
        title="Failed to load prices"
        description={errorMessage(list.error, 'Please try again.')}
      />
    );
  else
    body = (
      <>
        <p className="dash-muted">
          A change applies to quotes from its effective date. Bookings already made keep the price they were
          quoted.
        </p>
        <FeesCard list={list.data} />
        <TyresCard tyres={list.data.tyres} />
        <AuditCard />
      </>
    );
  return (
    <section className="dash-panel" aria-labelledby="dash-prices-title">
      <div className="dash-panel__bar">
        <h2 id="dash-prices-title" className="dash-panel__title">
          Prices
        </h2>
      </div>
      {body}
    </section>
  );
}

import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { App, Button, Checkbox, Form, Input, Modal, Select, Space, Tag } from 'antd';
import { useExpenseMutations, useExpenses, type ExpenseInput } from '../api/billing';
import { failureReported } from '../api/mutation-toasts';
import type { BusinessExpense } from '../api/types';
import { DateField } from '../components/DateField';
import { ResponsiveList } from '../components/ResponsiveList';
import { Field } from '../components/Field';
import { expenseSchema, type ExpenseValues } from '../forms/expense';
import { gstPreview, normaliseMoneyInput } from '../forms/money-field';
import { useNotify } from '../hooks/useNotify';
import { useUrlParam } from '../hooks/useUrlParam';
import { DEFAULT_EXPENSE_CATEGORY, EXPENSE_CATEGORIES, EXPENSE_FORM_CATEGORIES } from '../lib/constants';
import { formatShortDate, perthToday } from '../lib/dates';
import { categoryLabel } from '../lib/format';
import { formatMoney, moneyString, sumCents } from '../lib/money';

const CATEGORY_FILTER = [
  { value: 'all', label: 'All categories' },
  ...EXPENSE_CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) })),
];
const PAID_FILTER = [
  { value: 'all', label: 'Paid and unpaid' },
  { value: 'unpaid', label: 'Unpaid' },
  { value: 'paid', label: 'Paid' },
];
const FORM_CATEGORIES = EXPENSE_FORM_CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) }));

const emptyValues = (): ExpenseValues => ({
  supplierName: '',
  invoiceNumber: '',
  description: '',
  category: DEFAULT_EXPENSE_CATEGORY,
  expenseDate: perthToday(),
  totalIncGst: '',
  dueDate: null,
  isPaid: false,
  notes: '',
  gstFree: false,
});

/**
 * The request body of the expense form: amount inc GST with GST = amount / 11 (none when GST-free); blanks become
 * null.
 */
export function expensePayload(values: ExpenseValues): ExpenseInput {
  const amount = normaliseMoneyInput(values.totalIncGst);
  // The form accepts only the kernel's categories (expenseSchema); this narrows the type to what billing takes.
  const category = EXPENSE_CATEGORIES.find((c) => c === values.category);
  if (!category) throw new Error('Category is required');
  return {
    supplierName: values.supplierName.trim(),
    invoiceNumber: values.invoiceNumber.trim() || null,
    description: values.description.trim(),
    amount,
    gstAmount: moneyString(gstPreview(amount, values.gstFree)?.gst ?? 0n),
    gstFree: values.gstFree,
    category,
    expenseDate: values.expenseDate!,
    dueDate: values.dueDate || null,
    isPaid: values.isPaid,
    notes: values.notes.trim() || null,
  };
}

/** Add/edit expense: categories without cost-of-goods-sold (default admin), amount inc GST, GST shown as total / 11. */
export function ExpenseDialog({
  open,
  expense,
  onClose,
}: {
  open: boolean;
  expense: BusinessExpense | null;
  onClose: () => void;
}) {
  const notify = useNotify();
  const { save } = useExpenseMutations();
  const { control, handleSubmit, reset } = useForm<ExpenseValues>({
    resolver: zodResolver(expenseSchema),
    defaultValues: emptyValues(),
  });
  useEffect(() => {
    if (!open) return;
    reset(
      expense
        ? {
            supplierName: expense.supplierName,
            invoiceNumber: expense.invoiceNumber ?? '',
            description: expense.description,
            category: expense.category,
            expenseDate: expense.expenseDate?.slice(0, 10) ?? perthToday(),
            totalIncGst: expense.amount,
            dueDate: expense.dueDate?.slice(0, 10) ?? null,
            isPaid: expense.isPaid,
            notes: expense.notes ?? '',
            gstFree: expense.gstFree ?? false,
          }
        : emptyValues(),
    );
  }, [open, expense, reset]);
  const [total, gstFree] = useWatch({ control, name: ['totalIncGst', 'gstFree'] });
  const gst = gstPreview(total, gstFree);

  const onSubmit = handleSubmit(async (values) => {
    const payload = expensePayload(values);
    await save.mutateAsync({ id: expense?.id, values: payload }).then(() => {
      notify.success(
        expense ? 'Expense Updated' : 'Expense Added',
        `${payload.supplierName}: ${formatMoney(payload.amount)}.`,
      );
      onClose();
    }, failureReported);
  });

  const text = (
    name: 'supplierName' | 'invoiceNumber' | 'description',
    label: string,
    id: string,
    optional = false,
  ) => (
    <Field
      control={control}
      name={name}
      label={label}
      id={id}
      optional={optional}
      render={(field, meta) => (
        <Input
          {...field}
          id={meta.id}
          aria-invalid={meta.invalid || undefined}
          aria-describedby={meta.describedBy}
        />
      )}
    />
  );

  return (
    <Modal
      open={open}
      title={expense ? 'Edit Expense' : 'Add Expense'}
      okText={expense ? 'Save Changes' : 'Add Expense'}
      onOk={() => void onSubmit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
      width={640}
    >
      <Form layout="vertical" component="div" requiredMark={false} className="dash-form-grid">
        {text('supplierName', 'Supplier Name', 'expense-supplier')}
        {text('invoiceNumber', 'Invoice Number', 'expense-invoice-number', true)}
        <div className="dash-form-grid__wide">
          {text('description', 'Description', 'expense-description')}
        </div>
        <Field
          control={control}
          name="category"
          label="Category"
          id="expense-category"
          render={(field, meta) => (
            <Select
              id={meta.id}
              value={field.value}
              onChange={field.onChange}
              options={FORM_CATEGORIES}
              status={meta.status}
              aria-describedby={meta.describedBy}
            />
          )}
        />
        <Field
          control={control}
          name="expenseDate"
          label="Expense Date"
          id="expense-date"
          render={(field, meta) => (
            <DateField
              id={meta.id}
              value={field.value}
              onChange={field.onChange}
              status={meta.status}
              ariaDescribedBy={meta.describedBy}
            />
          )}
        />
        <Field
          control={control}
          name="totalIncGst"
          label="Amount (inc GST)"
          id="expense-total"
          extra={
            gst
              ? `GST ${formatMoney(gst.gst)} (${gstFree ? 'GST-free' : 'total / 11'}) · ex GST ${formatMoney(gst.exGst)}`
              : gstFree
                ? 'GST-free: no GST is claimed'
                : 'GST is calculated as total / 11'
          }
          render={(field, meta) => (
            <Input
              {...field}
              id={meta.id}
              prefix="$"
              inputMode="decimal"
              aria-invalid={meta.invalid || undefined}
              aria-describedby={meta.describedBy}
            />
          )}
        />
        <Field
          control={control}
          name="dueDate"
          label="Due Date"
          optional
          id="expense-due"
          render={(field, meta) => <DateField id={meta.id} value={field.value} onChange={field.onChange} />}
        />
        <div className="dash-form-grid__wide">
          <Field
            control={control}
            name="notes"
            label="Notes"
            optional
            id="expense-notes"
            render={(field, meta) => <Input.TextArea {...field} id={meta.id} rows={2} />}
          />
        </div>
        <Controller
          control={control}
          name="gstFree"
          render={({ field }) => (
            <Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)}>
              GST-free (no GST in this amount)
            </Checkbox>
          )}
        />
        <Controller
          control={control}
          name="isPaid"
          render={({ field }) => (
            <Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)}>
              Paid
            </Checkbox>
          )}
        />
      </Form>
    </Modal>
  );
}

function ExpenseCard({ expense, onEdit }: { expense: BusinessExpense; onEdit: () => void }) {
  const notify = useNotify();
  const { modal } = App.useApp();
  const { markPaid, remove } = useExpenseMutations();
  const onMarkPaid = () =>
    markPaid
      .mutateAsync(expense.id)
      .then(
        () =>
          notify.success(
            'Expense Marked as Paid',
            `${expense.supplierName}: ${formatMoney(expense.amount)}.`,
          ),
        failureReported,
      );
  const onDelete = () =>
    modal.confirm({
      title: 'Delete expense?',
      content: `Are you sure you want to delete the expense from ${expense.supplierName} (${formatMoney(expense.amount)})? This action cannot be undone.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        remove
          .mutateAsync(expense.id)
          .then(
            () =>
              notify.success('Expense Deleted', `The expense from ${expense.supplierName} has been deleted.`),
            failureReported,
          ),
    });
  const titleId = `expense-${expense.id}`;
  return (
    <li>
      <article className="dash-card" aria-labelledby={titleId}>
        <header className="dash-card__head">
          <h3 id={titleId} className="dash-card__title">
            {expense.supplierName}
          </h3>
          <Tag color={expense.isPaid ? 'green' : 'orange'}>{expense.isPaid ? 'Paid' : 'Unpaid'}</Tag>
        </header>
        <p className="dash-card__text">{expense.description}</p>
        <dl className="dash-card__facts">
          <div>
            <dt>Amount</dt>
            <dd className="dash-money">
              {formatMoney(expense.amount)}{' '}
              <span className="dash-muted dash-small">
                ({expense.gstFree ? 'GST-free' : `GST ${formatMoney(expense.gstAmount)}`})
              </span>
            </dd>
          </div>
          <div>
            <dt>Category</dt>
            <dd>{categoryLabel(expense.category)}</dd>
          </div>
          <div>
            <dt>Date</dt>
            <dd>{formatShortDate(expense.expenseDate)}</dd>
          </div>
          {expense.dueDate && (
            <div>
              <dt>Due</dt>
              <dd>{formatShortDate(expense.dueDate)}</dd>
            </div>
          )}
          {expense.invoiceNumber && (
            <div>
              <dt>Invoice</dt>
              <dd>{expense.invoiceNumber}</dd>
            </div>
          )}
          {expense.notes && (
            <div>
              <dt>Notes</dt>
              <dd>{expense.notes}</dd>
            </div>
          )}
        </dl>
        <Space wrap size={8}>
          {!expense.isPaid && (
            <Button
              size="small"
              type="primary"
              loading={markPaid.isPending}
              onClick={() => void onMarkPaid()}
            >
              Mark Paid
            </Button>
          )}
          <Button size="small" onClick={onEdit} aria-label={`Edit expense from ${expense.supplierName}`}>
            Edit
          </Button>
          <Button
            size="small"
            danger
            onClick={onDelete}
            aria-label={`Delete expense from ${expense.supplierName}`}
          >
            Delete
          </Button>
        </Space>
      </article>
    </li>
  );
}

/** Business expenses (admins): category and paid filters, cards, add/edit dialog, Mark Paid, delete. */
export function ExpensesTab() {
  const [category, setCategory] = useUrlParam('category', 'all');
  const [paid, setPaid] = useUrlParam('paid', 'all');
  const query = useExpenses({ category, paid });
  const [dialog, setDialog] = useState<{ open: boolean; expense: BusinessExpense | null }>({
    open: false,
    expense: null,
  });
  const list = query.data ?? [];
  const unpaid = list.filter((e) => !e.isPaid);

  return (
    <section className="dash-panel" aria-labelledby="dash-expenses-title">
      <div className="dash-panel__bar">
        <h2 id="dash-expenses-title" className="dash-panel__title">
          Business Expenses
        </h2>
        <Button type="primary" onClick={() => setDialog({ open: true, expense: null })}>
          Add Expense
        </Button>
      </div>
      <div className="dash-filters">
        <Select
          aria-label="Filter by category"
          value={category}
          onChange={(v) => setCategory(v)}
          options={CATEGORY_FILTER}
          className="dash-filter"
        />
        <Select
          aria-label="Filter by paid status"
          value={paid}
          onChange={(v) => setPaid(v)}
          options={PAID_FILTER}
          className="dash-filter"
        />
      </div>
      {query.data && list.length > 0 && (
        <div className="dash-stats dash-stats--3" role="group" aria-label="Totals">
          <div className="dash-stat">
            <span className="dash-stat__label">Total</span>
            <span className="dash-stat__value">{formatMoney(sumCents(list.map((e) => e.amount)))}</span>
          </div>
          <div className="dash-stat">
            <span className="dash-stat__label">GST</span>
            <span className="dash-stat__value">{formatMoney(sumCents(list.map((e) => e.gstAmount)))}</span>
          </div>
          <div className="dash-stat">
            <span className="dash-stat__label">Unpaid</span>
            <span className="dash-stat__value">{formatMoney(sumCents(unpaid.map((e) => e.amount)))}</span>
          </div>
        </div>
      )}
      <ResponsiveList<BusinessExpense>
        query={query}
        items={list}
        rowKey={(expense) => expense.id}
        errorTitle="Failed to fetch expenses"
        loadingText="Loading expenses..."
        emptyText="No expenses found"
        cardsClassName="dash-cards--grid"
        renderCard={(expense) => (
          <ExpenseCard key={expense.id} expense={expense} onEdit={() => setDialog({ open: true, expense })} />
        )}
      />
      <ExpenseDialog
        open={dialog.open}
        expense={dialog.expense}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
      />
    </section>
  );
}

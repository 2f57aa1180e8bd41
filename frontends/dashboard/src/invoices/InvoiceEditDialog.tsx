import { useState } from 'react';
import { Alert, Form, Modal, Radio, Select, Spin } from 'antd';
import type { AmountType } from '@tyres/kernel';
import { useInvoice, useInvoiceItemMutations, useUpdateInvoice } from '../api/billing';
import { failureReported } from '../api/mutation-toasts';
import type { CustomerInvoice } from '../api/types';
import { DateField } from '../components/DateField';
import { QueryError } from '../components/QueryError';
import { useNotify } from '../hooks/useNotify';
import { CUSTOMER_INVOICE_STATUSES, type CustomerInvoiceStatus } from '../lib/constants';
import { formatShortDate } from '../lib/dates';
import { statusLabel } from '../lib/format';
import { InvoiceTotals } from './InvoiceTotals';
import {
  AMOUNT_TYPE_OPTIONS,
  amountTypeOf,
  invoiceTotals,
  lineItemBody,
  lineItemProblem,
  parseCategory,
  type LineItemDraft,
} from './line-items';
import { LineItemsEditor } from './LineItemsEditor';

/** A line item change that failed (the mutation cache has toasted it): the editor keeps the row as it was. */
const failed = () => false;

export const STATUS_OPTIONS = CUSTOMER_INVOICE_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }));

function toDrafts(invoice: CustomerInvoice): LineItemDraft[] {
  return (invoice.items ?? []).map((item) => ({
    key: item.id,
    id: item.id,
    description: item.description,
    category: parseCategory(item.category),
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    gstFree: item.gstFree ?? false,
  }));
}

/**
 * Edit a customer invoice: status, due date and amount type (saved with "Save Invoice"), and its line items (stored
 * at once; totals recomputed by billing).
 */
export function InvoiceEditDialog({ invoiceId, onClose }: { invoiceId: string | null; onClose: () => void }) {
  const notify = useNotify();
  const query = useInvoice(invoiceId);
  const update = useUpdateInvoice();
  const items = useInvoiceItemMutations(invoiceId);
  const invoice = query.data;
  const [status, setStatus] = useState<CustomerInvoiceStatus>('draft');
  const [dueDate, setDueDate] = useState<string | null>(null);
  const [dueError, setDueError] = useState<string | null>(null);
  const [amountType, setAmountType] = useState<AmountType>('exclusive');

  // The fields follow the stored invoice whenever it (re)loads: adjusted while rendering, as React recommends for
  // state that follows other data, rather than in an effect that would render twice.
  const [shown, setShown] = useState<CustomerInvoice | undefined>(undefined);
  if (invoice !== shown) {
    setShown(invoice);
    if (invoice) {
      setStatus(invoice.status);
      setDueDate(invoice.dueDate?.slice(0, 10) ?? null);
      setDueError(null);
      setAmountType(amountTypeOf(invoice));
    }
  }

  const save = async () => {
    if (!invoice) return;
    if (!dueDate) {
      setDueError('Due date is required');
      return;
    }
    await update
      .mutateAsync({
        id: invoice.id,
        fields: {
          status,
          dueDate,
          ...(amountType !== amountTypeOf(invoice) ? { amountType } : {}),
        },
      })
      .then(() => {
        notify.success('Invoice Updated', `Invoice ${invoice.invoiceNumber} has been saved.`);
        onClose();
      }, failureReported);
  };

  const onAdd = async (item: LineItemDraft) => {
    const problem = lineItemProblem(item);
    if (problem) {
      notify.invalid('Validation Error', problem);
      return false;
    }
    return items.add.mutateAsync(lineItemBody(item)).then(() => {
      notify.success('Line Item Added', item.description);
      return true;
    }, failed);
  };
  const onUpdate = async (item: LineItemDraft) => {
    const problem = lineItemProblem(item);
    if (problem) {
      notify.invalid('Validation Error', problem);
      return false;
    }
    return items.update.mutateAsync({ itemId: item.id!, item: lineItemBody(item) }).then(() => {
      notify.success('Line Item Updated', item.description);
      return true;
    }, failed);
  };
  const onRemove = (item: LineItemDraft) =>
    items.remove.mutateAsync(item.id!).then(() => {
      notify.success('Line Item Removed', item.description);
      return true;
    }, failed);

  return (
    <Modal
      open={Boolean(invoiceId)}
      title={invoice ? `Edit Invoice ${invoice.invoiceNumber}` : 'Edit Invoice'}
      okText="Save Invoice"
      onOk={() => void save()}
      onCancel={onClose}
      confirmLoading={update.isPending}
      okButtonProps={{ disabled: !invoice }}
      width={860}
      destroyOnHidden
    >
      {query.isPending ? (
        <div className="dash-center dash-center--small" role="status">
          <Spin />
        </div>
      ) : query.isError ? (
        <QueryError title="Failed to load invoice" error={query.error} onRetry={() => void query.refetch()} />
      ) : invoice ? (
        <>
          <p className="dash-muted">
            Job {invoice.job?.jobNumber ?? invoice.jobNumber} ·{' '}
            {invoice.job?.customer?.name ?? invoice.customerName} · issued{' '}
            {formatShortDate(invoice.invoiceDate)}
          </p>
          <Form layout="vertical" component="div" className="dash-form-grid">
            <Form.Item label="Status" htmlFor="invoice-status">
              <Select id="invoice-status" value={status} onChange={setStatus} options={STATUS_OPTIONS} />
            </Form.Item>
            <Form.Item
              label="Due Date"
              htmlFor="invoice-due"
              validateStatus={dueError ? 'error' : undefined}
              help={dueError ? <span id="invoice-due-error">{dueError}</span> : undefined}
            >
              <DateField
                id="invoice-due"
                value={dueDate}
                onChange={(v) => {
                  setDueDate(v);
                  if (v) setDueError(null);
                }}
                status={dueError ? 'error' : undefined}
                ariaDescribedBy={dueError ? 'invoice-due-error' : undefined}
              />
            </Form.Item>
            <Form.Item label="Amounts" className="dash-form-grid__wide">
              <Radio.Group
                aria-label="Amounts"
                value={amountType}
                onChange={(e) => setAmountType(e.target.value as AmountType)}
                options={AMOUNT_TYPE_OPTIONS}
              />
            </Form.Item>
          </Form>
          <h3 className="dash-detail__heading">Line Items</h3>
          <LineItemsEditor
            items={toDrafts(invoice)}
            onAdd={onAdd}
            onUpdate={onUpdate}
            onRemove={onRemove}
            busy={items.add.isPending || items.update.isPending || items.remove.isPending}
            idPrefix="edit-line"
          />
          {amountType === amountTypeOf(invoice) ? (
            <InvoiceTotals
              amountType={amountType}
              totals={{
                subtotal: invoice.subtotalAmount,
                gst: invoice.gstAmount,
                total: invoice.totalAmount,
              }}
            />
          ) : (
            // The same lines under the other amount type, as billing will compute them when saved.
            <InvoiceTotals
              amountType={amountType}
              totals={invoiceTotals(toDrafts(invoice), amountType)}
              note="Once saved. The line amounts stay as entered."
            />
          )}
          {(invoice.items ?? []).length === 0 && (
            <Alert type="warning" showIcon title="Please add at least one line item to the invoice." />
          )}
        </>
      ) : null}
    </Modal>
  );
}

import { useEffect } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Form, Input, Modal } from 'antd';
import { useSavePurchaseInvoice } from '../api/billing';
import { failureReported } from '../api/mutation-toasts';
import type { PurchaseInvoice } from '../api/types';
import { DateField } from '../components/DateField';
import { Field } from '../components/Field';
import { gstPreview, normaliseMoneyInput } from '../forms/money-field';
import { purchaseInvoiceSchema, type PurchaseInvoiceValues } from '../forms/purchase-invoice';
import { useNotify } from '../hooks/useNotify';
import { perthToday } from '../lib/dates';
import { formatMoney, moneyString } from '../lib/money';

const blank = (): PurchaseInvoiceValues => ({
  invoiceNumber: '',
  supplierName: '',
  invoiceDate: perthToday(),
  totalIncGst: '',
  gstFree: false,
});

/**
 * Add/edit purchase invoice (job detail). GST is shown as total / 11, or $0.00 when the purchase is GST-free; the
 * category is cost-of-goods-sold.
 */
export function PurchaseInvoiceDialog({
  jobId,
  open,
  invoice,
  onClose,
}: {
  jobId: string;
  open: boolean;
  /** The invoice to edit; absent to add one. */
  invoice?: PurchaseInvoice | null;
  onClose: () => void;
}) {
  const notify = useNotify();
  const save = useSavePurchaseInvoice(jobId);
  const { control, handleSubmit, reset } = useForm<PurchaseInvoiceValues>({
    resolver: zodResolver(purchaseInvoiceSchema),
    defaultValues: blank(),
  });

  useEffect(() => {
    if (!open) return;
    reset(
      invoice
        ? {
            invoiceNumber: invoice.invoiceNumber,
            supplierName: invoice.supplierName,
            invoiceDate: invoice.invoiceDate?.slice(0, 10) || perthToday(),
            totalIncGst: invoice.totalAmount,
            gstFree: invoice.gstFree ?? false,
          }
        : blank(),
    );
  }, [open, invoice, reset]);

  const [total, gstFree] = useWatch({ control, name: ['totalIncGst', 'gstFree'] });
  const preview = gstPreview(total, gstFree);

  const onSubmit = handleSubmit(async (values) => {
    const totalAmount = normaliseMoneyInput(values.totalIncGst);
    const payload = {
      invoiceNumber: values.invoiceNumber.trim(),
      supplierName: values.supplierName.trim(),
      invoiceDate: values.invoiceDate,
      totalAmount,
      gstAmount: moneyString(gstPreview(totalAmount, values.gstFree)?.gst ?? 0n),
      gstFree: values.gstFree,
    };
    await save.mutateAsync({ id: invoice?.id, values: payload }).then(() => {
      notify.success(
        invoice ? 'Purchase Invoice Updated' : 'Purchase Invoice Added',
        `Invoice ${payload.invoiceNumber} from ${payload.supplierName} (${formatMoney(totalAmount)}).`,
      );
      onClose();
    }, failureReported);
  });

  return (
    <Modal
      open={open}
      title={invoice ? 'Edit Purchase Invoice' : 'Add Purchase Invoice'}
      okText={invoice ? 'Save Changes' : 'Add Invoice'}
      cancelText="Cancel"
      confirmLoading={save.isPending}
      onOk={() => void onSubmit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => void onSubmit()} requiredMark={false} component="div">
        <Field
          control={control}
          name="invoiceNumber"
          label="Invoice Number"
          id="pi-invoice-number"
          render={(field, meta) => (
            <Input
              {...field}
              id={meta.id}
              aria-invalid={meta.invalid || undefined}
              aria-describedby={meta.describedBy}
              autoComplete="off"
            />
          )}
        />
        <Field
          control={control}
          name="supplierName"
          label="Supplier Name"
          id="pi-supplier"
          render={(field, meta) => (
            <Input
              {...field}
              id={meta.id}
              aria-invalid={meta.invalid || undefined}
              aria-describedby={meta.describedBy}
            />
          )}
        />
        <Field
          control={control}
          name="invoiceDate"
          label="Invoice Date"
          id="pi-date"
          render={(field, meta) => (
            <DateField
              id={meta.id}
              value={field.value}
              onChange={(v) => field.onChange(v ?? '')}
              status={meta.status}
              allowClear={false}
              ariaDescribedBy={meta.describedBy}
            />
          )}
        />
        <Field
          control={control}
          name="totalIncGst"
          label="Total (inc GST)"
          id="pi-total"
          extra={
            preview ? (
              <span>
                GST {formatMoney(preview.gst)}
                {gstFree ? ' (GST-free)' : ''} · ex GST {formatMoney(preview.exGst)}
              </span>
            ) : gstFree ? (
              'GST-free: no GST is claimed'
            ) : (
              'GST is calculated as total / 11'
            )
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
        <Controller
          control={control}
          name="gstFree"
          render={({ field }) => (
            <Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)}>
              GST-free (no GST in this total)
            </Checkbox>
          )}
        />
      </Form>
    </Modal>
  );
}

import { AMOUNT_TYPE_LABEL, type AmountType } from '@tyres/kernel';
import { formatMoney } from '../lib/money';

/**
 * An invoice's totals as the invoice and its PDF state them: a tax inclusive invoice says "Amounts include GST" and
 * shows the GST inside its total; a tax exclusive one says "GST added" and adds GST to the subtotal.
 */
export function InvoiceTotals({
  totals,
  amountType,
  note,
}: {
  totals: { subtotal: bigint | string; gst: bigint | string; total: bigint | string };
  amountType: AmountType;
  /** A line under the figures (e.g. that they apply once saved). */
  note?: string;
}) {
  return (
    <div className="dash-totals-block">
      <p className="dash-totals__type">{AMOUNT_TYPE_LABEL[amountType]}</p>
      <dl className="dash-totals" aria-label="Invoice totals">
        {amountType === 'inclusive' ? (
          <>
            <div>
              <dt>Ex GST</dt>
              <dd>{formatMoney(totals.subtotal)}</dd>
            </div>
            <div>
              <dt>Includes GST</dt>
              <dd>{formatMoney(totals.gst)}</dd>
            </div>
          </>
        ) : (
          <>
            <div>
              <dt>Subtotal</dt>
              <dd>{formatMoney(totals.subtotal)}</dd>
            </div>
            <div>
              <dt>GST (10%)</dt>
              <dd>{formatMoney(totals.gst)}</dd>
            </div>
          </>
        )}
        <div className="dash-totals__grand">
          <dt>Total</dt>
          <dd>{formatMoney(totals.total)}</dd>
        </div>
      </dl>
      {note && <p className="dash-muted dash-small">{note}</p>}
    </div>
  );
}

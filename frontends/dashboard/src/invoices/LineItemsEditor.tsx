import { useState } from 'react';
import { Button, Checkbox, Input, InputNumber, Select, Tag } from 'antd';
import { DEFAULT_LINE_ITEM_CATEGORY, LINE_ITEM_CATEGORIES } from '../lib/constants';
import { categoryLabel } from '../lib/format';
import { formatMoney } from '../lib/money';
import {
  DESCRIPTION_REQUIRED,
  isReadOnlyLine,
  lineTotal,
  newDraftKey,
  parseCategory,
  parseQuantity,
  parseUnitPrice,
  type LineItemDraft,
} from './line-items';

const CATEGORY_OPTIONS = LINE_ITEM_CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) }));

type Fields = Omit<LineItemDraft, 'key' | 'id'>;
const blank = (): Fields => ({
  description: '',
  category: DEFAULT_LINE_ITEM_CATEGORY,
  quantity: 1,
  unitPrice: '0.00',
  gstFree: false,
});

/**
 * The inputs of one line: description, category (default labour), quantity (integer ≥ 0), unit price (≥ 0, cents),
 * GST-free, read-only total.
 */
function LineInputs({
  value,
  onChange,
  idPrefix,
  error,
}: {
  value: Fields;
  onChange: (next: Fields) => void;
  idPrefix: string;
  error?: string | null;
}) {
  return (
    <div className="dash-line-inputs">
      <div className="dash-line-field dash-line-inputs__desc">
        <label className="dash-line-inputs__label" htmlFor={`${idPrefix}-description`}>
          Description
        </label>
        <Input
          id={`${idPrefix}-description`}
          value={value.description}
          onChange={(e) => onChange({ ...value, description: e.target.value })}
          status={error ? 'error' : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${idPrefix}-error` : undefined}
          placeholder="e.g. Wheel alignment"
        />
      </div>
      <div className="dash-line-field">
        <label className="dash-line-inputs__label" htmlFor={`${idPrefix}-category`}>
          Category
        </label>
        <Select
          id={`${idPrefix}-category`}
          value={value.category}
          onChange={(c) => onChange({ ...value, category: parseCategory(c) })}
          options={CATEGORY_OPTIONS}
          style={{ width: '100%' }}
        />
      </div>
      <div className="dash-line-field">
        <label className="dash-line-inputs__label" htmlFor={`${idPrefix}-quantity`}>
          Quantity
        </label>
        <InputNumber
          id={`${idPrefix}-quantity`}
          min={0}
          step={1}
          precision={0}
          value={value.quantity}
          onChange={(q) => onChange({ ...value, quantity: parseQuantity(q) })}
          style={{ width: '100%' }}
          inputMode="numeric"
        />
      </div>
      <div className="dash-line-field">
        <label className="dash-line-inputs__label" htmlFor={`${idPrefix}-price`}>
          Unit Price
        </label>
        <InputNumber
          id={`${idPrefix}-price`}
          min={0}
          step={0.01}
          precision={2}
          prefix="$"
          value={Number(value.unitPrice)}
          onChange={(p) => onChange({ ...value, unitPrice: parseUnitPrice(p) })}
          style={{ width: '100%' }}
          inputMode="decimal"
        />
      </div>
      <div className="dash-line-inputs__total">
        <span className="dash-line-inputs__label" id={`${idPrefix}-total-label`}>
          Line Total
        </span>
        <output aria-labelledby={`${idPrefix}-total-label`} className="dash-money">
          {formatMoney(lineTotal(value))}
        </output>
      </div>
      <div className="dash-line-field dash-line-inputs__gst-free">
        <Checkbox
          id={`${idPrefix}-gst-free`}
          checked={value.gstFree}
          onChange={(e) => onChange({ ...value, gstFree: e.target.checked })}
        >
          GST-free
        </Checkbox>
      </div>
      {error && (
        <p id={`${idPrefix}-error`} className="dash-field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Line items of a customer invoice: list with edit/remove and an "add line item" row. The parent decides where
 * the items live (local drafts on the new invoice page, the server in the edit dialog); each callback resolves to
 * true when the change was applied.
 */
export function LineItemsEditor({
  items,
  onAdd,
  onUpdate,
  onRemove,
  busy,
  idPrefix = 'line',
}: {
  items: LineItemDraft[];
  onAdd: (item: LineItemDraft) => Promise<boolean> | boolean;
  onUpdate: (item: LineItemDraft) => Promise<boolean> | boolean;
  onRemove: (item: LineItemDraft) => Promise<boolean> | boolean;
  busy?: boolean;
  idPrefix?: string;
}) {
  const [draft, setDraft] = useState<Fields>(blank);
  const [draftError, setDraftError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ key: string; fields: Fields; error: string | null } | null>(null);

  const add = async () => {
    if (!draft.description.trim()) {
      setDraftError(DESCRIPTION_REQUIRED);
      return;
    }
    setDraftError(null);
    const ok = await onAdd({ ...draft, description: draft.description.trim(), key: newDraftKey() });
    if (ok) setDraft(blank());
  };

  const saveEdit = async (item: LineItemDraft) => {
    if (!editing) return;
    if (!editing.fields.description.trim()) {
      setEditing({ ...editing, error: DESCRIPTION_REQUIRED });
      return;
    }
    const ok = await onUpdate({ ...item, ...editing.fields, description: editing.fields.description.trim() });
    if (ok) setEditing(null);
  };

  return (
    <div className="dash-lines">
      {items.length === 0 ? (
        <p className="dash-muted dash-lines__empty">No line items yet. Add the first one below.</p>
      ) : (
        <ul className="dash-lines__list" aria-label="Line items">
          {items.map((item, index) =>
            isReadOnlyLine(item) ? (
              <li key={item.key} className="dash-line dash-line--fixed">
                <div className="dash-line__main">
                  <span className="dash-line__desc">{item.description}</span>
                  <span className="dash-muted dash-small">
                    {categoryLabel(item.category)} · added by billing with the card payment
                    {item.gstFree ? ' · GST-free' : ''}
                  </span>
                </div>
                <span className="dash-line__total dash-money">{formatMoney(lineTotal(item))}</span>
              </li>
            ) : editing?.key === item.key ? (
              <li key={item.key} className="dash-line dash-line--editing">
                <LineInputs
                  value={editing.fields}
                  onChange={(fields) => setEditing({ ...editing, fields, error: null })}
                  idPrefix={`${idPrefix}-edit-${index}`}
                  error={editing.error}
                />
                <div className="dash-line__actions">
                  <Button size="small" type="primary" loading={busy} onClick={() => void saveEdit(item)}>
                    Save
                  </Button>
                  <Button size="small" onClick={() => setEditing(null)}>
                    Cancel
                  </Button>
                </div>
              </li>
            ) : (
              <li key={item.key} className="dash-line">
                <div className="dash-line__main">
                  <span className="dash-line__desc">{item.description}</span>
                  <span className="dash-muted dash-small">
                    {categoryLabel(item.category)} · {item.quantity} × {formatMoney(item.unitPrice)}
                    {item.gstFree && (
                      <>
                        {' '}
                        <Tag className="dash-gst-free">GST-free</Tag>
                      </>
                    )}
                  </span>
                </div>
                <span className="dash-line__total dash-money">{formatMoney(lineTotal(item))}</span>
                <div className="dash-line__actions">
                  <Button
                    size="small"
                    type="link"
                    onClick={() =>
                      setEditing({
                        key: item.key,
                        fields: {
                          description: item.description,
                          category: item.category,
                          quantity: item.quantity,
                          unitPrice: item.unitPrice,
                          gstFree: item.gstFree,
                        },
                        error: null,
                      })
                    }
                    aria-label={`Edit line item ${item.description}`}
                  >
                    Edit
                  </Button>
                  <Button
                    size="small"
                    type="link"
                    danger
                    disabled={busy}
                    onClick={() => void onRemove(item)}
                    aria-label={`Remove line item ${item.description}`}
                  >
                    Remove
                  </Button>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
      <fieldset className="dash-line-add">
        <legend>Add Line Item</legend>
        <LineInputs
          value={draft}
          onChange={(next) => {
            setDraft(next);
            if (draftError && next.description.trim()) setDraftError(null);
          }}
          idPrefix={`${idPrefix}-new`}
          error={draftError}
        />
        <Button onClick={() => void add()} loading={busy} className="dash-line-add__button">
          Add Line Item
        </Button>
      </fieldset>
    </div>
  );
}

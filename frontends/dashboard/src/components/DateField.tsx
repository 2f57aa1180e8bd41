import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { isPastDate } from '../lib/dates';

/**
 * antd's DatePicker speaking `yyyy-MM-dd` strings (the app's only date currency). Weeks start on Sunday (the
 * picker's default English locale). `disablePast` greys out dates before Perth today.
 */
export function DateField({
  id,
  value,
  onChange,
  disablePast = false,
  minDate,
  placeholder = 'Select date',
  status,
  allowClear = true,
  ariaLabel,
  ariaDescribedBy,
  onBlur,
  size,
  className,
}: {
  id?: string;
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  disablePast?: boolean;
  /** Dates before this `yyyy-MM-dd` are disabled. */
  minDate?: string;
  placeholder?: string;
  status?: 'error' | 'warning';
  allowClear?: boolean;
  ariaLabel?: string;
  ariaDescribedBy?: string;
  onBlur?: () => void;
  size?: 'small' | 'middle' | 'large';
  className?: string;
}) {
  const disabledDate = (d: Dayjs) => {
    const date = d.format('YYYY-MM-DD');
    if (disablePast && isPastDate(date)) return true;
    return minDate ? date < minDate : false;
  };
  return (
    <DatePicker
      id={id}
      className={className ?? 'dash-date-field'}
      value={value ? dayjs(value) : null}
      onChange={(d: Dayjs | null) => onChange(d ? d.format('YYYY-MM-DD') : null)}
      onBlur={onBlur}
      format="DD/MM/YYYY"
      placeholder={placeholder}
      disabledDate={disablePast || minDate ? disabledDate : undefined}
      status={status}
      allowClear={allowClear}
      inputReadOnly
      size={size}
      aria-label={ariaLabel}
      aria-describedby={ariaDescribedBy}
      aria-invalid={status === 'error' ? true : undefined}
      style={{ width: '100%' }}
    />
  );
}

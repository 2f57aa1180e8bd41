import type { ReactNode } from 'react';
import { Form } from 'antd';
import {
  useController,
  type Control,
  type ControllerRenderProps,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';

export interface FieldMeta {
  id: string;
  invalid: boolean;
  /** Id of the element holding the field's message, for aria-describedby. */
  describedBy: string | undefined;
  status: 'error' | undefined;
}

/**
 * One react-hook-form field inside an antd Form.Item: label tied to the input, the zod message under it,
 * aria-invalid and aria-describedby set, so screen readers announce what is wrong.
 */
export function Field<T extends FieldValues, N extends FieldPath<T>>({
  control,
  name,
  label,
  id,
  extra,
  optional,
  className,
  render,
}: {
  control: Control<T>;
  name: N;
  label: ReactNode;
  id: string;
  extra?: ReactNode;
  optional?: boolean;
  className?: string;
  render: (field: ControllerRenderProps<T, N>, meta: FieldMeta) => ReactNode;
}) {
  const { field, fieldState } = useController({ control, name });
  const message = fieldState.error?.message;
  const helpId = message ? `${id}-error` : undefined;
  return (
    <Form.Item
      className={className}
      label={
        optional ? (
          <>
            {label}
            <span className="dash-optional"> (optional)</span>
          </>
        ) : (
          label
        )
      }
      htmlFor={id}
      validateStatus={message ? 'error' : undefined}
      help={message ? <span id={helpId}>{message}</span> : undefined}
      extra={extra}
    >
      {render(field, {
        id,
        invalid: Boolean(message),
        describedBy: helpId,
        status: message ? 'error' : undefined,
      })}
    </Form.Item>
  );
}

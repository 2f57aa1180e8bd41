import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** Error text under a control; announced when it appears. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="bk-error" role="alert">
      {message}
    </p>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  /** Visually hide the label (it is still the accessible name). */
  hiddenLabel?: boolean;
  id?: string;
};

/** A labelled input whose hint and error are tied to it (aria-describedby, aria-invalid). */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, hiddenLabel, id: givenId, className, ...input },
  ref,
) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const describedBy = [hintId, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`bk-field ${className ?? ''}`}>
      <label htmlFor={id} className={hiddenLabel ? 'bk-sr-only' : 'bk-label'}>
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        className={`bk-input${error ? ' bk-input--invalid' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint && (
        <p id={hintId} className="bk-hint">
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
});

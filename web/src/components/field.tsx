import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';

const controlClass =
  'mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-blue-700 aria-[invalid=true]:border-red-700 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600';

interface FieldProps {
  label: string;
  hint?: string;
  /** What is wrong with the value, said under the field and announced with it (decision 021). */
  error?: string | undefined;
}

/** The label, the control, then its hint and its error, each tied to the control by id. */
function FieldFrame({
  controlId,
  label,
  hint,
  error,
  children,
}: FieldProps & { controlId: string; children: (describedBy: string | undefined) => ReactNode }) {
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={controlId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children(describedBy)}
      {error && (
        <p id={errorId} className="mt-1 text-sm font-semibold text-red-800">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/** React 19 passes `ref` as a prop: react-hook-form's register() reaches the input through it. */
export function TextField({
  label,
  hint,
  error,
  id,
  ref,
  ...props
}: FieldProps & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <FieldFrame controlId={inputId} label={label} hint={hint} error={error}>
      {(describedBy) => (
        <input
          ref={ref}
          id={inputId}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          className={controlClass}
          {...props}
        />
      )}
    </FieldFrame>
  );
}

export function SelectField({
  label,
  hint,
  error,
  id,
  children,
  ref,
  ...props
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode; ref?: Ref<HTMLSelectElement> }) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <FieldFrame controlId={selectId} label={label} hint={hint} error={error}>
      {(describedBy) => (
        <select
          ref={ref}
          id={selectId}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          className={controlClass}
          {...props}
        >
          {children}
        </select>
      )}
    </FieldFrame>
  );
}

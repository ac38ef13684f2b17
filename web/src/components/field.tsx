import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';

const controlClass =
  'mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-blue-700 aria-[invalid=true]:border-red-700 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600';

interface FieldProps {
  label: string;
  hint?: string;
  error?: string | undefined;
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
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        aria-describedby={hintId}
        aria-invalid={error ? true : undefined}
        className={controlClass}
        {...props}
      />
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}

export function SelectField({
  label,
  error,
  id,
  children,
  ref,
  ...props
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode; ref?: Ref<HTMLSelectElement> }) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <div>
      <label htmlFor={selectId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select ref={ref} id={selectId} aria-invalid={error ? true : undefined} className={controlClass} {...props}>
        {children}
      </select>
    </div>
  );
}

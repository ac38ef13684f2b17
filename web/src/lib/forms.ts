import { zodResolver } from '@hookform/resolvers/zod';
import {
  get,
  useForm,
  type DefaultValues,
  type FieldError,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from './i18n.ts';
import type { z } from 'zod';

/**
 * Every form of the app in one shape (decision 021): react-hook-form over the contract's own schema
 * (the checks the server makes, made first in the browser), each problem said under its field
 * and marked aria-invalid, and the focus on the first problem when Submit finds any. The form's
 * handler receives the schema's output (trimmed, converted), as the API takes it.
 */
export function useSchemaForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  defaultValues: DefaultValues<z.input<Schema>>,
) {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(schema),
    defaultValues,
    shouldFocusError: true,
    // After a first Submit, a field's message goes as soon as it is put right.
    reValidateMode: 'onChange',
  });
}

/**
 * The message for a field's problem, in the page's language: a blank field is required, a long
 * one too long, and anything else the form's own words for that field (`invalidText`, already
 * translated) or a plain "not valid". The contract's English messages are for the API; the page
 * says its own.
 */
export function useFieldErrors<Values extends FieldValues>(form: UseFormReturn<Values, unknown, FieldValues>) {
  const { t } = useTranslation();
  const { errors } = form.formState;
  return (field: Path<Values>, invalidText?: string): string | undefined => {
    const error = get(errors, field) as FieldError | undefined;
    if (!error) return undefined;
    const value: unknown = form.getValues(field);
    if (value === undefined || value === null || String(value).trim() === '') return t('forms.required');
    if (error.type === 'too_big') return t('forms.tooLong');
    return invalidText ?? t('forms.invalid');
  };
}

/** Whether any of `fields` has no value: a form whose spec words for that ("Please fill out all fields.") come first. */
export function hasBlankField<Values extends FieldValues>(
  form: UseFormReturn<Values, unknown, FieldValues>,
  fields: readonly Path<Values>[],
): boolean {
  return fields.some((field) => {
    const value: unknown = form.getValues(field);
    return value === undefined || value === null || String(value).trim() === '';
  });
}

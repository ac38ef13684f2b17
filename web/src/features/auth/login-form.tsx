import { useState, type ReactNode } from 'react';
import type { DefaultValues, FieldValues, Path } from 'react-hook-form';
import { useTranslation } from '../../lib/i18n.ts';
import type { z } from 'zod';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { ApiError, gotNoAnswerFromApi } from '../../lib/api.ts';
import { errorText, unexpectedErrorText } from '../../lib/error-text.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { PageHeading } from '../../components/page-heading.tsx';

export interface LoginField<Values> {
  name: Path<Values>;
  label: string;
  type?: 'text' | 'password';
  autoComplete: string;
}

/**
 * The shape both login pages share: the sign-in call's own schema checks the fields (a blank one
 * is marked and takes the focus, nothing is sent), one submit, and spec 8's message in red with
 * the button re-enabled when sign-in fails.
 */
export function LoginForm<Schema extends z.ZodType<FieldValues, FieldValues>>({
  title,
  intro,
  schema,
  fields,
  onSubmit,
  footer,
  invalidHint,
}: {
  title: string;
  intro: string;
  schema: Schema;
  fields: LoginField<z.input<Schema>>[];
  onSubmit: (values: z.output<Schema>) => Promise<void>;
  footer: ReactNode;
  /** What the page adds under spec 8's words when the details were refused (decision 064). */
  invalidHint?: string;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  const blank = Object.fromEntries(fields.map((field) => [field.name, ''])) as DefaultValues<z.input<Schema>>;
  const form = useSchemaForm(schema, blank);
  const errorOf = useFieldErrors(form);

  async function submit(values: z.output<Schema>) {
    setError(null);
    setRefused(false);
    try {
      await onSubmit(values);
    } catch (caught) {
      // Only the server's refusal of the details says they are wrong: no answer at all (a dropped
      // connection) is said as such, or a hurried driver retypes correct details, or registers again.
      if (gotNoAnswerFromApi(caught)) setError(t('login.noAnswer'));
      else if (caught instanceof ApiError && caught.status === 429) setError(t('login.tooMany'));
      else if (caught instanceof ApiError && caught.status >= 500) setError(unexpectedErrorText(caught, t));
      // A course closed by a full refund is said as such (decision 058), not as wrong details.
      else if (caught instanceof ApiError && caught.code === 'COURSE_REFUNDED') setError(errorText(caught, t));
      else {
        setError(t('login.invalid'));
        setRefused(true);
      }
    }
  }

  return (
    <div className="mx-auto max-w-md">
      <PageHeading className="text-2xl font-bold text-slate-900">{title}</PageHeading>
      <p className="mt-2 text-slate-700">{intro}</p>
      <form
        noValidate
        onSubmit={(event) => void form.handleSubmit(submit)(event)}
        className="mt-6 space-y-4 rounded-lg bg-white p-6 shadow"
      >
        {fields.map((field) => (
          <TextField
            key={field.name}
            label={field.label}
            type={field.type ?? 'text'}
            autoComplete={field.autoComplete}
            error={errorOf(field.name)}
            {...form.register(field.name)}
          />
        ))}
        {error && (
          <Alert>
            {error}
            {/* A space, so the two sentences stay apart in the text a reader or a test takes. */}
            {refused && invalidHint && (
              <>
                {' '}
                <span className="mt-1 block">{invalidHint}</span>
              </>
            )}
          </Alert>
        )}
        <Button type="submit" disabled={form.formState.isSubmitting} className="w-full">
          {form.formState.isSubmitting ? t('common.loading') : t('login.submit')}
        </Button>
      </form>
      <div className="mt-6 text-center text-slate-700">{footer}</div>
    </div>
  );
}

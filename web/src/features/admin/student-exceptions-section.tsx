import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  EXCEPTION_QUIZZES,
  type GrantRulesException,
  GrantRulesExceptionSchema,
  type RulesException,
} from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { formatMoment } from '../../lib/dates.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { useTranslation } from '../../lib/i18n.ts';

/**
 * The grant form's fields as typed (selects and boxes give text); the checks are the contract's
 * own GrantRulesExceptionSchema, run on what the form would send, each problem put on its field.
 */
const GrantFormSchema = z
  .object({
    kind: z.enum(['extra_attempt', 'extend_window']),
    chapter: z.string(),
    days: z.string(),
    reason: z.string(),
  })
  .superRefine((values, context) => {
    const checked = GrantRulesExceptionSchema.safeParse(toGrant(values));
    for (const issue of checked.success ? [] : checked.error.issues) {
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  });
type GrantForm = z.output<typeof GrantFormSchema>;

const EMPTY = { kind: 'extra_attempt', chapter: '', days: '', reason: '' } as const;

function toGrant(values: { kind: GrantRulesException['kind']; chapter: string; days: string; reason: string }) {
  return values.kind === 'extra_attempt'
    ? { kind: values.kind, chapter: Number(values.chapter), reason: values.reason }
    : { kind: values.kind, days: Number(values.days), reason: values.reason };
}

/**
 * Exceptions staff made to the student's rules (one more attempt, more days to finish),
 * each with its reason, who granted it and when; admins grant one here, clerks only read.
 */
export function StudentExceptionsSection({
  exceptions,
  canGrant,
  busy,
  onGrant,
}: {
  exceptions: RulesException[] | undefined;
  canGrant: boolean;
  busy: boolean;
  onGrant: (grant: GrantRulesException) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const form = useSchemaForm(GrantFormSchema, EMPTY);
  const errorOf = useFieldErrors(form);
  const kind = useWatch({ control: form.control, name: 'kind' });
  const quizName = (chapter: number) =>
    chapter === 6 ? t('nav.finalExam') : t('course.quizStep', { number: chapter });
  const describe = (exception: RulesException) =>
    exception.kind === 'extra_attempt'
      ? t('exceptions.extraAttemptAt', { quiz: quizName(exception.chapter ?? 0) })
      : t('exceptions.extendedBy', { count: exception.days ?? 0 });
  if (!canGrant && (exceptions ?? []).length === 0) return null;

  async function submit(values: GrantForm) {
    // Checked above with the contract's schema, so what is sent is what it parses to.
    if (await onGrant(GrantRulesExceptionSchema.parse(toGrant(values)))) form.reset(EMPTY);
  }

  return (
    <section aria-labelledby="exceptions-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="exceptions-heading" className="text-lg font-semibold">
        {t('exceptions.heading')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('exceptions.intro')}</p>
      {(exceptions ?? []).length > 0 && (
        <DataTable
          rows={exceptions ?? []}
          rowKey={(exception) => exception.id}
          columns={[
            { header: t('exceptions.what'), rowHeader: true, cell: describe },
            { header: t('exceptions.reason'), cell: (exception) => exception.reason },
            { header: t('exceptions.by'), cell: (exception) => exception.granted_by },
            {
              header: t('exceptions.when'),
              className: 'whitespace-nowrap',
              cell: (exception) => formatMoment(exception.created_at),
            },
          ]}
        />
      )}
      {canGrant && (
        <form
          noValidate
          onSubmit={(event) => void form.handleSubmit(submit)(event)}
          className="mt-4 grid gap-4 sm:grid-cols-2"
        >
          <SelectField label={t('exceptions.kind')} {...form.register('kind')}>
            <option value="extra_attempt">{t('exceptions.kinds.extra_attempt')}</option>
            <option value="extend_window">{t('exceptions.kinds.extend_window')}</option>
          </SelectField>
          {kind === 'extra_attempt' ? (
            <SelectField
              label={t('exceptions.quiz')}
              error={errorOf('chapter', t('exceptions.chooseQuiz'))}
              {...form.register('chapter')}
            >
              <option value="">{t('exceptions.chooseQuiz')}</option>
              {EXCEPTION_QUIZZES.map((quiz) => (
                <option key={quiz} value={quiz}>
                  {quizName(quiz)}
                </option>
              ))}
            </SelectField>
          ) : (
            <TextField
              label={t('exceptions.days')}
              type="number"
              inputMode="numeric"
              min={1}
              max={365}
              error={errorOf('days', t('exceptions.daysInvalid'))}
              {...form.register('days')}
            />
          )}
          <div className="sm:col-span-2">
            <TextField
              label={t('exceptions.reason')}
              hint={t('exceptions.reasonHint')}
              error={errorOf('reason', t('exceptions.reasonHint'))}
              {...form.register('reason')}
            />
          </div>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={busy || form.formState.isSubmitting}>
              {t('exceptions.grant')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

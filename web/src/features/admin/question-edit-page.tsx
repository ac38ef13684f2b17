import { useId, useState, type Ref, type TextareaHTMLAttributes } from 'react';
import { useWatch } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { z } from 'zod';
import {
  type AdminQuestion,
  FINAL_EXAM_CHAPTER,
  type SaveQuestion,
  SaveQuestionSchema,
  questionsApi,
} from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { PageHeading } from '../../components/page-heading.tsx';
import { adminQueries } from './admin-queries.ts';

type Message = { tone: 'success' | 'error'; text: string } | null;

const textareaClass =
  'mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-blue-700';

/** A polite live region that is always in the page, so a new message in it is announced. */
function SaveMessage({ message }: { message: Message }) {
  return (
    <div aria-live="polite" aria-atomic="true">
      {message && (
        <p
          className={`mt-3 rounded-md border px-4 py-3 text-sm ${
            message.tone === 'success'
              ? 'border-green-300 bg-green-50 text-green-900'
              : 'border-red-300 bg-red-50 text-red-800'
          }`}
        >
          {message.text}
        </p>
      )}
    </div>
  );
}

function TextArea({
  label,
  error,
  ref,
  ...props
}: {
  label: string;
  error?: string | undefined;
  ref?: Ref<HTMLTextAreaElement>;
} & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        ref={ref}
        id={id}
        rows={4}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={textareaClass}
        {...props}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

/** The page's form: the call's own checks, with the correct answer as the radio gives it. */
const QuestionFormSchema = SaveQuestionSchema.extend({
  correct_answer_id: z.string().pipe(z.coerce.number<string>().int().positive()),
});
type QuestionFormValues = z.input<typeof QuestionFormSchema>;

const valuesOf = (question: AdminQuestion): QuestionFormValues => ({
  content: question.question,
  content_es: question.question_es ?? '',
  answers: question.answers.map((answer) => ({
    id: answer.id,
    content: answer.content,
    content_es: answer.content_es ?? '',
  })),
  correct_answer_id: String(question.answers.find((answer) => answer.correct)?.id ?? ''),
});

/**
 * Spec 2 /admin/modify-questions/{questionId}: edit a question, each of its answers, and which
 * answer is correct, with one Save (decision 021) that keeps all of it or none. Texts are plain text
 * (the quiz shows them as text, never as HTML). Results already given keep their own copy, so an
 * edit only changes what later quizzes show.
 */
export function QuestionEditPage() {
  const { t } = useTranslation();
  const { questionId = '' } = useParams();
  const id = Number(questionId);
  const question = useQuery(adminQueries.question(id));

  const backLink = (
    <Link to="/admin/modify-questions" className="font-semibold text-blue-800 underline">
      {t('questions.back')}
    </Link>
  );

  if (question.isLoading) return <p>{t('common.loading')}</p>;
  if (!question.data) {
    const missing = !question.isError || (question.error instanceof ApiError && question.error.status === 404);
    return (
      <div className="space-y-4">
        <PageHeading className="text-2xl font-bold">{t('admin.pages.editQuestion')}</PageHeading>
        <Alert>{missing ? t('questions.notFound') : t('questions.loadOneError')}</Alert>
        <p>{backLink}</p>
      </div>
    );
  }
  const data = question.data;
  return (
    <div className="space-y-6">
      <p>{backLink}</p>
      <div>
        <PageHeading className="text-2xl font-bold">{t('admin.pages.editQuestion')}</PageHeading>
        <p className="mt-1 text-slate-700">
          {data.chapter_id === FINAL_EXAM_CHAPTER
            ? t('questions.finalExam')
            : t('questions.chapter', { number: data.chapter_id })}{' '}
          · {t('questions.number', { id: data.id })}
        </p>
        {!data.active && <p className="mt-1 text-slate-700">{t('questions.retired')}</p>}
      </div>
      <QuestionForm key={data.id} question={data} />
    </div>
  );
}

function QuestionForm({ question }: { question: AdminQuestion }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<Message>(null);
  const form = useSchemaForm(QuestionFormSchema, valuesOf(question));
  const errorOf = useFieldErrors(form);
  const answersShown = useWatch({ control: form.control, name: 'answers' });
  const save = useMutation({
    mutationFn: (body: SaveQuestion) => callApi(questionsApi.save, { params: { id: question.id }, body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(adminQueries.question(question.id).queryKey, saved);
      // The list shows the question's text; a quiz drawn from now on shows the new texts.
      return queryClient.invalidateQueries({ queryKey: adminQueries.questions().queryKey });
    },
  });

  async function submit(values: SaveQuestion) {
    setMessage(null);
    // Spec 8's words for what this Save changed: the question, its answers, or both.
    const { dirtyFields } = form.formState;
    const questionChanged = Boolean(dirtyFields.content ?? dirtyFields.content_es);
    const answersChanged = Boolean(dirtyFields.answers ?? dirtyFields.correct_answer_id);
    const parts = [
      ...(questionChanged || !answersChanged ? ['question'] : []),
      ...(answersChanged ? ['answer'] : []),
    ] as const;
    try {
      const saved = await save.mutateAsync(values);
      form.reset(valuesOf(saved));
      setMessage({ tone: 'success', text: parts.map((part) => t(`questions.${part}Saved`)).join(' ') });
    } catch {
      setMessage({ tone: 'error', text: parts.map((part) => t(`questions.${part}Error`)).join(' ') });
    }
  }

  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="space-y-6">
      <section aria-labelledby="question-heading" className="space-y-4 rounded-lg bg-white p-6 shadow">
        <h2 id="question-heading" className="text-lg font-semibold">
          {t('questions.questionHeading')}
        </h2>
        <TextArea label={t('questions.questionLabel')} error={errorOf('content')} {...form.register('content')} />
        <TextArea
          label={t('questions.questionEsLabel')}
          rows={3}
          error={errorOf('content_es')}
          {...form.register('content_es')}
        />
      </section>

      <section aria-labelledby="answers-heading" className="space-y-4 rounded-lg bg-white p-6 shadow">
        <h2 id="answers-heading" className="text-lg font-semibold">
          {t('questions.answersHeading')}
        </h2>
        <ol className="space-y-4">
          {question.answers.map((answer, index) => (
            <li key={answer.id} className="space-y-3 rounded-md border border-slate-200 p-4">
              <TextField
                label={t('questions.answerLabel', { number: index + 1 })}
                error={errorOf(`answers.${index}.content`)}
                {...form.register(`answers.${index}.content`)}
              />
              <TextField
                label={t('questions.answerEsLabel', { number: index + 1 })}
                error={errorOf(`answers.${index}.content_es`)}
                {...form.register(`answers.${index}.content_es`)}
              />
            </li>
          ))}
        </ol>
        <fieldset>
          <legend className="text-lg font-semibold">{t('questions.correctAnswer')}</legend>
          <p className="text-sm text-slate-700">{t('questions.correctHint')}</p>
          <div className="mt-3 space-y-2">
            {question.answers.map((answer, index) => (
              <label key={answer.id} className="flex items-start gap-3">
                <input
                  type="radio"
                  value={String(answer.id)}
                  className="mt-1 h-4 w-4 shrink-0"
                  {...form.register('correct_answer_id')}
                />
                <span className="break-words">
                  {t('questions.answerLabel', { number: index + 1 })}: {answersShown[index]?.content ?? answer.content}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </section>

      {/* One Save for the question and its answers, kept in view at the foot of the screen. */}
      <div className="sticky bottom-0 -mx-4 border-t border-slate-200 bg-white px-4 py-3 sm:mx-0 sm:rounded-lg sm:border sm:shadow">
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? t('common.loading') : t('questions.save')}
        </Button>
        <SaveMessage message={message} />
      </div>
    </form>
  );
}

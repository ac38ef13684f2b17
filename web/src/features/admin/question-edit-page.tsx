import { useId, useState, type FormEvent, type TextareaHTMLAttributes } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type AdminQuestion, questionsApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { PageHeading } from '../../components/page-heading.tsx';

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

function TextArea({ label, ...props }: { label: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea id={id} rows={4} className={textareaClass} {...props} />
    </div>
  );
}

/**
 * Spec 2 /admin/modify-questions/{questionId}: edit a question, each of its answers, and which
 * answer is correct. Texts are plain text (the quiz shows them as text, never as HTML). Results
 * already given keep their own copy, so an edit only changes what later quizzes show.
 */
export function QuestionEditPage() {
  const { t } = useTranslation();
  const { questionId = '' } = useParams();
  const id = Number(questionId);
  const queryClient = useQueryClient();
  const queryKey = ['admin-question', id];
  const question = useQuery({
    queryKey,
    queryFn: () => callApi(questionsApi.get, { params: { id } }),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
  const [busy, setBusy] = useState(false);
  const [questionMessage, setQuestionMessage] = useState<Message>(null);
  const [answerMessages, setAnswerMessages] = useState<Record<number, Message>>({});
  const [correctMessage, setCorrectMessage] = useState<Message>(null);
  /** The answer chosen in the Correct answer group, until it is saved. */
  const [choice, setChoice] = useState<number | null>(null);

  function saved(next: AdminQuestion) {
    queryClient.setQueryData(queryKey, next);
    void queryClient.invalidateQueries({ queryKey: ['admin-questions'] });
  }

  async function saveQuestion(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setQuestionMessage(null);
    try {
      saved(
        await callApi(questionsApi.editQuestion, {
          params: { id },
          body: { content: String(form.get('content') ?? ''), content_es: String(form.get('content_es') ?? '') },
        }),
      );
      setQuestionMessage({ tone: 'success', text: t('questions.questionSaved') });
    } catch {
      setQuestionMessage({ tone: 'error', text: t('questions.questionError') });
    } finally {
      setBusy(false);
    }
  }

  async function saveAnswer(answerId: number, body: { content: string; content_es?: string; correct?: boolean }) {
    setBusy(true);
    const show = (message: Message) =>
      body.correct ? setCorrectMessage(message) : setAnswerMessages((all) => ({ ...all, [answerId]: message }));
    show(null);
    try {
      saved(await callApi(questionsApi.editAnswer, { params: { id: answerId }, body }));
      if (body.correct) setChoice(null);
      show({ tone: 'success', text: t('questions.answerSaved') });
    } catch {
      show({ tone: 'error', text: t('questions.answerError') });
    } finally {
      setBusy(false);
    }
  }

  function submitAnswer(answerId: number) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = new FormData(event.currentTarget);
      void saveAnswer(answerId, {
        content: String(form.get('content') ?? ''),
        content_es: String(form.get('content_es') ?? ''),
      });
    };
  }

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
  const correct = data.answers.find((answer) => answer.correct);

  return (
    <div className="space-y-6">
      <p>{backLink}</p>
      <div>
        <PageHeading className="text-2xl font-bold">{t('admin.pages.editQuestion')}</PageHeading>
        <p className="mt-1 text-slate-700">
          {t('questions.chapter', { number: data.chapter_id })} · {t('questions.number', { id: data.id })}
        </p>
        {!data.active && <p className="mt-1 text-slate-700">{t('questions.retired')}</p>}
      </div>

      <form
        onSubmit={(event) => void saveQuestion(event)}
        aria-labelledby="question-heading"
        className="space-y-4 rounded-lg bg-white p-6 shadow"
      >
        <h2 id="question-heading" className="text-lg font-semibold">
          {t('questions.questionHeading')}
        </h2>
        <TextArea label={t('questions.questionLabel')} name="content" defaultValue={data.question} required />
        <TextArea
          label={t('questions.questionEsLabel')}
          name="content_es"
          defaultValue={data.question_es ?? ''}
          rows={3}
        />
        <Button type="submit" disabled={busy}>
          {t('questions.saveQuestion')}
        </Button>
        <SaveMessage message={questionMessage} />
      </form>

      <section aria-labelledby="answers-heading" className="space-y-4 rounded-lg bg-white p-6 shadow">
        <h2 id="answers-heading" className="text-lg font-semibold">
          {t('questions.answersHeading')}
        </h2>
        <ol className="space-y-4">
          {data.answers.map((answer, index) => (
            <li key={answer.id}>
              <form
                onSubmit={submitAnswer(answer.id)}
                aria-label={t('questions.answerLabel', { number: index + 1 })}
                className="space-y-3 rounded-md border border-slate-200 p-4"
              >
                <TextField
                  label={t('questions.answerLabel', { number: index + 1 })}
                  name="content"
                  defaultValue={answer.content}
                  hint={answer.correct ? t('questions.isCorrect') : undefined}
                  required
                />
                <TextField
                  label={t('questions.answerEsLabel', { number: index + 1 })}
                  name="content_es"
                  defaultValue={answer.content_es ?? ''}
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  {t('questions.saveAnswer')}
                </Button>
                <SaveMessage message={answerMessages[answer.id] ?? null} />
              </form>
            </li>
          ))}
        </ol>
      </section>

      <form
        onSubmit={(event) => {
          event.preventDefault();
          const chosen = data.answers.find((answer) => answer.id === (choice ?? correct?.id));
          if (chosen) void saveAnswer(chosen.id, { content: chosen.content, correct: true });
        }}
        className="rounded-lg bg-white p-6 shadow"
      >
        <fieldset>
          <legend className="text-lg font-semibold">{t('questions.correctAnswer')}</legend>
          <p className="text-sm text-slate-700">{t('questions.correctHint')}</p>
          <div className="mt-3 space-y-2">
            {data.answers.map((answer, index) => (
              <label key={answer.id} className="flex items-start gap-3">
                <input
                  type="radio"
                  name="correct-answer"
                  value={answer.id}
                  className="mt-1 h-4 w-4 shrink-0"
                  checked={answer.id === (choice ?? correct?.id)}
                  onChange={() => setChoice(answer.id)}
                />
                <span className="break-words">
                  {t('questions.answerLabel', { number: index + 1 })}: {answer.content}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <Button type="submit" className="mt-4" disabled={busy}>
          {t('questions.saveCorrect')}
        </Button>
        <SaveMessage message={correctMessage} />
      </form>
    </div>
  );
}

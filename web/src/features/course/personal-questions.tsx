import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  identityChecksApi,
  PERSONAL_QUESTION_KEYS,
  PERSONAL_QUESTIONS_TO_ANSWER,
  type PersonalQuestionKey,
} from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useStoredUser } from '../../lib/session.ts';
import { courseQueries } from './course-queries.ts';

/**
 * Personal validation questions (decision 050). Under a profile that asks them, a paid student
 * chooses and answers five before studying; identity checks then ask one of them. The server
 * holds the course (409 PERSONAL_QUESTIONS_REQUIRED) until they are set; this page and the gate
 * below only show it.
 */

export const PERSONAL_QUESTIONS_PATH = '/personal-questions';

function usePersonalQuestions(studentId: number | null) {
  return useQuery({ ...courseQueries.personalQuestions(studentId ?? 0), enabled: studentId !== null });
}

/** Sends a paid student whose answers are still to set to the page that sets them. */
export function PersonalQuestionsGate() {
  const user = useStoredUser();
  const studentId = user?.type === 'student' && user.payment_at ? user.id : null;
  const state = usePersonalQuestions(studentId);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const needed = state.data?.required === true && !state.data.set;
  useEffect(() => {
    if (needed && pathname !== PERSONAL_QUESTIONS_PATH) void navigate(PERSONAL_QUESTIONS_PATH, { replace: true });
  }, [needed, pathname, navigate]);
  return null;
}

interface Row {
  key: PersonalQuestionKey | '';
  answer: string;
}

const EMPTY_ROWS: Row[] = Array.from({ length: PERSONAL_QUESTIONS_TO_ANSWER }, () => ({ key: '', answer: '' }));

export function PersonalQuestionsPage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const studentId = user?.type === 'student' ? user.id : 0;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const state = usePersonalQuestions(studentId || null);
  const [rows, setRows] = useState<Row[]>(EMPTY_ROWS);
  const [problem, setProblem] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const save = useMutation({
    mutationFn: (answers: { key: PersonalQuestionKey; answer: string }[]) =>
      callApi(identityChecksApi.setPersonalQuestions, { params: { id: studentId }, body: { answers } }),
    onSuccess: (next) => {
      queryClient.setQueryData(courseQueries.personalQuestions(studentId).queryKey, next);
      void navigate('/', { replace: true });
    },
  });

  const update = (index: number, change: Partial<Row>) =>
    setRows((current) => current.map((row, at) => (at === index ? { ...row, ...change } : row)));

  const answerMissing = (row: Row) => row.answer.normalize('NFKD').replace(/[^\p{L}\p{N}]/gu, '').length < 2;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setShowErrors(true);
    if (rows.some((row) => row.key === '' || answerMissing(row))) {
      setProblem(t('personalQuestions.incomplete'));
      return;
    }
    try {
      await save.mutateAsync(rows.map((row) => ({ key: row.key as PersonalQuestionKey, answer: row.answer })));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'PERSONAL_QUESTIONS_SET') {
        await queryClient.invalidateQueries({ queryKey: courseQueries.personalQuestions(studentId).queryKey });
        void navigate('/', { replace: true });
        return;
      }
      setProblem(t('personalQuestions.failed'));
    }
  }

  if (state.data && (!state.data.required || state.data.set)) {
    return (
      <div className="mx-auto max-w-xl space-y-4">
        <PageHeading>{t('personalQuestions.title')}</PageHeading>
        <p>{state.data.set ? t('personalQuestions.alreadySet') : t('personalQuestions.notAsked')}</p>
      </div>
    );
  }

  const chosen = new Set(rows.map((row) => row.key));
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <PageHeading>{t('personalQuestions.title')}</PageHeading>
      <p>{t('personalQuestions.intro', { count: PERSONAL_QUESTIONS_TO_ANSWER })}</p>
      <p className="text-sm text-slate-700">{t('personalQuestions.howCompared')}</p>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
        {rows.map((row, index) => (
          <fieldset key={index} className="space-y-2 rounded-md border border-slate-300 p-3">
            <legend className="px-1 font-semibold text-slate-900">
              {t('personalQuestions.number', { number: index + 1 })}
            </legend>
            <SelectField
              label={t('personalQuestions.choose')}
              value={row.key}
              error={showErrors && row.key === '' ? t('personalQuestions.chooseOne') : undefined}
              onChange={(event) => update(index, { key: event.target.value as PersonalQuestionKey | '' })}
            >
              <option value="">{t('personalQuestions.pick')}</option>
              {PERSONAL_QUESTION_KEYS.map((key) => (
                <option key={key} value={key} disabled={key !== row.key && chosen.has(key)}>
                  {t(`personalQuestions.question.${key}`)}
                </option>
              ))}
            </SelectField>
            <TextField
              label={t('personalQuestions.answer')}
              autoComplete="off"
              maxLength={100}
              value={row.answer}
              error={showErrors && answerMissing(row) ? t('personalQuestions.answerOne') : undefined}
              onChange={(event) => update(index, { answer: event.target.value })}
            />
          </fieldset>
        ))}
        {problem && <Alert>{problem}</Alert>}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('common.loading') : t('personalQuestions.save')}
        </Button>
      </form>
    </div>
  );
}

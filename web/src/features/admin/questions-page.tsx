import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contentApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { callApi } from '../../lib/api.ts';
import { PageHeading } from '../../components/page-heading.tsx';

/** Spec 9: the list shows the first 120 characters of each question. */
export const QUESTION_PREVIEW_LENGTH = 120;

/** The first 120 characters (whole characters, not halves of an emoji), with '…' when cut. */
export function previewOf(text: string): string {
  const characters = Array.from(text);
  if (characters.length <= QUESTION_PREVIEW_LENGTH) return text;
  return `${characters.slice(0, QUESTION_PREVIEW_LENGTH).join('').trimEnd()}…`;
}

/** Spec 2 /admin/modify-questions: every question of the banks, grouped by chapter. */
export function QuestionsPage() {
  const { t } = useTranslation();
  const questions = useQuery({ queryKey: ['admin-questions'], queryFn: () => callApi(contentApi.questions) });

  const chapters = new Map<number, { id: number; question: string }[]>();
  for (const question of questions.data ?? []) {
    const list = chapters.get(question.chapter_id) ?? [];
    list.push(question);
    chapters.set(question.chapter_id, list);
  }

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold">{t('admin.pages.modifyQuestions')}</PageHeading>
      {questions.isLoading && <p>{t('common.loading')}</p>}
      {questions.isError && <Alert>{t('questions.loadError')}</Alert>}
      {questions.data?.length === 0 && <p className="text-slate-700">{t('questions.none')}</p>}
      {[...chapters.entries()]
        .sort(([a], [b]) => a - b)
        .map(([chapterId, list]) => (
          <section
            key={chapterId}
            aria-labelledby={`chapter-${String(chapterId)}-heading`}
            className="rounded-lg bg-white p-6 shadow"
          >
            <h2 id={`chapter-${String(chapterId)}-heading`} className="text-lg font-semibold">
              {t('questions.chapter', { number: chapterId })}
            </h2>
            <p className="text-sm text-slate-700">{t('questions.count', { total: list.length })}</p>
            <ol className="mt-3 divide-y divide-slate-200">
              {list.map((question) => (
                <li key={question.id} className="py-2">
                  <Link
                    to={`/admin/modify-questions/${String(question.id)}`}
                    className="block break-words text-blue-800 underline hover:text-blue-900"
                  >
                    {previewOf(question.question)}
                  </Link>
                </li>
              ))}
            </ol>
          </section>
        ))}
    </div>
  );
}

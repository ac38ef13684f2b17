import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { FINAL_EXAM_CHAPTER } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { adminQueries } from './admin-queries.ts';

/** Spec 9: the list shows the first 120 characters of each question. */
export const QUESTION_PREVIEW_LENGTH = 120;

/** The first 120 characters (whole characters, not halves of an emoji), with '…' when cut. */
export function previewOf(text: string): string {
  const characters = Array.from(text);
  if (characters.length <= QUESTION_PREVIEW_LENGTH) return text;
  return `${characters.slice(0, QUESTION_PREVIEW_LENGTH).join('').trimEnd()}…`;
}

/** Text compared without case or accents: "senal" finds "Señal". */
const comparable = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

/** Whether a question matches the search: words of its text in any order, or its number ("#123" or "123"). */
export function matchesSearch(question: { id: number; question: string }, search: string): boolean {
  const wanted = comparable(search.trim());
  if (wanted === '') return true;
  if (/^#?\d+$/.test(wanted)) return String(question.id) === wanted.replace('#', '');
  const text = comparable(question.question);
  return wanted.split(/\s+/).every((word) => text.includes(word));
}

/**
 * Spec 2 /admin/modify-questions: every question of the banks, grouped by chapter, with a search
 * and a chapter filter (the whole bank is some 300 links). Both live in the address,
 * so Back from a question returns to the same list.
 */
export function QuestionsPage() {
  const { t } = useTranslation();
  // Chapter 6 is the final exam's own bank (decision 023).
  const chapterLabel = (chapter: number) =>
    chapter === FINAL_EXAM_CHAPTER ? t('questions.finalExam') : t('questions.chapter', { number: chapter });
  const questions = useQuery(adminQueries.questions());
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const chapterFilter = params.get('chapter') ?? '';
  // Decision 051: '' every question, 'shared' the course every student reads, or a state edition's own.
  const editionFilter = params.get('edition') ?? '';
  const setFilter = (key: 'q' | 'chapter' | 'edition', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '') next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const allChapters = [...new Set((questions.data ?? []).map((question) => question.chapter_id))].sort((a, b) => a - b);
  const allEditions = [
    ...new Set((questions.data ?? []).flatMap((question) => (question.edition ? [question.edition] : []))),
  ].sort();
  const shown = (questions.data ?? []).filter(
    (question) =>
      (chapterFilter === '' || String(question.chapter_id) === chapterFilter) &&
      (editionFilter === '' || (question.edition ?? 'shared') === editionFilter) &&
      matchesSearch(question, search),
  );

  const chapters = new Map<number, { id: number; question: string }[]>();
  for (const question of shown) {
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
      {questions.data && questions.data.length > 0 && (
        <div className="grid gap-4 rounded-lg bg-white p-4 shadow sm:grid-cols-[2fr_1fr]">
          <TextField
            type="search"
            label={t('questions.search')}
            hint={t('questions.searchHint')}
            value={search}
            onChange={(event) => setFilter('q', event.target.value)}
          />
          <SelectField
            label={t('questions.chapterFilter')}
            value={chapterFilter}
            onChange={(event) => setFilter('chapter', event.target.value)}
          >
            <option value="">{t('questions.allChapters')}</option>
            {allChapters.map((chapter) => (
              <option key={chapter} value={chapter}>
                {chapterLabel(chapter)}
              </option>
            ))}
          </SelectField>
          {allEditions.length > 0 && (
            <SelectField
              label={t('questions.editionFilter')}
              value={editionFilter}
              onChange={(event) => setFilter('edition', event.target.value)}
            >
              <option value="">{t('questions.allEditions')}</option>
              <option value="shared">{t('questions.sharedCourse')}</option>
              {allEditions.map((edition) => (
                <option key={edition} value={edition}>
                  {t('questions.edition', { state: edition.toUpperCase() })}
                </option>
              ))}
            </SelectField>
          )}
          <p role="status" className="text-sm text-slate-700 sm:col-span-2">
            {t('questions.shown', { shown: shown.length, total: questions.data.length })}
          </p>
        </div>
      )}
      {[...chapters.entries()]
        .sort(([a], [b]) => a - b)
        .map(([chapterId, list]) => (
          <section
            key={chapterId}
            aria-labelledby={`chapter-${String(chapterId)}-heading`}
            className="rounded-lg bg-white p-6 shadow"
          >
            <h2 id={`chapter-${String(chapterId)}-heading`} className="text-lg font-semibold">
              {chapterLabel(chapterId)}
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

import { type RefObject, useLayoutEffect, useRef } from 'react';
import type { Quiz } from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import type { QuizAnswers } from './quiz-drafts.ts';

/**
 * The quiz's questions, each a group of radio buttons; once Submit was pressed with some left
 * unanswered (spec 5), those are marked and say so.
 */
export function QuizQuestions({
  questions,
  chosen,
  showMissing,
  onChoose,
}: {
  questions: Quiz['questions'];
  chosen: QuizAnswers;
  showMissing: boolean;
  onChoose: (questionId: number, answerId: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <ol className="space-y-4">
      {questions.map((question, index) => {
        const unanswered = showMissing && chosen[question.id] === undefined;
        return (
          <li key={question.id}>
            <fieldset
              id={`question-${String(question.id)}`}
              tabIndex={-1}
              aria-invalid={unanswered || undefined}
              aria-describedby={unanswered ? `question-${String(question.id)}-missing` : undefined}
              className={`rounded-lg border-2 bg-white p-4 shadow-sm ${unanswered ? 'border-red-700' : 'border-transparent'}`}
            >
              <legend className="float-left mb-3 w-full font-semibold text-slate-900">
                {index + 1}. {question.question}
              </legend>
              {unanswered && (
                <p
                  id={`question-${String(question.id)}-missing`}
                  className="clear-both mb-2 text-sm font-semibold text-red-800"
                >
                  {t('quiz.notAnswered')}
                </p>
              )}
              <div className="clear-both space-y-2">
                {question.answers.map((answer) => (
                  <label
                    key={answer.id}
                    className="flex cursor-pointer items-start gap-3 rounded-md p-2 hover:bg-slate-50"
                  >
                    <input
                      type="radio"
                      name={`question-${String(question.id)}`}
                      value={answer.id}
                      checked={chosen[question.id] === answer.id}
                      onChange={() => onChoose(question.id, answer.id)}
                      className="mt-1 h-4 w-4 shrink-0"
                    />
                    <span>{answer.content}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          </li>
        );
      })}
    </ol>
  );
}

/** How far along, and always in reach on a phone, with what Submit still needs. */
export function QuizSubmitBar({
  answered,
  total,
  submitting,
}: {
  answered: number;
  total: number;
  submitting: boolean;
}) {
  const { t } = useTranslation();
  const left = total - answered;
  const bar = useRef<HTMLDivElement>(null);
  useScrollPaddingClearOf(bar);
  return (
    <div
      ref={bar}
      data-testid="quiz-submit-bar"
      className="sticky bottom-0 -mx-4 flex flex-col gap-2 border-t border-slate-200 bg-white px-4 py-3 sm:mx-0 sm:flex-row sm:items-center sm:rounded-lg sm:border sm:shadow"
    >
      <div className="flex-1">
        <p className="font-semibold text-slate-900" data-testid="quiz-answered">
          {t('quiz.answered', { answered, total })}
        </p>
        <p id="quiz-left" className="text-sm text-slate-700">
          {left > 0 ? t('quiz.left', { count: left }) : t('quiz.allAnswered')}
        </p>
      </div>
      <Button type="submit" disabled={submitting} aria-describedby="quiz-left" className="w-full sm:w-auto">
        {submitting ? t('common.loading') : t('quiz.submit')}
      </Button>
    </div>
  );
}

/** Space kept between a focused option and the sticky bar or header, beside their own height. */
const FOCUS_GAP_PX = 8;

/**
 * WCAG 2.2, 2.4.11 (focus not obscured): the page's scroll-padding keeps an option the student
 * moves to clear of this sticky bar below and of the sticky header above, each as tall as it is
 * now (the bar wraps on a phone, the text grows with the browser's font size), and is given back
 * when the quiz leaves the page.
 */
function useScrollPaddingClearOf(bar: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const header = Array.from(document.querySelectorAll('header')).find((candidate) =>
      ['sticky', 'fixed'].includes(getComputedStyle(candidate).position),
    );
    const fit = () => {
      root.style.scrollPaddingBottom = `${String(element.offsetHeight + FOCUS_GAP_PX)}px`;
      root.style.scrollPaddingTop = header ? `${String(header.offsetHeight + FOCUS_GAP_PX)}px` : '';
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(element);
    if (header) observer.observe(header);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingBottom = '';
      root.style.scrollPaddingTop = '';
    };
  }, [bar]);
}

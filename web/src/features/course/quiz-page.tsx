import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { FINAL_EXAM_CHAPTER, type QuizSubmission, progressApi, quizApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { ApiError, callApi, gotNoAnswerFromApi, shouldSignOutAfter } from '../../lib/api.ts';
import { clearStoredUser } from '../../lib/stored-user.ts';
import { errorText } from '../../lib/error-text.ts';
import { useQuiz, useQuizStatus, useRefreshProgress, useStudentId } from './course-queries.ts';
import { QuizSeatTimeRefusal, seatTimeRefusal } from './seat-time.tsx';
import { identityHoldText, isIdentityHold, useIdentityHold } from './identity-check.tsx';
import { isRulesRefusal, QuizInstructions, RulesRefusal, rulesRefusalText } from '../rules/rules-messages.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { certificateQueries } from '../certificates/certificate-queries.ts';
import { forgetQuizDraft, readQuizDraft, saveQuizDraft, type QuizAnswers } from './quiz-drafts.ts';

/** Spec 2 /quiz/{chapterId}, and /final (or /final-exam) for the final exam. */
export function QuizPage({ final = false }: { final?: boolean }) {
  const { chapterId: raw = '' } = useParams();
  const chapterId = final ? FINAL_EXAM_CHAPTER : Number(raw);
  if (!final && (!Number.isInteger(chapterId) || chapterId < 1 || chapterId > 4)) {
    return <QuizMessage text="course.notFound" />;
  }
  return <QuizGate chapterId={chapterId} />;
}

function QuizMessage({
  text,
  values,
  children,
}: {
  text: string;
  values?: Record<string, unknown>;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="space-y-4">
      <Alert tone="info">{t(text, values)}</Alert>
      {children}
    </div>
  );
}

/** What the quiz page shows before any question: the spec's messages for each situation. */
function QuizGate({ chapterId }: { chapterId: number }) {
  const { t } = useTranslation();
  const isFinal = chapterId === FINAL_EXAM_CHAPTER;
  const status = useQuizStatus(chapterId);
  const heading = isFinal ? t('quiz.finalTitle') : t('course.quizStep', { number: chapterId });

  let body: React.ReactNode;
  if (status.isLoading) body = <QuizSkeleton />;
  else if (status.data?.complete && isFinal) body = <FinalComplete />;
  else if (status.data?.complete) {
    body = <QuizMessage text="quiz.alreadyComplete" values={{ number: chapterId }} />;
  } else body = <QuizForm chapterId={chapterId} />;

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold text-slate-900">{heading}</PageHeading>
      {body}
    </div>
  );
}

/** Spec 2: 'You have completed the final exam!' with the download link, or the email promise. */
function FinalComplete() {
  const { t } = useTranslation();
  const studentId = useStudentId();
  const certificate = useQuery(certificateQueries.latest(studentId));
  return (
    <div className="space-y-2">
      <Alert tone="success">{t('quiz.finalComplete')}</Alert>
      {certificate.data ? (
        <a href={certificate.data.url} className="font-semibold text-blue-800 underline" download>
          {t('certificates.download')}
        </a>
      ) : (
        !certificate.isLoading && <p>{t('quiz.certificateSoon')}</p>
      )}
    </div>
  );
}

function QuizSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="space-y-4" aria-busy="true" aria-label={t('common.loading')}>
      {[0, 1, 2].map((row) => (
        <div key={row} className="h-32 animate-pulse rounded-lg bg-slate-200" />
      ))}
    </div>
  );
}

function QuizForm({ chapterId }: { chapterId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const studentId = useStudentId();
  const refresh = useRefreshProgress();
  const isFinal = chapterId === FINAL_EXAM_CHAPTER;
  const quiz = useQuiz(chapterId);
  const [chosen, setChosen] = useState<QuizAnswers>({});
  // A reload shows the same open attempt again: its draft puts the student's answers back
  // (quiz-drafts.ts). Restored once per attempt shown, while rendering, so no empty form flashes.
  const [draftAttemptId, setDraftAttemptId] = useState<number | null>(null);
  if (quiz.data && quiz.data.attemptId !== draftAttemptId) {
    setDraftAttemptId(quiz.data.attemptId);
    setChosen(readQuizDraft(studentId, quiz.data));
  }
  // Each choice is kept as it is made; the attempt shown replaces another attempt's draft. Not
  // without a signed-in student (a 401 has just removed the stored user): there is no one to keep it for.
  useEffect(() => {
    if (quiz.data && studentId > 0) saveQuizDraft(studentId, quiz.data, chosen);
  }, [studentId, quiz.data, chosen]);
  const [showMissing, setShowMissing] = useState(false);
  const score = useMutation({ mutationFn: (body: QuizSubmission) => callApi(quizApi.score, { body }) });
  // Busy from the click until the results page opens (the progress is refreshed in between).
  const submitting = score.isPending || score.isSuccess;
  const [submitError, setSubmitError] = useState<string | null>(null);
  // Identity checks (decision 012): a draw refused for one opens the question; once it is
  // answered the dialog draws the quiz again.
  const identityHold = useIdentityHold();
  useEffect(() => {
    identityHold(quiz.error);
  }, [quiz.error, identityHold]);

  if (quiz.isLoading) return <QuizSkeleton />;
  // Seat time (decision 012): the server refuses the draw until the profile's minimum is met.
  const seatTimeRemaining = seatTimeRefusal(quiz.error);
  if (seatTimeRemaining !== null) {
    return <QuizSeatTimeRefusal chapterId={chapterId} remainingSeconds={seatTimeRemaining} />;
  }
  if (isIdentityHold(quiz.error)) {
    return (
      <Alert tone="info">
        {t(quiz.error.code === 'COURSE_LOCKED' ? 'identity.lockedShort' : 'identity.quizWaits')}
      </Alert>
    );
  }
  // Rules profile (decision 012): no attempts left, a wait after a failed attempt, the window closed.
  if (isRulesRefusal(quiz.error)) return <RulesRefusal error={quiz.error} final={isFinal} />;
  if (quiz.error instanceof ApiError && quiz.error.code === 'CHAPTERS_INCOMPLETE') {
    return <QuizMessage text="quiz.finalLocked" />;
  }
  if (
    quiz.error instanceof ApiError &&
    (quiz.error.code === 'MODULES_INCOMPLETE' || quiz.error.code === 'CHAPTER_LOCKED')
  ) {
    return (
      <QuizMessage text={quiz.error.code === 'MODULES_INCOMPLETE' ? 'quiz.modulesIncomplete' : 'quiz.chapterLocked'}>
        <Link to={`/content/${String(chapterId)}`} className="font-semibold text-blue-800 underline">
          {t('course.backToChapter', { number: chapterId })}
        </Link>
      </QuizMessage>
    );
  }
  if (!quiz.data) return <Alert>{t('quiz.loadError')}</Alert>;
  const questions = quiz.data.questions;
  const missing = questions.filter((question) => chosen[question.id] === undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!quiz.data) return;
    // Spec 5: every displayed question must be answered; the unanswered ones are highlighted.
    if (missing.length > 0) {
      setShowMissing(true);
      document.getElementById(`question-${String(missing[0]!.id)}`)?.focus();
      return;
    }
    setSubmitError(null);
    try {
      const result = await score.mutateAsync({
        studentId,
        chapter: chapterId,
        attemptId: quiz.data.attemptId,
        questions: questions.map((question) => ({ question: question.id, answer: chosen[question.id]! })),
      });
      // Graded: the attempt is closed, its draft has nothing left to restore.
      forgetQuizDraft(studentId, quiz.data.chapter);
      // Spec 4: a pass posts chapter completion (the server recorded it already; this repeats harmlessly).
      if (result.status === 'PASS' && !isFinal) {
        await callApi(progressApi.completeChapter, { body: { studentId, chapterId } }).catch(() => undefined);
      }
      await refresh();
      await navigate('/score', { state: { result } });
    } catch (error) {
      // An identity check or a lock holds the submission: the answers stay for a second try.
      if (identityHold(error)) {
        setSubmitError(identityHoldText(error, t));
        score.reset();
        return;
      }
      // The completion window closed while the quiz was open: say so (decision 012).
      const refusal = rulesRefusalText(error, t, { final: isFinal });
      if (refusal !== null) {
        setSubmitError(refusal);
        score.reset();
        return;
      }
      // Spec 8: a failed quiz submission removes the stored user; no redirect at once. Not when
      // it got no answer (a reload aborted it): the student is still signed in and may try again.
      // "Sign in again" only when that is so: a refusal of the submission itself (the attempt was
      // already graded, from another tab or a second click) says what it was.
      const signedOut = shouldSignOutAfter(error);
      if (signedOut) clearStoredUser();
      setSubmitError(
        gotNoAnswerFromApi(error)
          ? t('quiz.submitNoAnswer')
          : signedOut || !(error instanceof ApiError)
            ? t('quiz.submitError')
            : errorText(error, t),
      );
      score.reset();
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-6">
      <QuizInstructions quiz={quiz.data} />
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
                        onChange={() => setChosen((current) => ({ ...current, [question.id]: answer.id }))}
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
      {showMissing && missing.length > 0 && <Alert>{t('quiz.answerAll')}</Alert>}
      {submitError && <Alert>{submitError}</Alert>}
      {/* Issue 16: how far along, and always in reach on a phone, with what Submit still needs. */}
      <div className="sticky bottom-0 -mx-4 flex flex-col gap-2 border-t border-slate-200 bg-white px-4 py-3 sm:mx-0 sm:flex-row sm:items-center sm:rounded-lg sm:border sm:shadow">
        <div className="flex-1">
          <p className="font-semibold text-slate-900" data-testid="quiz-answered">
            {t('quiz.answered', { answered: questions.length - missing.length, total: questions.length })}
          </p>
          <p id="quiz-left" className="text-sm text-slate-700">
            {missing.length > 0 ? t('quiz.left', { count: missing.length }) : t('quiz.allAnswered')}
          </p>
        </div>
        <Button type="submit" disabled={submitting} aria-describedby="quiz-left" className="w-full sm:w-auto">
          {submitting ? t('common.loading') : t('quiz.submit')}
        </Button>
      </div>
    </form>
  );
}

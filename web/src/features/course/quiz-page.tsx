import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { FINAL_EXAM_CHAPTER, type Quiz, type QuizSubmission, progressApi, quizApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { callApi } from '../../lib/api.ts';
import { clearStoredUser } from '../../lib/stored-user.ts';
import { useQuiz, useQuizStatus, useRefreshProgress, useStudentId } from './course-queries.ts';
import { useIdentityHold } from './identity-check.tsx';
import { QuizInstructions } from '../rules/rules-messages.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { certificateQueries } from '../certificates/certificate-queries.ts';
import { forgetQuizDraft, readQuizDraft, saveQuizDraft, type QuizAnswers } from './quiz-drafts.ts';
import { QuizQuestions, QuizSubmitBar } from './quiz-questions.tsx';
import { drawRefusal, QuizMessage, submitRefusal } from './quiz-refusals.tsx';

/** Spec 2 /quiz/{chapterId}, and /final (or /final-exam) for the final exam. */
export function QuizPage({ final = false }: { final?: boolean }) {
  const { chapterId: raw = '' } = useParams();
  const chapterId = final ? FINAL_EXAM_CHAPTER : Number(raw);
  if (!final && (!Number.isInteger(chapterId) || chapterId < 1 || chapterId > 4)) {
    return <QuizMessage text="course.notFound" />;
  }
  return <QuizGate chapterId={chapterId} />;
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

/**
 * The student's answers to the attempt shown. A reload shows the same open attempt again: its
 * draft puts the answers back (quiz-drafts.ts), restored once per attempt shown, while rendering,
 * so no empty form flashes. Each choice is kept as it is made; the attempt shown replaces another
 * attempt's draft. Not without a signed-in student (a 401 has just removed the stored user): there
 * is no one to keep it for.
 */
function useQuizAnswers(studentId: number, quiz: Quiz | undefined) {
  const [chosen, setChosen] = useState<QuizAnswers>({});
  const [draftAttemptId, setDraftAttemptId] = useState<number | null>(null);
  if (quiz && quiz.attemptId !== draftAttemptId) {
    setDraftAttemptId(quiz.attemptId);
    setChosen(readQuizDraft(studentId, quiz));
  }
  useEffect(() => {
    if (quiz && studentId > 0) saveQuizDraft(studentId, quiz, chosen);
  }, [studentId, quiz, chosen]);
  const choose = (questionId: number, answerId: number) =>
    setChosen((current) => ({ ...current, [questionId]: answerId }));
  return { chosen, choose };
}

function QuizForm({ chapterId }: { chapterId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const studentId = useStudentId();
  const refresh = useRefreshProgress();
  const isFinal = chapterId === FINAL_EXAM_CHAPTER;
  const quiz = useQuiz(chapterId);
  const { chosen, choose } = useQuizAnswers(studentId, quiz.data);
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
  const refusal = drawRefusal(quiz.error, chapterId, isFinal, t);
  if (refusal !== null) return refusal;
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
      // An identity check or a lock opens its dialog; the answers stay for a second try.
      identityHold(error);
      const refused = submitRefusal(error, t, isFinal);
      if (refused.signsOut) clearStoredUser();
      setSubmitError(refused.text);
      score.reset();
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-6">
      <QuizInstructions quiz={quiz.data} />
      <QuizQuestions questions={questions} chosen={chosen} showMissing={showMissing} onChoose={choose} />
      {showMissing && missing.length > 0 && <Alert>{t('quiz.answerAll')}</Alert>}
      {submitError && <Alert>{submitError}</Alert>}
      <QuizSubmitBar answered={questions.length - missing.length} total={questions.length} submitting={submitting} />
    </form>
  );
}

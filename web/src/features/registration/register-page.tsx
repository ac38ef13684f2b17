import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { type Registration, registrationApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { ApiError, callApi, detailsOf } from '../../lib/api.ts';
import { unexpectedErrorText } from '../../lib/error-text.ts';
import { useCourts } from '../../lib/queries.ts';
import {
  RegistrationFields,
  RegistrationFormEnd,
  registrationProblemText,
  useRegistrationForm,
} from './registration-form.tsx';
import { PageHeading } from '../../components/page-heading.tsx';

interface Duplicate {
  studentId: number;
  resetToken: string | undefined;
  /** Decision 026: the detail another enrolment holds, so the old account cannot be replaced. */
  inUse: 'email' | 'dl_number' | undefined;
  /** The course it would replace is paid for (told only with a reset token). */
  paid: boolean;
  /** What was sent, to send again once the old course is reset. */
  registration: Registration;
}

/** Spec 2, 4, 5 and 8: /register with its loading, validation and duplicate-account states. */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const courts = useCourts();
  const form = useRegistrationForm();
  const [error, setError] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState<Duplicate | null>(null);
  const [replaceError, setReplaceError] = useState<string | null>(null);
  const registerStudent = useMutation({
    mutationFn: (registration: Registration) => callApi(registrationApi.register, { body: registration }),
  });
  const replaceCourse = useMutation({
    // Spec 4: 'Continue and Register' resets the existing course, then re-submits.
    mutationFn: async (found: Duplicate & { resetToken: string }) => {
      await callApi(registrationApi.resetCourse, {
        params: { studentId: found.studentId },
        body: { resetToken: found.resetToken },
      });
      return callApi(registrationApi.register, { body: found.registration });
    },
  });

  const goToPay = (studentId: number, registration: Registration) =>
    navigate('/pay', { state: { studentId, courtId: Number(registration.court) } });

  async function submit(registration: Registration) {
    setError(null);
    try {
      const { studentId } = await registerStudent.mutateAsync(registration);
      await goToPay(studentId, registration);
    } catch (caught) {
      const found = detailsOf(caught, 'DUPLICATE_ACCOUNT');
      if (found) {
        setReplaceError(null);
        setDuplicate({
          studentId: found.studentId,
          resetToken: found.resetToken,
          inUse: found.in_use,
          paid: found.paid === true,
          registration,
        });
      } else if (caught instanceof ApiError && caught.status === 429) {
        setError(t('register.tooMany'));
      } else if (caught instanceof ApiError && caught.status === 400) {
        setError(t('register.invalid'));
      } else {
        setError(unexpectedErrorText(caught, t));
      }
    }
  }

  async function continueAndRegister() {
    if (!duplicate) return;
    const { resetToken, inUse } = duplicate;
    if (!resetToken) {
      setReplaceError(inUse ? t(`register.inUse.${inUse}`) : t('register.duplicateNotYours'));
      return;
    }
    try {
      const { studentId } = await replaceCourse.mutateAsync({ ...duplicate, resetToken });
      setDuplicate(null);
      await goToPay(studentId, duplicate.registration);
    } catch (caught) {
      // The reset changed nothing when another enrolment holds a detail (decision 026): say which.
      const held = detailsOf(caught, 'DUPLICATE_ACCOUNT')?.in_use;
      setReplaceError(held ? t(`register.inUse.${held}`) : t('register.replaceFailed'));
    }
  }

  return (
    <div>
      <PageHeading className="text-2xl font-bold text-slate-900">{t('register.title')}</PageHeading>
      <p className="mt-2 text-slate-700">{t('register.intro')}</p>
      <form
        noValidate
        onSubmit={(event) => void form.handleSubmit(submit, () => setError(registrationProblemText(form, t)))(event)}
        className="mt-6 grid gap-4 rounded-lg bg-white p-6 shadow sm:grid-cols-2"
      >
        <RegistrationFields form={form} courts={courts.data} courtPrompt={t('register.selectCourt')} forDriver />
        <RegistrationFormEnd
          courtsFailed={courts.isError}
          error={error}
          submitting={form.formState.isSubmitting}
          submitLabel={t('register.submit')}
        />
      </form>
      <p className="mt-6 text-center text-slate-700">
        {t('register.haveAccount')}{' '}
        <Link to="/login" className="font-semibold text-blue-800 underline">
          {t('register.loginLink')}
        </Link>
      </p>

      <Dialog
        open={duplicate !== null}
        title={t('register.duplicateTitle')}
        onClose={() => setDuplicate(null)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setDuplicate(null)}>
              {t('common.cancel')}
            </Button>
            {/* Over a paid course, signing in (the notice's link) is the step to take, not this one. */}
            <Button
              variant={duplicate?.paid ? 'secondary' : 'primary'}
              onClick={() => void continueAndRegister()}
              disabled={replaceCourse.isPending}
            >
              {replaceCourse.isPending ? t('common.loading') : t('register.continueAndRegister')}
            </Button>
          </>
        }
      >
        <p>{t('register.duplicateBody')}</p>
        <p>{t('register.duplicateReplace')}</p>
        {duplicate?.paid && (
          <Alert tone="info">
            {t('register.duplicatePaid')}{' '}
            <Link to="/login" className="font-semibold underline">
              {t('register.duplicatePaidLogin')}
            </Link>
          </Alert>
        )}
        {replaceError && <Alert>{replaceError}</Alert>}
      </Dialog>
    </div>
  );
}

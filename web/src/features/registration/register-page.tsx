import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { registrationApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { ApiError, callApi, detailsOf } from '../../lib/api.ts';
import { useCourts } from '../../lib/queries.ts';
import {
  EMPTY_REGISTRATION,
  findRegistrationProblem,
  RegistrationFields,
  RegistrationFormEnd,
  type RegistrationFormValues,
  toRegistration,
} from './registration-form.tsx';
import { PageHeading } from '../../components/page-heading.tsx';

interface Duplicate {
  studentId: number;
  resetToken: string | undefined;
}

/** Spec 2, 4, 5 and 8: /register with its loading, validation and duplicate-account states. */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const courts = useCourts();
  const { register, control, handleSubmit, getValues } = useForm<RegistrationFormValues>({
    defaultValues: EMPTY_REGISTRATION,
  });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [duplicate, setDuplicate] = useState<Duplicate | null>(null);
  const [replaceError, setReplaceError] = useState<string | null>(null);

  async function submit(values: RegistrationFormValues) {
    setError(null);
    // Spec 5: a missing field gives 'Please fill out all fields.' and nothing is sent.
    const problem = findRegistrationProblem(values, t);
    if (problem) {
      setError(problem);
      return;
    }
    setSubmitting(true);
    try {
      const { studentId } = await callApi(registrationApi.register, { body: toRegistration(values) });
      await navigate('/pay', { state: { studentId, courtId: Number(getValues('court')) } });
    } catch (caught) {
      setSubmitting(false);
      const duplicate = detailsOf(caught, 'DUPLICATE_ACCOUNT');
      if (duplicate) {
        setReplaceError(null);
        setDuplicate({ studentId: duplicate.studentId, resetToken: duplicate.resetToken });
      } else if (caught instanceof ApiError && caught.status === 429) {
        setError(t('register.tooMany'));
      } else if (caught instanceof ApiError && caught.status === 400) {
        setError(t('register.invalid'));
      } else {
        setError(t('errors.unexpected'));
      }
    }
  }

  /** Spec 4: 'Continue and Register' resets the existing course, then re-submits. */
  async function continueAndRegister() {
    if (!duplicate) return;
    if (!duplicate.resetToken) {
      setReplaceError(t('register.duplicateNotYours'));
      return;
    }
    setSubmitting(true);
    try {
      await callApi(registrationApi.resetCourse, {
        params: { studentId: duplicate.studentId },
        body: { resetToken: duplicate.resetToken },
      });
      const { studentId } = await callApi(registrationApi.register, { body: toRegistration(getValues()) });
      setDuplicate(null);
      await navigate('/pay', { state: { studentId, courtId: Number(getValues('court')) } });
    } catch {
      setSubmitting(false);
      setReplaceError(t('register.replaceFailed'));
    }
  }

  return (
    <div>
      <PageHeading className="text-2xl font-bold text-slate-900">{t('register.title')}</PageHeading>
      <p className="mt-2 text-slate-700">{t('register.intro')}</p>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(submit)(event)}
        className="mt-6 grid gap-4 rounded-lg bg-white p-6 shadow sm:grid-cols-2"
      >
        <RegistrationFields
          register={register}
          control={control}
          courts={courts.data}
          courtPrompt={t('register.selectCourt')}
          forDriver
        />
        <RegistrationFormEnd
          courtsFailed={courts.isError}
          error={error}
          submitting={submitting}
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
            <Button onClick={() => void continueAndRegister()} disabled={submitting}>
              {submitting ? t('common.loading') : t('register.continueAndRegister')}
            </Button>
          </>
        }
      >
        <p>{t('register.duplicateBody')}</p>
        <p>{t('register.duplicateReplace')}</p>
        {replaceError && <Alert>{replaceError}</Alert>}
      </Dialog>
    </div>
  );
}

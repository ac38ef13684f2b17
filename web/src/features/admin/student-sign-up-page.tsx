import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { registrationApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { callApi } from '../../lib/api.ts';
import { useCourts } from '../../lib/queries.ts';
import {
  EMPTY_REGISTRATION,
  findRegistrationProblem,
  RegistrationFields,
  RegistrationFormEnd,
  type RegistrationFormValues,
  toRegistration,
} from '../registration/registration-form.tsx';
import { PageHeading } from '../../components/page-heading.tsx';

/**
 * Spec 2, 5 and 7 /admin/student-sign-up: an admin enrols a student by hand (`backdoor: true`).
 * The server enrols them paid and records who enrolled them (decision 011). The court defaults
 * to the first in the list; any failure shows the one message of spec 8.
 */
export function StudentSignUpPage() {
  const { t } = useTranslation();
  const courts = useCourts();
  const firstCourt = courts.data?.[0] ? String(courts.data[0].id) : '';
  const { register, control, handleSubmit, reset, getValues, setValue } = useForm<RegistrationFormValues>({
    defaultValues: EMPTY_REGISTRATION,
  });
  const [error, setError] = useState<string | null>(null);
  const [enrolledId, setEnrolledId] = useState<number | null>(null);
  const [submitting, setSubmitting] = useState(false);

  // Spec 5: in manual enrolment the court defaults to the first in the list.
  useEffect(() => {
    if (firstCourt !== '' && getValues('court') === '') setValue('court', firstCourt);
  }, [firstCourt, getValues, setValue]);

  async function submit(values: RegistrationFormValues) {
    setError(null);
    setEnrolledId(null);
    // Spec 5: a missing field gives 'Please fill out all fields.' and nothing is sent.
    const problem = findRegistrationProblem(values, t);
    if (problem) {
      setError(problem);
      return;
    }
    setSubmitting(true);
    try {
      const { studentId } = await callApi(registrationApi.register, {
        body: { ...toRegistration(values), backdoor: true },
      });
      setEnrolledId(studentId);
      reset({ ...EMPTY_REGISTRATION, court: firstCourt });
    } catch {
      // Spec 8: any failure of a manual enrolment shows this one message.
      setError(t('signUp.failed'));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="space-y-6">
      <div>
        <PageHeading className="text-2xl font-bold">{t('admin.pages.studentSignUp')}</PageHeading>
        <p className="mt-2 text-slate-700">{t('signUp.intro')}</p>
      </div>
      {enrolledId !== null && (
        <Alert tone="success">
          {t('signUp.enrolled')}{' '}
          <Link to={`/admin/students/${String(enrolledId)}`} className="font-semibold text-blue-800 underline">
            {t('signUp.viewStudent')}
          </Link>
        </Alert>
      )}
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(submit)(event)}
        className="grid gap-4 rounded-lg bg-white p-6 shadow sm:grid-cols-2"
      >
        <RegistrationFields register={register} control={control} courts={courts.data} />
        <RegistrationFormEnd
          courtsFailed={courts.isError}
          error={error}
          submitting={submitting}
          submitLabel={t('signUp.submit')}
        />
      </form>
    </div>
  );
}

import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  EMPTY_MANUAL_PAYMENT,
  ManualPaymentFields,
  type ManualPaymentInput,
  toManualPayment,
} from './manual-payment-fields.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { type ManualPayment, type Registration, registrationApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { callApi } from '../../lib/api.ts';
import { useCourts } from '../../lib/queries.ts';
import {
  EMPTY_REGISTRATION,
  RegistrationFields,
  RegistrationFormEnd,
  registrationProblemText,
  useRegistrationForm,
} from '../registration/registration-form.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { adminQueries } from './admin-queries.ts';

/**
 * Spec 2, 5 and 7 /admin/student-sign-up: an admin enrols a student by hand (`backdoor: true`).
 * The server enrols them paid and records who enrolled them (decision 011). The court defaults
 * to the first in the list; any failure shows the one message of spec 8.
 */
export function StudentSignUpPage() {
  const { t } = useTranslation();
  const courts = useCourts();
  const firstCourt = courts.data?.[0] ? String(courts.data[0].id) : '';
  const form = useRegistrationForm();
  const { reset, getValues, setValue } = form;
  const [error, setError] = useState<string | null>(null);
  const [enrolledId, setEnrolledId] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const [payment, setPayment] = useState<ManualPaymentInput>(EMPTY_MANUAL_PAYMENT);
  const [paymentInvalid, setPaymentInvalid] = useState(false);
  const enrol = useMutation({
    mutationFn: ({ registration, manualPayment }: { registration: Registration; manualPayment: ManualPayment }) =>
      callApi(registrationApi.register, {
        body: { ...registration, backdoor: true, manual_payment: manualPayment },
      }),
    // The new student is in the students list from now on.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueries.allStudentLists() }),
  });

  // Spec 5: in manual enrolment the court defaults to the first in the list.
  useEffect(() => {
    if (firstCourt !== '' && getValues('court') === '') setValue('court', firstCourt);
  }, [firstCourt, getValues, setValue]);

  async function submit(registration: Registration) {
    setError(null);
    setEnrolledId(null);
    const manualPayment = toManualPayment(payment);
    setPaymentInvalid(manualPayment === null);
    if (!manualPayment) return;
    try {
      const { studentId } = await enrol.mutateAsync({ registration, manualPayment });
      setEnrolledId(studentId);
      reset({ ...EMPTY_REGISTRATION, court: firstCourt });
    } catch {
      // Spec 8: any failure of a manual enrolment shows this one message.
      setError(t('signUp.failed'));
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
        onSubmit={(event) =>
          void form.handleSubmit(submit, () => {
            setEnrolledId(null);
            setError(registrationProblemText(form, t));
          })(event)
        }
        className="grid gap-4 rounded-lg bg-white p-6 shadow sm:grid-cols-2"
      >
        <RegistrationFields form={form} courts={courts.data} />
        {/* Decision 026: the payment taken by hand, so the dashboard's revenue counts it. */}
        <ManualPaymentFields value={payment} onChange={setPayment} invalid={paymentInvalid} />
        <RegistrationFormEnd
          courtsFailed={courts.isError}
          error={error}
          submitting={form.formState.isSubmitting}
          submitLabel={t('signUp.submit')}
        />
      </form>
    </div>
  );
}

import { useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import {
  type AdminStudent,
  type AdminStudentRow,
  type Endpoint,
  adminStudentsApi,
  certificatesApi,
  correctionsApi,
  identityChecksApi,
  paymentsApi,
  rulesApi,
  staffMayCall,
} from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { useStoredUser } from '../../lib/session.ts';
import { adminQueries } from './admin-queries.ts';
import { StudentCorrectionsSection } from './corrections-page.tsx';
import { staffPolicyRole } from './staff-role.ts';
import { StudentAttemptsSection } from './student-attempts-section.tsx';
import { GenerateCertificateForm, StudentCertificatesSection } from './student-certificates-section.tsx';
import { StudentContactSection } from './student-contact-section.tsx';
import { StudentExceptionsSection } from './student-exceptions-section.tsx';
import { StudentIdentitySection } from './student-identity-section.tsx';
import { StudentPaymentsSection } from './student-payments-section.tsx';
import { StudentRefundsSection } from './student-refunds-section.tsx';
import { StudentPersonalQuestionsSection } from './student-personal-questions-section.tsx';
import { StudentRecord } from './student-record.tsx';
import { StudentSeatTimeSection } from './student-seat-time-section.tsx';

/**
 * Spec 2: the page reloads after an action (mark paid, resend, generate, unlock...). `act` runs
 * one and reloads the detail, and says whether it succeeded; its failure is said on the page.
 */
function useStudentAction(reload: () => Promise<unknown>) {
  const { t } = useTranslation();
  const [actionError, setActionError] = useState<string | null>(null);
  const action = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => reload(),
  });

  async function act(run: () => Promise<unknown>, failureText: string): Promise<boolean> {
    setActionError(null);
    try {
      await action.mutateAsync(run);
      return true;
    } catch (error) {
      // A refusal the staff member can act on (a date not understood) says why; anything else the action's own words.
      setActionError(error instanceof ApiError && error.status === 400 ? errorText(error, t) : failureText);
      return false;
    }
  }

  return { act, busy: action.isPending, actionError };
}

/** The student's name, whether the course is complete, and whether the enrolment is archived. */
function StudentHeading({ student }: { student: AdminStudent }) {
  const { t } = useTranslation();
  const complete = student.completed_at !== null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <PageHeading className="text-2xl font-bold text-slate-900">
        {`${student.first_name} ${student.last_name}`}
      </PageHeading>
      <span
        className={`rounded-full px-3 py-1 text-sm font-semibold ${complete ? 'bg-green-100 text-green-900' : 'bg-amber-100 text-amber-900'}`}
      >
        {complete ? t('adminStudent.complete') : t('adminStudent.inProgress')}
      </span>
      {student.archived_at && (
        <span className="rounded-full bg-slate-200 px-3 py-1 text-sm font-semibold text-slate-800">
          {t('adminStudent.archived')}
        </span>
      )}
    </div>
  );
}

/** Spec 2 /admin/students/{studentId}: the student's record, and a super_admin's two actions. */
export function StudentDetailPage() {
  const { t } = useTranslation();
  const { studentId = '' } = useParams();
  const id = Number(studentId);
  const user = useStoredUser();
  // The list passes the row it was opened from (spec 2), so the name shows while the detail loads.
  const passed = (useLocation().state as { student?: AdminStudentRow } | null)?.student;
  // A new certificate with a chosen date is a super_admin's: the issue call is the student's too,
  // so the certificates service holds its staff rule (decision 011), not a role list on the endpoint.
  const isSuperAdmin = user?.type === 'super_admin';
  // The roles each action's endpoint names in the contract, which its server route lets in: the
  // page offers no action the server would refuse.
  const role = staffPolicyRole(user);
  const may = (endpoint: Endpoint) => staffMayCall(endpoint, role);
  const detail = useQuery(adminQueries.student(id));
  const { act, busy, actionError } = useStudentAction(detail.refetch);

  if (detail.isLoading) {
    return (
      <div className="space-y-6">
        {passed?.id === id && (
          <PageHeading className="text-2xl font-bold text-slate-900">
            {`${passed.first_name} ${passed.last_name}`}
          </PageHeading>
        )}
        <p>{t('common.loading')}</p>
      </div>
    );
  }
  if (!detail.data) return <Alert>{t('adminStudent.loadError')}</Alert>;
  const student = detail.data;

  return (
    <div className="space-y-6">
      <StudentHeading student={student} />
      {actionError && <Alert>{actionError}</Alert>}
      <StudentRecord
        student={student}
        canMarkPaid={may(paymentsApi.markPaidManually)}
        busy={busy}
        onMarkPaid={(payment) =>
          act(
            () => callApi(paymentsApi.markPaidManually, { params: { studentId: id }, body: payment }),
            t('adminStudent.markPaidError'),
          )
        }
      />

      {/* An archived enrolment is kept as it was: the server refuses to readdress it. */}
      {may(adminStudentsApi.updateContact) && !student.archived_at && (
        <StudentContactSection key={`${student.email} ${student.address}`} student={student} />
      )}

      {isSuperAdmin && (
        <GenerateCertificateForm
          complete={student.completed_at !== null}
          busy={busy}
          onGenerate={(completionDate) =>
            act(
              () =>
                callApi(certificatesApi.issue, { query: { noEmail: '1' }, body: { studentId: id, completionDate } }),
              t('errors.unexpected'),
            )
          }
        />
      )}

      <StudentCertificatesSection
        certificates={student.certificates}
        canResend={may(certificatesApi.resendDelivery)}
        busy={busy}
        onResend={(deliveryId) =>
          void act(
            () => callApi(certificatesApi.resendDelivery, { params: { id: deliveryId } }),
            t('errors.unexpected'),
          )
        }
      />

      {may(correctionsApi.list) && <StudentCorrectionsSection studentId={id} />}

      <StudentAttemptsSection attempts={student.attempts} />

      <StudentSeatTimeSection seatTime={student.seat_time} />

      <StudentExceptionsSection
        exceptions={student.exceptions}
        canGrant={may(rulesApi.grantException) && !student.archived_at}
        busy={busy}
        onGrant={(grant) =>
          act(() => callApi(rulesApi.grantException, { params: { id }, body: grant }), t('errors.unexpected'))
        }
      />

      <StudentIdentitySection
        identity={student.identity}
        canUnlock={may(identityChecksApi.unlock)}
        busy={busy}
        onUnlock={() =>
          void act(() => callApi(identityChecksApi.unlock, { params: { id } }), t('identity.admin.unlockError'))
        }
      />

      <StudentPersonalQuestionsSection
        personal={student.identity?.personal}
        canReset={may(identityChecksApi.resetPersonalQuestions) && !student.archived_at}
        busy={busy}
        onReset={(reason) =>
          act(
            () => callApi(identityChecksApi.resetPersonalQuestions, { params: { id }, body: { reason } }),
            t('personalQuestions.admin.failed'),
          )
        }
      />

      <StudentPaymentsSection payments={student.payments} />
      <StudentRefundsSection student={student} canRefund={may(paymentsApi.refund)} />
    </div>
  );
}

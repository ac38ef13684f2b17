import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { type StudentLogin, StudentLoginSchema, authApi } from '@ts/contract';
import { callApi } from '../../lib/api.ts';
import { storeUser } from '../../lib/stored-user.ts';
import { LoginForm } from './login-form.tsx';
import { studentStart } from '../../app/paths.ts';

/** Spec 2 /login: last name and driver's license number. */
export function StudentLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  async function signIn(body: StudentLogin) {
    const { user } = await callApi(authApi.loginStudent, { body });
    storeUser(user);
    // Spec 4: unpaid -> /pay with the studentId; paid -> /; completed -> /certificate.
    const start = studentStart(user);
    await navigate(start.to, { state: start.state });
  }

  return (
    <LoginForm
      title={t('login.studentTitle')}
      intro={t('login.studentIntro')}
      schema={StudentLoginSchema}
      fields={[
        { name: 'last_name', label: t('fields.last_name'), autoComplete: 'family-name' },
        { name: 'dl_number', label: t('fields.dl_number'), autoComplete: 'off' },
      ]}
      onSubmit={signIn}
      invalidHint={t('login.studentInvalidHint')}
      footer={
        <div className="space-y-2">
          <p>
            {t('login.noAccount')}{' '}
            <Link to="/register" className="font-semibold text-blue-800 underline">
              {t('login.registerLink')}
            </Link>
          </p>
          <p>
            <Link to="/admin-login" className="text-blue-800 underline">
              {t('login.adminLink')}
            </Link>
          </p>
        </div>
      }
    />
  );
}

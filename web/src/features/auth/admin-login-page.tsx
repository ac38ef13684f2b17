import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { type AdminLogin, AdminLoginSchema, authApi } from '@ts/contract';
import { callApi } from '../../lib/api.ts';
import { storeUser } from '../../lib/stored-user.ts';
import { LoginForm } from './login-form.tsx';

/** Spec 2 /admin-login: username or email, and password. */
export function AdminLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  async function signIn(body: AdminLogin) {
    const { user } = await callApi(authApi.loginAdmin, { body });
    storeUser(user);
    await navigate('/admin');
  }

  return (
    <LoginForm
      title={t('login.adminTitle')}
      intro={t('login.adminIntro')}
      schema={AdminLoginSchema}
      fields={[
        { name: 'username', label: t('fields.username'), autoComplete: 'username' },
        { name: 'password', label: t('fields.password'), type: 'password', autoComplete: 'current-password' },
      ]}
      onSubmit={signIn}
      footer={
        <Link to="/login" className="text-blue-800 underline">
          {t('login.studentLink')}
        </Link>
      }
    />
  );
}

import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { authApi } from '@ts/contract';
import { TextField } from '../../components/field.tsx';
import { callApi } from '../../lib/api.ts';
import { storeUser } from '../../lib/stored-user.ts';
import { LoginForm } from './login-form.tsx';

/** Spec 2 /admin-login: username or email, and password. */
export function AdminLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  async function signIn(form: FormData) {
    const { user } = await callApi(authApi.loginAdmin, {
      body: { username: String(form.get('username')), password: String(form.get('password')) },
    });
    storeUser(user);
    await navigate('/admin');
  }

  return (
    <LoginForm
      title={t('login.adminTitle')}
      intro={t('login.adminIntro')}
      onSubmit={signIn}
      footer={
        <Link to="/login" className="text-blue-800 underline">
          {t('login.studentLink')}
        </Link>
      }
    >
      <TextField label={t('fields.username')} name="username" autoComplete="username" required />
      <TextField
        label={t('fields.password')}
        name="password"
        type="password"
        autoComplete="current-password"
        required
      />
    </LoginForm>
  );
}

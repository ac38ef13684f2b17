import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  findMissingRegistrationFields,
  parseDateOfBirth,
  type Registration,
  registerStudent,
  resetCourse,
  US_STATES,
} from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { useCourts } from '../../lib/queries.ts';
import { applyDobMask } from './dob-mask.ts';

type FormValues = Omit<Registration, 'court' | 'state' | 'backdoor'> & { court: string; state: string };

const EMPTY: FormValues = {
  first_name: '',
  last_name: '',
  email: '',
  dl_number: '',
  dob: '',
  address: '',
  city: '',
  state: '',
  zip: '',
  court: '',
};

interface Duplicate {
  studentId: number;
  resetToken: string | undefined;
}

/** Spec 2, 4, 5 and 8: /register with its loading, validation and duplicate-account states. */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const courts = useCourts();
  const { register, control, handleSubmit, getValues } = useForm<FormValues>({ defaultValues: EMPTY });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [duplicate, setDuplicate] = useState<Duplicate | null>(null);
  const [replaceError, setReplaceError] = useState<string | null>(null);

  const toPayload = (values: FormValues): Registration => ({ ...values, court: Number(values.court) }) as Registration;

  async function submit(values: FormValues) {
    setError(null);
    // Spec 5: a missing field gives 'Please fill out all fields.' and nothing is sent.
    if (findMissingRegistrationFields(values).length > 0) {
      setError(t('register.missing'));
      return;
    }
    if (parseDateOfBirth(values.dob) === null) {
      setError(t('register.badDob'));
      return;
    }
    if (!/^\d{5}(-\d{4})?$/.test(values.zip.trim())) {
      setError(t('register.badZip'));
      return;
    }
    setSubmitting(true);
    try {
      const { studentId } = await callApi(registerStudent, { body: toPayload(values) });
      await navigate('/pay', { state: { studentId } });
    } catch (caught) {
      setSubmitting(false);
      if (caught instanceof ApiError && caught.code === 'DUPLICATE_ACCOUNT') {
        setReplaceError(null);
        setDuplicate({
          studentId: Number(caught.details.studentId),
          resetToken: typeof caught.details.resetToken === 'string' ? caught.details.resetToken : undefined,
        });
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
      await callApi(resetCourse, {
        params: { studentId: duplicate.studentId },
        body: { resetToken: duplicate.resetToken },
      });
      const { studentId } = await callApi(registerStudent, { body: toPayload(getValues()) });
      setDuplicate(null);
      await navigate('/pay', { state: { studentId } });
    } catch {
      setSubmitting(false);
      setReplaceError(t('register.replaceFailed'));
    }
  }

  return (
    <div>
      <h1 className="text-2xl font-bold text-slate-900">{t('register.title')}</h1>
      <p className="mt-2 text-slate-700">{t('register.intro')}</p>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(submit)(event)}
        className="mt-6 grid gap-4 rounded-lg bg-white p-6 shadow sm:grid-cols-2"
      >
        <TextField label={t('fields.first_name')} autoComplete="given-name" {...register('first_name')} />
        <TextField label={t('fields.last_name')} autoComplete="family-name" {...register('last_name')} />
        <TextField label={t('fields.email')} type="email" autoComplete="email" {...register('email')} />
        <TextField label={t('fields.dl_number')} autoComplete="off" {...register('dl_number')} />
        <Controller
          control={control}
          name="dob"
          render={({ field }) => (
            <TextField
              label={t('fields.dob')}
              hint={t('register.dobHint')}
              inputMode="numeric"
              autoComplete="bday"
              placeholder="MM/DD/YYYY"
              maxLength={10}
              name={field.name}
              value={field.value}
              onBlur={field.onBlur}
              onChange={(event) => field.onChange(applyDobMask(event.target.value))}
              ref={field.ref}
            />
          )}
        />
        <TextField label={t('fields.address')} autoComplete="street-address" {...register('address')} />
        <TextField label={t('fields.city')} autoComplete="address-level2" {...register('city')} />
        <SelectField label={t('fields.state')} autoComplete="address-level1" {...register('state')}>
          <option value="">{t('register.selectState')}</option>
          {US_STATES.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </SelectField>
        <TextField label={t('fields.zip')} inputMode="numeric" autoComplete="postal-code" {...register('zip')} />
        <SelectField label={t('fields.court')} {...register('court')}>
          <option value="">{t('register.selectCourt')}</option>
          {courts.data?.map((court) => (
            <option key={court.id} value={court.id}>
              {court.name}
            </option>
          ))}
        </SelectField>
        {courts.isError && (
          <div className="sm:col-span-2">
            <Alert>{t('register.courtsError')}</Alert>
          </div>
        )}
        {error && (
          <div className="sm:col-span-2">
            <Alert>{error}</Alert>
          </div>
        )}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={submitting} className="w-full sm:w-auto">
            {submitting ? t('common.loading') : t('register.submit')}
          </Button>
        </div>
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

import { Controller, type Control, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  type Court,
  DOB_PATTERN,
  findMissingRegistrationFields,
  parseDateOfBirth,
  type Registration,
  US_STATES,
} from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { applyDobMask } from './dob-mask.ts';

/**
 * The registration form of spec 5, shared by /register and the admin's manual enrolment
 * (/admin/student-sign-up): the same fields, the same checks before anything is sent.
 */
export type RegistrationFormValues = Omit<Registration, 'court' | 'state' | 'backdoor'> & {
  court: string;
  state: string;
};

export const EMPTY_REGISTRATION: RegistrationFormValues = {
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
  court_due_date: '',
};

/** The form's values as the API takes them; an empty court due date (optional, issue 8) is left out. */
export const toRegistration = ({ court_due_date: courtDueDate, ...values }: RegistrationFormValues): Registration =>
  ({
    ...values,
    court: Number(values.court),
    ...(courtDueDate ? { court_due_date: courtDueDate } : {}),
  }) as Registration;

/** An optional court due date as typed: empty, or a real MM/DD/YYYY date that is today or later. */
export function isAcceptableCourtDueDate(value: string | undefined, today: Date = new Date()): boolean {
  if (!value) return true;
  if (!DOB_PATTERN.test(value)) return false;
  const [mm, dd, yyyy] = value.split('/').map(Number) as [number, number, number];
  const date = new Date(yyyy, mm - 1, dd);
  if (date.getFullYear() !== yyyy || date.getMonth() !== mm - 1 || date.getDate() !== dd) return false;
  return date >= new Date(today.getFullYear(), today.getMonth(), today.getDate());
}

/**
 * Spec 5: a missing field (dob: not all 10 characters of its mask) gives 'Please fill out all
 * fields.' and nothing is sent; an impossible date or zip is caught here too, before sending.
 * Returns the message to show, or null when the form may be sent.
 */
export function findRegistrationProblem(values: RegistrationFormValues, t: TFunction): string | null {
  if (findMissingRegistrationFields(values).length > 0) return t('register.missing');
  if (parseDateOfBirth(values.dob) === null) return t('register.badDob');
  if (!/^\d{5}(-\d{4})?$/.test(values.zip.trim())) return t('register.badZip');
  if (!isAcceptableCourtDueDate(values.court_due_date)) return t('rules.badCourtDueDate');
  return null;
}

/** The form's fields, in the order of REGISTRATION_FIELDS; `courtPrompt` adds a first, empty court choice. */
export function RegistrationFields({
  register,
  control,
  courts,
  courtPrompt,
}: {
  register: UseFormRegister<RegistrationFormValues>;
  control: Control<RegistrationFormValues>;
  courts: Court[] | undefined;
  courtPrompt?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
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
      <TextField label={t('fields.address')} autoComplete="address-line1" {...register('address')} />
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
        {courtPrompt !== undefined && <option value="">{courtPrompt}</option>}
        {courts?.map((court) => (
          <option key={court.id} value={court.id}>
            {court.name}
          </option>
        ))}
      </SelectField>
      {/* Issue 8: optional; the label avoids "Court" and "Date of birth", which other fields' labels hold. */}
      <Controller
        control={control}
        name="court_due_date"
        render={({ field }) => (
          <TextField
            label={t('rules.courtDueDate')}
            hint={t('rules.courtDueDateHint')}
            inputMode="numeric"
            autoComplete="off"
            placeholder="MM/DD/YYYY"
            maxLength={10}
            name={field.name}
            value={field.value ?? ''}
            onBlur={field.onBlur}
            onChange={(event) => field.onChange(applyDobMask(event.target.value))}
            ref={field.ref}
          />
        )}
      />
    </>
  );
}

/** What follows the fields on both forms: the court list's failure, the form's error, and its button. */
export function RegistrationFormEnd({
  courtsFailed,
  error,
  submitting,
  submitLabel,
}: {
  courtsFailed: boolean;
  error: string | null;
  submitting: boolean;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {courtsFailed && (
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
          {submitting ? t('common.loading') : submitLabel}
        </Button>
      </div>
    </>
  );
}

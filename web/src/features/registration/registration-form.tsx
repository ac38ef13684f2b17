import { useEffect, useState } from 'react';
import { Controller, useController, useWatch, type UseFormReturn } from 'react-hook-form';
import { StateOptions } from '../../components/state-options.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import type { TFunction } from '../../lib/i18n.ts';
import { z } from 'zod';
import { type Court, DOB_PATTERN, parseCourtDueDate, REGISTRATION_FIELDS, RegistrationSchema } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { hasBlankField, useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { applyDobMask } from './dob-mask.ts';
import { schoolToday } from '../../lib/dates.ts';
import { RulesSummaryList, useCourtRules } from '../rules/rules-summary.tsx';

/**
 * The registration form of spec 5, shared by /register and the admin's manual enrolment
 * (/admin/student-sign-up): the same fields, the same checks before anything is sent. The checks
 * are the contract's (RegistrationSchema, which the server applies too), with the selects' empty
 * choice as text, and the court due date today or later.
 */
export const RegistrationFormSchema = RegistrationSchema.extend({
  state: z.string().pipe(RegistrationSchema.shape.state),
  // The contract's id check takes any input and reads plain decimal digits as the id; the select gives text.
  court: z.string().pipe(RegistrationSchema.shape.court as z.ZodType<number, string>),
}).refine((values) => isAcceptableCourtDueDate(values.court_due_date), { path: ['court_due_date'] });
export type RegistrationFormValues = z.input<typeof RegistrationFormSchema>;

export const EMPTY_REGISTRATION = {
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
  case_number: '',
} satisfies RegistrationFormValues;

export type RegistrationForm = UseFormReturn<RegistrationFormValues, unknown, z.output<typeof RegistrationFormSchema>>;

export function useRegistrationForm(): RegistrationForm {
  return useSchemaForm(RegistrationFormSchema, EMPTY_REGISTRATION);
}

/**
 * The line under the form when Submit finds problems: spec 5's 'Please fill out all fields.'
 * when one is blank (the dob counts as blank until all 10 characters of its mask are in),
 * otherwise a pointer to the fields marked.
 */
export function registrationProblemText(form: RegistrationForm, t: TFunction): string {
  const blank = hasBlankField(form, REGISTRATION_FIELDS) || !DOB_PATTERN.test(form.getValues('dob'));
  return blank ? t('register.missing') : t('forms.fixFields');
}

/** An optional court due date as typed: empty, or a real MM/DD/YYYY date that is today or later. */
export function isAcceptableCourtDueDate(value: string | undefined, today: string = schoolToday()): boolean {
  // Today on the school's calendar, as the server compares it (not the reader's own clock).
  return !value || parseCourtDueDate(value, today) !== null;
}

/**
 * The form's fields, in the order of REGISTRATION_FIELDS; `courtPrompt` adds a first, empty court
 * choice. `forDriver` (the public form) lists the chosen state's courts and says the chosen
 * court's rules; staff enrolling a student see every court.
 */
export function RegistrationFields({
  form,
  courts,
  courtPrompt,
  forDriver = false,
}: {
  form: RegistrationForm;
  courts: Court[] | undefined;
  courtPrompt?: string;
  forDriver?: boolean;
}) {
  const { t } = useTranslation();
  const { register, control } = form;
  const errorOf = useFieldErrors(form);
  return (
    <>
      <TextField
        label={t('fields.first_name')}
        autoComplete="given-name"
        error={errorOf('first_name')}
        {...register('first_name')}
      />
      <TextField
        label={t('fields.last_name')}
        autoComplete="family-name"
        error={errorOf('last_name')}
        {...register('last_name')}
      />
      <TextField
        label={t('fields.email')}
        type="email"
        autoComplete="email"
        error={errorOf('email', t('register.badEmail'))}
        {...register('email')}
      />
      <TextField
        label={t('fields.dl_number')}
        autoComplete="off"
        error={errorOf('dl_number', t('register.badDlNumber'))}
        {...register('dl_number')}
      />
      <Controller
        control={control}
        name="dob"
        render={({ field }) => (
          <TextField
            label={t('fields.dob')}
            hint={t('register.dobHint')}
            error={errorOf('dob', t('register.badDob'))}
            inputMode="numeric"
            autoComplete="bday"
            placeholder={t('register.datePlaceholder')}
            maxLength={10}
            name={field.name}
            value={field.value}
            onBlur={field.onBlur}
            onChange={(event) => field.onChange(applyDobMask(event.target.value))}
            ref={field.ref}
          />
        )}
      />
      <TextField
        label={t('fields.address')}
        autoComplete="address-line1"
        error={errorOf('address')}
        {...register('address')}
      />
      <TextField label={t('fields.city')} autoComplete="address-level2" error={errorOf('city')} {...register('city')} />
      <SelectField
        label={t('fields.state')}
        autoComplete="address-level1"
        error={errorOf('state')}
        {...register('state')}
      >
        <option value="">{t('register.selectState')}</option>
        <StateOptions />
      </SelectField>
      <TextField
        label={t('fields.zip')}
        inputMode="numeric"
        autoComplete="postal-code"
        error={errorOf('zip', t('register.badZip'))}
        {...register('zip')}
      />
      <CourtChoice
        control={control}
        courts={courts}
        courtPrompt={courtPrompt}
        forDriver={forDriver}
        error={errorOf('court')}
      />
      {/* Decision 012: optional; the label avoids "Court" and "Date of birth", which other fields' labels hold. */}
      <Controller
        control={control}
        name="court_due_date"
        render={({ field }) => (
          <TextField
            label={t('rules.courtDueDate')}
            hint={t('rules.courtDueDateHint')}
            error={errorOf('court_due_date', t('rules.badCourtDueDate'))}
            inputMode="numeric"
            autoComplete="off"
            placeholder={t('register.datePlaceholder')}
            maxLength={10}
            name={field.name}
            value={field.value ?? ''}
            onBlur={field.onBlur}
            onChange={(event) => field.onChange(applyDobMask(event.target.value))}
            ref={field.ref}
          />
        )}
      />
      {/* Decision 024: optional; printed on the certificate so the court can match it to the ticket. */}
      <TextField
        label={t('rules.caseNumber')}
        hint={t('rules.caseNumberHint')}
        error={errorOf('case_number', t('rules.badCaseNumber'))}
        autoComplete="off"
        maxLength={40}
        {...register('case_number')}
      />
    </>
  );
}

/**
 * The court select. For a driver (decision 021) it lists the courts of the state chosen above it
 * (every court when none is chosen, the state has none listed, or the driver says their court is
 * elsewhere), and once a court is chosen, what that court requires, before anything is paid.
 */
function CourtChoice({
  control,
  courts,
  courtPrompt,
  forDriver,
  error,
}: {
  control: RegistrationForm['control'];
  courts: Court[] | undefined;
  courtPrompt: string | undefined;
  forDriver: boolean;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const state = useWatch({ control, name: 'state' });
  const {
    field: { value: court, onChange, onBlur, name, ref },
  } = useController({ control, name: 'court' });
  const [anyState, setAnyState] = useState(false);
  const inState = courts?.filter((listed) => listed.state === state) ?? [];
  const filtering = forDriver && !anyState && state !== '' && inState.length > 0;
  const shown = filtering ? inState : courts;
  // A court of another state, chosen before the state changed, is no longer offered: nor kept.
  const stale = court !== '' && shown !== undefined && !shown.some((listed) => String(listed.id) === court);
  useEffect(() => {
    if (stale) onChange('');
  }, [stale, onChange]);
  const rules = useCourtRules(forDriver && court !== '' ? Number(court) : null);
  return (
    <>
      <div>
        <SelectField
          label={t('fields.court')}
          error={error}
          name={name}
          value={court}
          onChange={onChange}
          onBlur={onBlur}
          ref={ref}
        >
          {courtPrompt !== undefined && <option value="">{courtPrompt}</option>}
          {shown?.map((listed) => (
            <option key={listed.id} value={listed.id}>
              {listed.name}
            </option>
          ))}
        </SelectField>
        {forDriver && state !== '' && inState.length > 0 && (
          <label className="mt-2 flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={anyState}
              onChange={(event) => setAnyState(event.target.checked)}
              className="h-4 w-4"
            />
            {t('register.courtElsewhere')}
          </label>
        )}
      </div>
      {rules.data && (
        <div className="sm:col-span-2">
          <RulesSummaryList rules={rules.data} heading={t('rulesSummary.courtHeading')} id="chosen-court-rules" />
        </div>
      )}
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

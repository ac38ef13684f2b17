import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { z } from 'zod';
import {
  type Court,
  type StaffAccount,
  StaffAccountInputSchema,
  type StaffOf,
  StaffOfSchema,
  StaffUsernameSchema,
} from '@ts/contract';
import { SelectField, TextField } from '../../components/field.tsx';
import { useTranslation } from '../../lib/i18n.ts';

type Role = StaffAccount['role'];

/** Decision 063: the school's staff may be any role; a court's own staff are its admins and clerks. */
const ROLES_OF: Record<StaffOf, Role[]> = { school: ['super_admin', 'admin', 'clerk'], court: ['admin', 'clerk'] };

/**
 * What both staff forms hold: the contract's account checks, whom the account is for (nothing
 * chosen at first: decision 063), and the court as the select gives it, which a court's staff
 * account must name.
 */
const AccountFieldsSchema = z.object({
  name: StaffAccountInputSchema.shape.name,
  email: StaffAccountInputSchema.shape.email,
  role: StaffAccountInputSchema.shape.role,
  staff_of: z.string().pipe(StaffOfSchema),
  court_id: z.string(),
});

/** Decision 063: a court's staff account names its court (the server refuses it otherwise too). */
function courtNamedForCourtStaff(values: { staff_of: StaffOf; court_id: string }, ctx: z.RefinementCtx) {
  if (values.staff_of === 'court' && values.court_id === '') {
    ctx.addIssue({ code: 'custom', path: ['court_id'], message: 'COURT_REQUIRED' });
  }
}
export const NewAccountSchema = AccountFieldsSchema.extend({ username: StaffUsernameSchema }).superRefine(
  courtNamedForCourtStaff,
);
export const EditAccountSchema = AccountFieldsSchema.extend({ disabled: z.boolean() }).superRefine(
  courtNamedForCourtStaff,
);

/** What the API takes: the court of a court's staff account, none for the school's. */
export function scopeOf(values: { role: Role; staff_of: StaffOf; court_id: string }) {
  const courtStaff = values.staff_of === 'court' && values.role !== 'super_admin';
  return { staff_of: values.staff_of, court_id: courtStaff && values.court_id !== '' ? Number(values.court_id) : null };
}

/** The form's starting choice for an existing account: a court's if it has one. */
export function staffOfAccount(account: StaffAccount): StaffOf {
  return account.court_id === null ? 'school' : 'court';
}

/** A role the chosen scope cannot have falls back to clerk, the least an account can see. */
export function roleFor(staffOf: string, role: Role): Role {
  return staffOf === 'court' && !ROLES_OF.court.includes(role) ? 'clerk' : role;
}

/**
 * What the account will see, in a sentence built from the choices (decision 063), or nothing
 * until whom it is for is chosen. A court's staff see only their court; the school's every court.
 */
export function useScopeSentence({
  staffOf,
  role,
  courtId,
  courts,
}: {
  staffOf: string;
  role: Role;
  courtId: string;
  courts: Court[];
}): string {
  const { t } = useTranslation();
  if (staffOf === 'school') return t(`users.sees.school.${role}`);
  if (staffOf !== 'court') return '';
  const court = courts.find((listed) => String(listed.id) === courtId);
  const courtRole = roleFor(staffOf, role) as Exclude<Role, 'super_admin'>;
  return court ? t(`users.sees.court.${courtRole}`, { court: court.name }) : t('users.sees.courtMissing');
}

/** The sentence, in a polite live region that stays in place so each change is read out. */
export function ScopeSentence({ text, className = '' }: { text: string; className?: string }) {
  return (
    <p aria-live="polite" className={`text-sm font-semibold text-slate-900 ${className}`}>
      {text}
    </p>
  );
}

/**
 * The fields both staff forms share: name, email, whom the account is for (a labelled radio group
 * with nothing chosen, so the super_admin decides), then the roles that scope allows and, for a
 * court's staff, their court, with no "All courts" (decisions 011 and 063).
 */
export function AccountFields({
  staffOf,
  role,
  fields,
  errors,
  courts,
}: {
  staffOf: string;
  role: Role;
  fields: Record<'name' | 'email' | 'role' | 'staffOf' | 'court', UseFormRegisterReturn>;
  errors: { name: string | undefined; email: string | undefined; staffOf: boolean; court: boolean };
  courts: Court[];
}) {
  const { t } = useTranslation();
  const groupId = useId();
  const staffOfErrorId = `${groupId}-error`;
  return (
    <>
      <TextField label={t('users.name')} autoComplete="off" error={errors.name} {...fields.name} />
      <TextField label={t('users.email')} type="email" autoComplete="off" error={errors.email} {...fields.email} />
      <fieldset className="sm:col-span-2" aria-describedby={errors.staffOf ? staffOfErrorId : undefined}>
        <legend className="block text-sm font-medium text-slate-800">{t('users.staffOf')}</legend>
        <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:gap-6">
          {StaffOfSchema.options.map((value) => (
            <label key={value} className="flex cursor-pointer items-start gap-2 text-slate-900">
              <input type="radio" value={value} className="mt-1 h-4 w-4 shrink-0" {...fields.staffOf} />
              <span>{t(`users.staffOfChoices.${value}`)}</span>
            </label>
          ))}
        </div>
        {errors.staffOf && (
          <p id={staffOfErrorId} className="mt-1 text-sm font-semibold text-red-800">
            {t('users.staffOfRequired')}
          </p>
        )}
      </fieldset>
      {(staffOf === 'school' || staffOf === 'court') && (
        <SelectField label={t('users.role')} {...fields.role}>
          {ROLES_OF[staffOf].map((value) => (
            <option key={value} value={value}>
              {t(`users.roles.${value}`)}
            </option>
          ))}
        </SelectField>
      )}
      {staffOf === 'court' && role !== 'super_admin' && (
        <SelectField
          label={t('users.court')}
          error={errors.court ? t('users.courtRequired') : undefined}
          {...fields.court}
        >
          <option value="">{t('users.selectCourt')}</option>
          {courts.map((court) => (
            <option key={court.id} value={court.id}>
              {court.name}
            </option>
          ))}
        </SelectField>
      )}
    </>
  );
}

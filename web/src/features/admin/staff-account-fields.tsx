import type { UseFormRegisterReturn } from 'react-hook-form';
import { z } from 'zod';
import { type Court, type StaffAccount, StaffAccountInputSchema, StaffUsernameSchema } from '@ts/contract';
import { SelectField, TextField } from '../../components/field.tsx';
import { useTranslation } from '../../lib/i18n.ts';

type Role = StaffAccount['role'];

const ROLES: Role[] = ['super_admin', 'admin', 'clerk'];

/**
 * What both staff forms hold: the contract's account checks, with the court as the select gives
 * it ('' for all courts), which a super_admin never has (decision 011).
 */
const AccountFieldsSchema = z.object({
  name: StaffAccountInputSchema.shape.name,
  email: StaffAccountInputSchema.shape.email,
  role: StaffAccountInputSchema.shape.role,
  court_id: z.string(),
});
export const NewAccountSchema = AccountFieldsSchema.extend({ username: StaffUsernameSchema });
export const EditAccountSchema = AccountFieldsSchema.extend({ disabled: z.boolean() });

/** The court an account is limited to: none for a super_admin or "All courts". */
export function courtIdOf(values: { role: Role; court_id: string }): number | null {
  return mayBeCourtLimited(values.role) && values.court_id !== '' ? Number(values.court_id) : null;
}

/**
 * The fields both staff forms share: name, email, role, and the court select for an admin or a
 * clerk: a court's own clerk or admin sees only that court's students, "All courts" makes a full
 * one; a super_admin is never limited (decision 011).
 */
export function AccountFields({
  role,
  fields,
  errors,
  courts,
}: {
  role: Role;
  fields: Record<'name' | 'email' | 'role' | 'court', UseFormRegisterReturn>;
  errors: { name: string | undefined; email: string | undefined };
  courts: Court[];
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField label={t('users.name')} autoComplete="off" error={errors.name} {...fields.name} />
      <TextField label={t('users.email')} type="email" autoComplete="off" error={errors.email} {...fields.email} />
      <SelectField label={t('users.role')} {...fields.role}>
        {ROLES.map((value) => (
          <option key={value} value={value}>
            {t(`users.roles.${value}`)}
          </option>
        ))}
      </SelectField>
      {mayBeCourtLimited(role) && (
        <SelectField label={t('users.court')} {...fields.court}>
          <option value="">{role === 'admin' ? t('users.allCourts') : t('users.allCourtsShort')}</option>
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

function mayBeCourtLimited(role: Role): boolean {
  return role !== 'super_admin';
}

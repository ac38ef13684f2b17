import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './field.tsx';

/** One password field as a form binds it: its label, its message, and register()'s props. */
export type PasswordBinding = UseFormRegisterReturn & { label: string; error?: string | undefined };

/**
 * A new password and its confirmation (decision 021): both typed blind, the length rule as the new
 * one's hint, each with its own message. Used wherever a password is chosen.
 */
export function PasswordPair({
  newPassword,
  confirmation,
  hint,
}: {
  newPassword: PasswordBinding;
  confirmation: PasswordBinding;
  hint: string;
}) {
  return (
    <>
      <TextField type="password" autoComplete="new-password" hint={hint} {...newPassword} />
      <TextField type="password" autoComplete="new-password" {...confirmation} />
    </>
  );
}

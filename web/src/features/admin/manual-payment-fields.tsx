import { MANUAL_PAYMENT_METHODS, type ManualPayment } from '@ts/contract';
import { SelectField, TextField } from '../../components/field.tsx';
import { useTranslation } from '../../lib/i18n.ts';

/** What staff type for a payment taken by hand: how, and the dollars (blank: the course price). */
export interface ManualPaymentInput {
  method: (typeof MANUAL_PAYMENT_METHODS)[number];
  dollars: string;
}

export const EMPTY_MANUAL_PAYMENT: ManualPaymentInput = { method: 'phone', dollars: '' };

/** Dollars as typed ("29.95", "30") to cents; blank is the default price; anything else is invalid (null). */
export function toManualPayment(input: ManualPaymentInput): ManualPayment | null {
  if (input.method === 'waived') return { manual_method: 'waived' };
  const dollars = input.dollars.trim().replace(/^\$/, '');
  if (dollars === '') return { manual_method: input.method };
  if (!/^\d{1,5}(\.\d{1,2})?$/.test(dollars)) return null;
  return { manual_method: input.method, amount_cents: Math.round(Number(dollars) * 100) };
}

/**
 * Decision 026: how a payment taken by hand was made and what it brought, so revenue counts it (a
 * waived course as zero, and says so).
 */
export function ManualPaymentFields({
  value,
  onChange,
  invalid,
}: {
  value: ManualPaymentInput;
  onChange: (next: ManualPaymentInput) => void;
  invalid: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <SelectField
        label={t('manualPayment.method')}
        value={value.method}
        onChange={(event) =>
          onChange({
            ...value,
            method: MANUAL_PAYMENT_METHODS.find((method) => method === event.target.value) ?? value.method,
          })
        }
      >
        {MANUAL_PAYMENT_METHODS.map((method) => (
          <option key={method} value={method}>
            {t(`manualPayment.methods.${method}`)}
          </option>
        ))}
      </SelectField>
      {value.method !== 'waived' && (
        <TextField
          label={t('manualPayment.amount')}
          hint={t('manualPayment.amountHint')}
          inputMode="decimal"
          value={value.dollars}
          error={invalid ? t('manualPayment.badAmount') : undefined}
          onChange={(event) => onChange({ ...value, dollars: event.target.value })}
        />
      )}
    </>
  );
}

// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { toManualPayment } from './manual-payment-fields.tsx';

/** Decision 026: what staff type for a payment taken by hand, as the API receives it. */
describe('a manual payment as typed', () => {
  it('sends dollars as cents, a blank amount as none (the court price), and a waived course as zero', () => {
    expect(toManualPayment({ method: 'cheque', dollars: '29.95' })).toEqual({
      manual_method: 'cheque',
      amount_cents: 2995,
    });
    expect(toManualPayment({ method: 'voucher', dollars: '$30' })).toEqual({
      manual_method: 'voucher',
      amount_cents: 3000,
    });
    expect(toManualPayment({ method: 'phone', dollars: ' ' })).toEqual({ manual_method: 'phone' });
    expect(toManualPayment({ method: 'waived', dollars: '29.95' })).toEqual({ manual_method: 'waived' });
  });

  it('refuses an amount that is not dollars and cents', () => {
    for (const dollars of ['29,95', 'free', '-5', '1.999', '1e3']) {
      expect(toManualPayment({ method: 'phone', dollars }), dollars).toBeNull();
    }
  });
});

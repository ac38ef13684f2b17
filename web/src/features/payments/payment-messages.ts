/** Spec 8: a card_error or validation_error shows the provider's message; anything else a generic one. */
export function describePaymentError(
  error: { type?: string | undefined; message?: string | undefined },
  unexpected: string,
): string {
  if ((error.type === 'card_error' || error.type === 'validation_error') && error.message) return error.message;
  return unexpected;
}

/** Spec 4: what the payment page says for each status the provider reports on return. */
export function returnStatusMessageKey(status: string): string {
  switch (status) {
    case 'succeeded':
      return 'pay.status.succeeded';
    case 'processing':
      return 'pay.status.processing';
    case 'requires_payment_method':
      return 'pay.status.requiresPaymentMethod';
    default:
      return 'pay.status.other';
  }
}

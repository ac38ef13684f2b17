/** Spec 2 and 9: amounts are cents, shown divided by 100 with two decimals. */
export function formatAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

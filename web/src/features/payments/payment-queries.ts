import { queryOptions } from '@tanstack/react-query';
import { paymentsApi } from '@ts/contract';
import { callApi } from '../../lib/api.ts';

/** The payment page's queries, each key written once. */
export const paymentQueries = {
  /** What the student's court charges for the course (spec 4 /pay). */
  amount: (studentId: number) =>
    queryOptions({
      queryKey: ['payment-amount', studentId],
      queryFn: () => callApi(paymentsApi.amount, { params: { studentId } }),
      retry: false,
    }),
};

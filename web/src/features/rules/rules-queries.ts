import { queryOptions } from '@tanstack/react-query';
import { rulesApi } from '@ts/contract';
import { callApi } from '../../lib/api.ts';

/** The course rules' queries (decision 012), keyed by language: a profile's name comes translated. */
export const rulesQueries = {
  /** The signed-in student's rules (GET /api/students/:id/rules), or a student's for staff. */
  student: (studentId: number, language: string) =>
    queryOptions({
      queryKey: ['student-rules', studentId, language],
      queryFn: () => callApi(rulesApi.studentRules, { params: { id: studentId } }),
      retry: false,
    }),
  /** A court's rules (GET /api/public/courts/:id/rules), for a driver choosing a court. */
  court: (courtId: number, language: string) =>
    queryOptions({
      queryKey: ['court-rules', courtId, language],
      queryFn: () => callApi(rulesApi.courtRules, { params: { id: courtId } }),
      staleTime: 5 * 60_000,
    }),
};

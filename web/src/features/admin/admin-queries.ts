import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  ADMIN_STUDENT_DEFAULT_ORDER,
  type AdminStudentSort,
  type Correction,
  type UsStateCode,
  adminStudentsApi,
  auditApi,
  certificatesApi,
  contentApi,
  correctionsApi,
  courtApi,
  dashboardApi,
  questionsApi,
  staffApi,
  stateFilingsApi,
} from '@ts/contract';
import { callApi } from '../../lib/api.ts';

/** The students list as the address sets it (spec 2 /admin/students). */
export interface StudentListQuery {
  searchTerm: string;
  courtId: number | undefined;
  page: number;
  sort: AdminStudentSort;
  order: 'asc' | 'desc';
}

/** The court completions' filters, as the address sets them (decision 025). */
export type CourtCompletionFilters = { from?: string; to?: string; search?: string; courtId?: number };

/** The admin area's queries, each key written once; the `all…` keys cover every variant of one. */
export const adminQueries = {
  /** One student's record (spec 2 /admin/students/{studentId}). */
  student: (id: number) =>
    queryOptions({
      queryKey: ['admin-student', id],
      queryFn: () => callApi(adminStudentsApi.get, { params: { id } }),
      retry: false,
    }),
  /** Every page of the students list, whatever its search: a new student belongs in each. */
  allStudentLists: () => ['admin-students'] as const,
  students: ({ searchTerm, courtId, page, sort, order }: StudentListQuery) =>
    queryOptions({
      queryKey: [...adminQueries.allStudentLists(), searchTerm, courtId ?? null, page, sort, order],
      queryFn: () =>
        callApi(adminStudentsApi.list, {
          query: {
            ...(searchTerm ? { searchTerm } : {}),
            page,
            courtId,
            // Spec 2's call as it is for the default order; the sort only when another is chosen.
            ...(sort === ADMIN_STUDENT_DEFAULT_ORDER.sort && order === ADMIN_STUDENT_DEFAULT_ORDER.order
              ? {}
              : { sort, order }),
          },
        }),
      placeholderData: keepPreviousData,
    }),
  /** Spec 3's figures and the per-court report on the dashboard. */
  stats: () => queryOptions({ queryKey: ['admin-stats'], queryFn: () => callApi(dashboardApi.stats), retry: false }),
  report: () => queryOptions({ queryKey: ['admin-report'], queryFn: () => callApi(dashboardApi.report), retry: false }),
  /** Every question of the banks (the Modify Questions list). */
  questions: () => queryOptions({ queryKey: ['admin-questions'], queryFn: () => callApi(contentApi.questions) }),
  question: (id: number) =>
    queryOptions({
      queryKey: ['admin-question', id],
      queryFn: () => callApi(questionsApi.get, { params: { id } }),
      enabled: Number.isInteger(id) && id > 0,
      retry: false,
    }),
  /** Every list of correction requests (by status, or one student's): a decision changes them all. */
  allCorrections: () => ['admin-corrections'] as const,
  correctionsByStatus: (status: Correction['status']) =>
    queryOptions({
      queryKey: [...adminQueries.allCorrections(), { status }],
      queryFn: () => callApi(correctionsApi.list, { query: { status } }),
    }),
  correctionsOfStudent: (studentId: number) =>
    queryOptions({
      queryKey: [...adminQueries.allCorrections(), { studentId }],
      queryFn: () => callApi(correctionsApi.list, { query: { studentId } }),
    }),
  /** Every page of the court completions, whatever the filters: an acknowledgement changes them. */
  allCourtCompletions: () => ['court-completions'] as const,
  courtCompletions: (filters: CourtCompletionFilters, page: number) =>
    queryOptions({
      queryKey: [...adminQueries.allCourtCompletions(), filters, page],
      queryFn: () => callApi(courtApi.completions, { query: { ...filters, page } }),
      placeholderData: keepPreviousData,
      retry: false,
    }),
  /** Certificates of every enrolment, archived ones too, by licence number or email (spec 2 /admin/archive). */
  archive: (search: string) =>
    queryOptions({
      queryKey: ['archive', search],
      queryFn: () => callApi(certificatesApi.searchArchive, { params: { id: search } }),
      enabled: search !== '',
    }),
  /** Every state's filing overview: an export or a recorded outcome changes them (decision 024). */
  allStateFilings: () => ['state-filings'] as const,
  stateFilings: (state: UsStateCode | undefined) =>
    queryOptions({
      queryKey: [...adminQueries.allStateFilings(), state ?? null],
      queryFn: () => callApi(stateFilingsApi.overview, { query: state ? { state } : {} }),
      retry: false,
    }),
  auditLog: (page: number) =>
    queryOptions({
      queryKey: ['audit-log', page],
      queryFn: () => callApi(auditApi.list, { query: { page } }),
      placeholderData: keepPreviousData,
      retry: false,
    }),
  staffAccounts: () => queryOptions({ queryKey: ['staff-accounts'], queryFn: () => callApi(staffApi.list) }),
};

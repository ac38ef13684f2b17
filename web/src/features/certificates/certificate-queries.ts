import { queryOptions } from '@tanstack/react-query';
import { certificatesApi, correctionsApi } from '@ts/contract';
import { callApi } from '../../lib/api.ts';

/** The certificates' queries, each key written once. */
export const certificateQueries = {
  /**
   * The student's certificates, newest first. The sidebar asks while the final is not complete (a
   * certificate a super_admin issued without it shows Certificates too) and the Certificates page
   * shares the answer; the page asks again when it opens, so a certificate just issued shows.
   */
  list: (studentId: number) =>
    queryOptions({
      queryKey: ['certificates', studentId],
      queryFn: () => callApi(certificatesApi.list, { params: { studentId } }),
    }),
  /** The student's latest certificate, for the final exam page's download link. */
  latest: (studentId: number) =>
    queryOptions({
      queryKey: ['latest-certificate', studentId],
      queryFn: () => callApi(certificatesApi.latest, { params: { id: studentId } }),
      retry: false,
    }),
  /** The student's own correction requests, newest first. */
  corrections: (studentId: number) =>
    queryOptions({
      queryKey: ['corrections', studentId],
      queryFn: () => callApi(correctionsApi.own, { params: { id: studentId } }),
    }),
  /** Public verification of a certificate number (the QR code's page). */
  verify: (number: string) =>
    queryOptions({
      queryKey: ['verify', number],
      queryFn: () => callApi(certificatesApi.verify, { params: { number } }),
      retry: false,
    }),
};

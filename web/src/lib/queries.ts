import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi, courtsApi, healthApi } from '@ts/contract';
import { callApi, isSchoolReconnecting, retryDelayAfter } from './api.ts';
import { setSchoolTimeZone } from './dates.ts';
import { embeddedPublicConfig } from './public-config.ts';

/** How many times a read is asked again while the school is reconnecting (503), Retry-After apart. */
export const READ_RETRIES_WHILE_RECONNECTING = 8;

/**
 * react-query's `retry` for every read (main.tsx): while the school is reconnecting (503
 * SERVICE_UNAVAILABLE, decision 061) a read is asked again several times, the page waiting
 * meanwhile under the reconnecting banner; any other failure once. react-query counts the failures
 * before this one.
 */
export function retryRead(failures: number, error: unknown): boolean {
  return failures < (isSchoolReconnecting(error) ? READ_RETRIES_WHILE_RECONNECTING : 1);
}

/** react-query's `retryDelay` for every read: the answer's Retry-After within reason (lib/api.ts). */
export const retryReadDelay = (failures: number, error: unknown): number => retryDelayAfter(failures + 1, error);

/**
 * The queries of no one feature (the signed-in user, the school's configuration, the courts), each
 * key written once here; every feature's own queries are in its `*-queries.ts`.
 */
export const sharedQueries = {
  /** The signed-in user as the server sees them: the guards' check, asked again after progress. */
  me: () =>
    queryOptions({
      queryKey: ['me'],
      queryFn: () => callApi(authApi.me),
      // A 401 is final; only a school reconnecting is asked again (decision 061).
      retry: (failures, error) => isSchoolReconnecting(error) && retryRead(failures, error),
    }),
  /**
   * School name, support address, price and time zone, from the server's configuration: already
   * in the page as served (lib/public-config.ts), asked for only where it is not.
   */
  publicConfig: () =>
    queryOptions({
      queryKey: ['public-config'],
      queryFn: async () => {
        const config = await callApi(healthApi.publicConfig);
        setSchoolTimeZone(config.schoolTimeZone);
        return config;
      },
      initialData: embeddedPublicConfig,
      staleTime: Infinity,
    }),
  courts: () =>
    queryOptions({
      queryKey: ['courts'],
      queryFn: () => callApi(courtsApi.list, { query: {} }),
      staleTime: 5 * 60_000,
    }),
};

export function usePublicConfig() {
  return useQuery(sharedQueries.publicConfig());
}

export function useCourts() {
  return useQuery(sharedQueries.courts());
}

/** The school's name from SCHOOL_NAME; a proper name, so it is not translated. */
export function useSchoolName(): string {
  const config = usePublicConfig();
  return config.data?.schoolName ?? '';
}

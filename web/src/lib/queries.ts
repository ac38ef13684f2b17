import { useQuery } from '@tanstack/react-query';
import { courtsApi, healthApi } from '@ts/contract';
import { callApi } from './api.ts';
import { setSchoolTimeZone } from './dates.ts';
import { embeddedPublicConfig } from './public-config.ts';

/**
 * School name, support address, price and time zone, from the server's configuration: already
 * in the page as served (lib/public-config.ts), asked for only where it is not.
 */
export function usePublicConfig() {
  return useQuery({
    queryKey: ['public-config'],
    queryFn: async () => {
      const config = await callApi(healthApi.publicConfig);
      setSchoolTimeZone(config.schoolTimeZone);
      return config;
    },
    initialData: embeddedPublicConfig,
    staleTime: Infinity,
  });
}

export function useCourts() {
  return useQuery({
    queryKey: ['courts'],
    queryFn: () => callApi(courtsApi.list, { query: {} }),
    staleTime: 5 * 60_000,
  });
}

/** The school's name from SCHOOL_NAME; a proper name, so it is not translated. */
export function useSchoolName(): string {
  const config = usePublicConfig();
  return config.data?.schoolName ?? '';
}

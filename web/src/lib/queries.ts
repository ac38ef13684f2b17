import { useQuery } from '@tanstack/react-query';
import { courtsApi, healthApi } from '@ts/contract';
import { callApi } from './api.ts';

/** School name and support address, from the server's configuration. */
export function usePublicConfig() {
  return useQuery({ queryKey: ['public-config'], queryFn: () => callApi(healthApi.publicConfig), staleTime: Infinity });
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

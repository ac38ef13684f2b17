import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { IdParam } from './primitives.ts';

export const CourtSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  county_id: z.number().int(),
  /** The court's state (its county's), to list a state's courts (decision 021). */
  state: z.string(),
});
export type Court = z.infer<typeof CourtSchema>;

const listCourts = defineEndpoint({
  method: 'GET',
  path: '/api/public/courts',
  query: z.object({ countyId: IdParam.optional() }),
  response: z.array(CourtSchema),
});

/** The calls of the server's courts feature. */
export const courtsApi = {
  list: listCourts,
} as const;

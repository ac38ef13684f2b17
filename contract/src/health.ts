import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { PaymentProviderInfoSchema } from './payments.ts';

const getHealth = defineEndpoint({
  method: 'GET',
  path: '/api/health',
  response: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
});

/** Public settings the web app needs before anyone signs in. */
const getPublicConfig = defineEndpoint({
  method: 'GET',
  path: '/api/public/config',
  response: z.object({
    schoolName: z.string(),
    supportEmail: z.string(),
    coursePriceCents: z.number().int(),
    payments: PaymentProviderInfoSchema,
    /** Where the course videos are served from (VIDEO_BASE_URL). */
    videoBaseUrl: z.string(),
    /** SCHOOL_TIME_ZONE: every date the app shows is a day on the school's calendar. */
    schoolTimeZone: z.string(),
  }),
});

export type PublicConfig = z.output<typeof getPublicConfig.response>;

/** The calls of the server's health feature. */
export const healthApi = {
  health: getHealth,
  publicConfig: getPublicConfig,
} as const;

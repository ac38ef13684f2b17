import type { PublicConfig } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';

/**
 * The settings the web app needs before anyone signs in: served at /api/public/config and
 * written into the app page itself, so the first page knows the school's name and time zone
 * without waiting for a call (decision 021).
 */
export function describePublicConfig({ config, payments }: Pick<AppDeps, 'config' | 'payments'>): PublicConfig {
  return {
    schoolName: config.schoolName,
    supportEmail: config.supportEmail,
    coursePriceCents: config.coursePriceCents,
    payments: { provider: payments.name, publishableKey: payments.publishableKey },
    videoBaseUrl: config.videoBaseUrl,
    schoolTimeZone: config.schoolTimeZone,
  };
}

import type { Certificate } from '@ts/contract';

/**
 * The certificate in force (the newest not replaced by a correction, decision 025) and the others,
 * newest first: the student looks for the one to hand in, not for a history.
 */
export function splitCertificates(list: Certificate[]): { current: Certificate | undefined; past: Certificate[] } {
  const newestFirst = [...list].sort((a, b) => b.generated_at.localeCompare(a.generated_at) || b.id - a.id);
  const current = newestFirst.find((certificate) => certificate.superseded_at === null);
  return { current, past: newestFirst.filter((certificate) => certificate !== current) };
}

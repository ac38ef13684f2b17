import { healthApi, type PublicConfig } from '@ts/contract';

/**
 * The public configuration the server wrote into the page (a JSON block in index.html, decision 021),
 * so the first page knows the school's name and time zone without waiting for a call. Absent
 * under the Vite dev server and in unit tests: then it is fetched (lib/queries.ts).
 */
function readEmbeddedPublicConfig(): PublicConfig | undefined {
  const text = typeof document === 'undefined' ? null : document.getElementById('public-config')?.textContent;
  if (!text) return undefined;
  try {
    const parsed = healthApi.publicConfig.response.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const embeddedPublicConfig = readEmbeddedPublicConfig();

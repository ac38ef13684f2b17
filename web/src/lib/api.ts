import type { Endpoint, EndpointInput, EndpointOutput } from '@ts/contract';
import i18n from './i18n.ts';

/** An error answer of the API: `{ error: { code, message, ... } }` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

type Input<E extends Endpoint> = {
  [K in keyof EndpointInput<E> as EndpointInput<E>[K] extends undefined ? never : K]: EndpointInput<E>[K];
};

function buildUrl(path: string, params: unknown, query: unknown): string {
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent(String((params as Record<string, unknown>)[name])),
  );
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

/** Calls one contract endpoint; the contract's schemas type both the input and the answer. */
export async function callApi<E extends Endpoint>(endpoint: E, input?: Input<E>): Promise<EndpointOutput<E>> {
  const { params, query, body } = (input ?? {}) as { params?: unknown; query?: unknown; body?: unknown };
  const response = await fetch(buildUrl(endpoint.path, params, query), {
    method: endpoint.method,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      // Course texts come back in the language the student chose.
      'accept-language': i18n.language,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 204) return null as EndpointOutput<E>;
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'UNKNOWN',
      error?.message ?? response.statusText,
      (error ?? {}) as Record<string, unknown>,
    );
  }
  return endpoint.response.parse(json) as EndpointOutput<E>;
}

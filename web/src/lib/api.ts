import {
  type Endpoint,
  type EndpointInput,
  type EndpointOutput,
  type ErrorCode,
  type ErrorDetails,
  parseErrorBody,
  progressApi,
  seatTimeApi,
} from '@ts/contract';
import i18n from './i18n.ts';

/**
 * A failure the server answered: its status, and its code and details as the contract defines
 * them (parsed with the code's own details schema; UNKNOWN for a code or details this build cannot
 * read). `fromApi` is false when the body is not the API's envelope at all (a proxy's 502 page
 * while the server restarts, a body cut off by a reload): then the server itself said nothing.
 * Pages show `message` to nobody: they translate the code (lib/error-text.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'UNKNOWN',
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly fromApi = true,
  ) {
    super(message);
  }
  /** The answer's Retry-After, in seconds, when it said when to try again (a 429, a 503). */
  retryAfterSeconds: number | undefined = undefined;
  /** The server's id of the request (its x-request-id), which support finds its log lines by (decision 060). */
  requestId: string | undefined = undefined;
}

/** The details of an API error with this code, typed by the contract; undefined for any other error. */
export function detailsOf<C extends ErrorCode>(error: unknown, code: C): ErrorDetails<C> | undefined {
  // callApi parsed them with this code's own schema (parseErrorBody).
  return error instanceof ApiError && error.code === code ? (error.details as ErrorDetails<C>) : undefined;
}

/** No answer at all: the connection failed, or the browser aborted the call (a reload, leaving the page). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The call got no answer.', { cause });
  }
}

/**
 * The API itself said nothing: the call got no answer (aborted by a reload or by leaving the
 * page, a dropped connection), or the answer was not the API's (a proxy's error page).
 */
export function gotNoAnswerFromApi(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && !error.fromApi);
}

/** The API answered that the caller has no session (any more): the guards send them to sign in. */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.fromApi && error.status === 401;
}

/**
 * Spec 8's "the stored user is removed" after a failed call, in one place: only when the API
 * answered that there is no session (401) or that it failed (5xx). A call without the API's
 * answer says nothing about the session, so the student stays signed in and sees the page's
 * usual error instead (a reload mid-call used to land on /login).
 */
export function shouldSignOutAfter(error: unknown): boolean {
  return (
    isSessionEnded(error) ||
    (error instanceof ApiError && error.fromApi && error.status >= 500 && !isSchoolReconnecting(error))
  );
}

/**
 * The server could not reach its database (a restart, a failover) and says to try again shortly:
 * the student's work is saved and their session stands (decision 061).
 */
export function isSchoolReconnecting(error: unknown): boolean {
  return error instanceof ApiError && error.fromApi && error.code === 'SERVICE_UNAVAILABLE';
}

/**
 * Whether the school is reconnecting now: set by an answer of SERVICE_UNAVAILABLE, cleared by
 * any answer the server could give again (below 500). The banner (components/reconnecting-banner.tsx)
 * reads it through `subscribe`, as React's useSyncExternalStore wants.
 */
export const reconnecting = (() => {
  let now = false;
  const listeners = new Set<() => void>();
  return {
    get: () => now,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(value: boolean): void {
      if (value === now) return;
      now = value;
      for (const listener of listeners) listener();
    },
  };
})();

/**
 * How long to wait before asking again after a failure: the answer's Retry-After within reason (at
 * least a second, at most ten), otherwise one, two, four... seconds, at most ten.
 */
export function retryDelayAfter(failures: number, error: unknown): number {
  const retryAfter = error instanceof ApiError ? error.retryAfterSeconds : undefined;
  const wanted = retryAfter === undefined ? 1000 * 2 ** Math.max(0, failures - 1) : retryAfter * 1000;
  return Math.min(10_000, Math.max(1000, wanted));
}

/**
 * The writes the server makes idempotent, so the client repeats them by itself when the school is
 * reconnecting (decision 061): a heartbeat (the server counts the time between heartbeats itself),
 * a module marked complete, a chapter's completion (a repeat of what its quiz pass recorded). Every
 * read is repeated by react-query (lib/queries.ts); any other write (a quiz's score, a payment, a
 * registration) is left to the person, with the page's error.
 */
const REPEATED_WRITES: ReadonlySet<Endpoint> = new Set<Endpoint>([
  seatTimeApi.heartbeat,
  progressApi.completeModule,
  progressApi.completeChapter,
]);
/** How many times a repeated write is sent again while the school is reconnecting. */
export const WRITE_REPEATS = 4;

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

/**
 * Calls one contract endpoint; the contract's schemas type both the input and the answer. A write
 * the server makes idempotent is sent again while the school is reconnecting (REPEATED_WRITES).
 */
export async function callApi<E extends Endpoint>(endpoint: E, input?: Input<E>): Promise<EndpointOutput<E>> {
  for (let failures = 1; ; failures += 1) {
    try {
      return await callApiOnce(endpoint, input);
    } catch (error) {
      if (!(REPEATED_WRITES.has(endpoint) && isSchoolReconnecting(error) && failures <= WRITE_REPEATS)) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelayAfter(failures, error)));
    }
  }
}

async function callApiOnce<E extends Endpoint>(endpoint: E, input?: Input<E>): Promise<EndpointOutput<E>> {
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
  }).catch((error: unknown) => {
    throw new NetworkError(error);
  });
  if (response.status < 500) reconnecting.set(false);
  if (response.status === 204) return null as EndpointOutput<E>;
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    // The API's own envelope, as the contract defines it; anything else is not the API speaking.
    // A code this build does not know (a newer server) is still the API speaking: its status counts.
    const error = parseErrorBody(json);
    const failure = new ApiError(
      response.status,
      error?.code ?? 'UNKNOWN',
      error?.message ?? response.statusText,
      error?.details ?? {},
      error !== undefined,
    );
    failure.requestId = error?.requestId ?? response.headers.get('x-request-id') ?? undefined;
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
    if (Number.isFinite(retryAfter) && retryAfter >= 0) failure.retryAfterSeconds = retryAfter;
    if (isSchoolReconnecting(failure)) reconnecting.set(true);
    throw failure;
  }
  return endpoint.response.parse(json) as EndpointOutput<E>;
}

import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import type { PolicyRole } from './staff-access.ts';

/**
 * One call of the API: the server registers it with these schemas (validation and
 * response serialisation) and the web client calls it with the same types.
 */
export interface Endpoint<
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params?: Params;
  query?: Query;
  body?: Body;
  response: Response;
  /** Status of a successful answer (200 unless stated). */
  status?: number;
  /**
   * The errors this call answers beyond those every call may answer (a bad request, a failed
   * validation, too many requests, a server failure) and those its access policy answers (401,
   * 402, 403: the server adds them). The server refuses in tests to answer an undeclared code,
   * and the OpenAPI document lists them.
   */
  errors?: readonly ErrorCode[];
  /**
   * A staff-only call: the policy roles that may make it (decision 011). The server's route lets
   * in these roles alone, and the admin pages offer the action to these alone, so a page never
   * offers what the server would refuse.
   */
  staffRoles?: readonly PolicyRole[];
}

/**
 * Declares a call. An endpoint that names its staff roles keeps them in its type, so the
 * server's route can read them without a check for their absence.
 */
export function defineEndpoint<
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  Response extends z.ZodType = z.ZodType,
  const StaffRoles extends readonly PolicyRole[] | undefined = undefined,
>(
  endpoint: Endpoint<Params, Query, Body, Response> & { staffRoles?: StaffRoles },
): Endpoint<Params, Query, Body, Response> & { staffRoles: StaffRoles } {
  return endpoint as Endpoint<Params, Query, Body, Response> & { staffRoles: StaffRoles };
}

type Infer<T> = [NonNullable<T>] extends [never]
  ? undefined
  : NonNullable<T> extends z.ZodType
    ? z.input<NonNullable<T>>
    : undefined;

/** What the web client passes for an endpoint (params, query and body as their inputs). */
export type EndpointInput<E extends Endpoint> = {
  params: Infer<E['params']>;
  query: Infer<E['query']>;
  body: Infer<E['body']>;
};

export type EndpointOutput<E extends Endpoint> = z.output<E['response']>;

import type { FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_STATUS, type ErrorCode, type ErrorDetails } from '@ts/contract';
import { isDatabaseUnreachable } from '../db/errors.ts';

/** The details argument an error of this code takes: required for a code that carries details. */
type DetailsArgument<C extends ErrorCode> = [ErrorDetails<C>] extends [Record<string, never>]
  ? [details?: undefined]
  : [details: ErrorDetails<C>];

/**
 * An error a person or a program can act on: becomes `{ error: { code, message, ...details } }`
 * with its code's status. Codes, statuses and details are the contract's (ERROR_STATUS,
 * ERROR_DETAILS), so a new code is added there first and the web app must then translate it.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly statusCode: number;
  readonly details: Record<string, unknown>;
  /** Headers the answer carries (Retry-After on a 429). */
  readonly headers: Record<string, string> = {};
  constructor(
    readonly code: C,
    message: string,
    ...[details]: DetailsArgument<C>
  ) {
    super(message);
    this.statusCode = ERROR_STATUS[code];
    this.details = details ?? {};
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const unauthenticated = (message = 'Please sign in.') => new AppError('UNAUTHENTICATED', message);
export const paymentRequired = (message = 'Please pay for the course to continue.') =>
  new AppError('PAYMENT_REQUIRED', message);
export const forbidden = (message = 'You are not allowed to do that.') => new AppError('FORBIDDEN', message);
export const notFound = (message = 'Not found.') => new AppError('NOT_FOUND', message);
/** 400 naming the fields that are wrong, in the same shape as a schema validation error. */
export const validationFailed = (fields: { field: string; message: string }[]) =>
  new AppError('VALIDATION_FAILED', `${fields[0]?.field ?? 'request'}: ${fields[0]?.message ?? 'is invalid'}`, {
    fields,
  });
/** 429; with `retryAfterSeconds`, a Retry-After header says when to try again. */
export const tooManyRequests = (message: string, retryAfterSeconds?: number) => {
  const error = new AppError('TOO_MANY_REQUESTS', message);
  if (retryAfterSeconds !== undefined) error.headers['retry-after'] = String(retryAfterSeconds);
  return error;
};

interface DatabaseErrorFields {
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
}

/**
 * What of an unexpected error may be logged. A database error's message and its "params" can
 * hold what a student typed (licence number, birth date), so only its SQLSTATE code and the
 * names of the constraint, table and column are kept (ARCHITECTURE.md: no personal data in logs).
 */
export function describeErrorForLog(error: unknown): Record<string, unknown> {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const database = [error, cause].find(
    (candidate): candidate is DatabaseErrorFields =>
      typeof candidate === 'object' &&
      candidate !== null &&
      typeof (candidate as { code?: unknown }).code === 'string' &&
      'routine' in candidate,
  );
  const name = error instanceof Error ? error.name : typeof error;
  // Only the frames: a database error's message (first lines of the stack) holds its parameters.
  const stack =
    error instanceof Error
      ? (error.stack ?? '')
          .split('\n')
          .filter((line) => /^\s+at /.test(line))
          .slice(0, 8)
          .join('\n')
      : undefined;
  if (database || name === 'DrizzleQueryError') {
    return {
      type: name,
      sqlState: database?.code,
      constraint: database?.constraint,
      table: database?.table,
      column: database?.column,
      stack,
    };
  }
  return { type: name, message: error instanceof Error ? error.message : String(error), stack };
}

/**
 * A call the database could not answer (db/errors.ts, isDatabaseUnreachable) is told to try again
 * shortly: a restart or a failover is over in a few seconds, and the web asks again after
 * Retry-After (decision 061).
 */
const DATABASE_RETRY_AFTER_SECONDS = 3;
const DATABASE_UNREACHABLE_MESSAGE =
  'The school is reconnecting to its database. Your work is saved: please try again in a few seconds.';

/**
 * Turns every error into the API's envelope. With `refuseUndeclaredErrors` (the test suite), an
 * AppError whose code the route's contract does not declare becomes a 500 naming it, so every
 * test that reaches an error also checks the contract's list of errors (decision 018).
 */
export function registerErrorHandler(app: FastifyInstance, options: { refuseUndeclaredErrors?: boolean } = {}): void {
  app.setErrorHandler((error, request, reply) => {
    // Every error body names its request (decision 060): the id its log lines carry, for support.
    const { id: requestId } = request;
    const declared = request.routeOptions.config.errors;
    if (error instanceof AppError && options.refuseUndeclaredErrors && declared && !declared.includes(error.code)) {
      const message = `${request.method} ${request.routeOptions.url ?? ''} answered ${error.code}, which its contract does not declare.`;
      request.log.error({ code: error.code }, message);
      return reply.status(500).send({ error: { code: 'INTERNAL', message, requestId } });
    }
    if (error instanceof AppError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ error: { code: error.code, message: error.message, ...error.details, requestId } });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((issue) => ({
        field: issue.instancePath.replace(/^\//, ''),
        message: issue.message,
      }));
      return reply.status(400).send({
        error: { code: 'VALIDATION_FAILED', message: fields[0]?.message ?? 'Invalid request.', fields, requestId },
      });
    }
    if (typeof error === 'object' && error !== null && isResponseSerializationError(error)) {
      request.log.error(
        { error: describeErrorForLog(error), route: request.routeOptions.url },
        'response did not match its schema',
      );
      return reply.status(500).send({ error: { code: 'INTERNAL', message: 'Something went wrong.', requestId } });
    }
    const status =
      typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : 500;
    if (status === 429) {
      return reply.status(429).send({
        error: { code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Please wait and try again.', requestId },
      });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type).
      const message = error instanceof Error ? error.message : 'Bad request.';
      return reply.status(status).send({ error: { code: 'BAD_REQUEST', message, requestId } });
    }
    if (isDatabaseUnreachable(error)) {
      request.log.warn({ error: describeErrorForLog(error) }, 'database unreachable');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ error: { code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNREACHABLE_MESSAGE, requestId } });
    }
    // Never leak a stack or SQL to the client; the log has the detail.
    request.log.error({ error: describeErrorForLog(error) }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'INTERNAL', message: 'Something went wrong.', requestId } });
  });
}

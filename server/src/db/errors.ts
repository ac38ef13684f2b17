const UNIQUE_VIOLATION = '23505';

function codeOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'code' in value ? value.code : undefined;
}

/**
 * True when a write broke a unique index (PostgreSQL error 23505). Drizzle wraps the driver's
 * error, so the code is on the error itself or on its cause, depending on the driver.
 */
export function isUniqueViolation(error: unknown): boolean {
  const cause = typeof error === 'object' && error !== null && 'cause' in error ? error.cause : undefined;
  return codeOf(error) === UNIQUE_VIOLATION || codeOf(cause) === UNIQUE_VIOLATION;
}

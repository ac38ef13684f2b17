export * from './endpoint.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './courts.ts';
export * from './registration.ts';
export * from './states.ts';
export * from './health.ts';
export * from './payments.ts';

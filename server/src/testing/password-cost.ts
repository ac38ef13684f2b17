import { useTestPasswordCost } from '../platform/passwords.ts';

// A vitest setup file: tests hash passwords at argon2's smallest cost, production never does
// (platform/passwords.ts; passwords.test.ts checks the production cost and that only this file
// switches it).
useTestPasswordCost();

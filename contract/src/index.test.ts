import { describe, expect, it } from 'vitest';
import * as contract from './index.ts';

const isEndpoint = (value: unknown) =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;

describe('the contract exports its calls grouped per server feature (decision 002)', () => {
  it('exports no endpoint outside a feature group', () => {
    const loose = Object.entries(contract).filter(([, value]) => isEndpoint(value));
    expect(loose.map(([name]) => name)).toEqual([]);
  });

  it('lists every exported group in API_GROUPS, so ALL_ENDPOINTS walks every call', () => {
    const groups = Object.entries(contract).filter(
      ([name, value]) => name.endsWith('Api') && typeof value === 'object' && value !== null,
    );
    expect(groups.map(([name]) => name).sort()).toEqual(Object.keys(contract.API_GROUPS).sort());
    for (const [, group] of groups) {
      for (const endpoint of Object.values(group as object)) expect(contract.ALL_ENDPOINTS).toContain(endpoint);
    }
  });

  it('gives each call one method and path', () => {
    const keys = contract.ALL_ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThanOrEqual(56);
  });
});

import { describe, expect, it } from 'vitest';
import { explain } from '../test-support/classify.js';
import { reasonOfStatus } from './status-rules.js';

describe('reasonOfStatus (docs/policy.md#failover-reasons status split)', () => {
  it.each([
    [500, 'server_error'],
    [502, 'server_error'],
    [520, 'server_error'],
    [408, 'timeout'],
    [504, 'timeout'],
    [524, 'timeout'],
    [522, 'timeout'],
    [503, 'overloaded'],
    [529, 'overloaded'],
    [429, 'rate_limit'],
    [402, 'billing'],
    [401, 'auth'],
    [403, 'auth'],
    [407, 'auth'],
    [404, 'model_not_found'],
    [400, 'format'],
    [422, 'format'],
    [413, 'context_overflow'],
    [599, 'timeout'],
    [507, 'server_error'],
  ] as const)('%i → %s', (status, reason) => {
    expect(reasonOfStatus(status)).toBe(reason);
  });

  it.each([200, 204, 301, 99, 600, 42.5, Number.NaN])('%d is not a failure status', (status) => {
    expect(reasonOfStatus(status)).toBeNull();
  });
});

describe('status output (docs/contracts.md#classify: the input status unchanged, else the one the text states, else null)', () => {
  it('keeps the input status even when the text states another', () => {
    const result = explain({ status: 404, body: '500: AzureException NotFoundError - Error code: 404 - DeploymentNotFound' });
    expect(result.status).toBe(404);
    expect(result.statusSource).toBe('input');
  });

  it('keeps a 2xx input status', () => {
    expect(explain({ status: 200, body: 'event: error' }).status).toBe(200);
  });

  it('reads the status a message states when the failure has none', () => {
    const result = explain({ message: 'HTTP 402: payment required' });
    expect(result.status).toBe(402);
    expect(result.statusSource).toBe('text');
  });

  it('is null when nothing states a status', () => {
    const result = explain({ message: 'socket hang up' });
    expect(result.status).toBeNull();
    expect(result.statusSource).toBeNull();
  });

  it('a stated status decides only after everything else (rule text_status.N)', () => {
    expect(explain({ message: 'status code 503' }).detail).toBe('text_status.503');
  });
});

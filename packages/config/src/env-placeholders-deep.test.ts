/** `${ENV}` expansion of hostile configs (issue 20, defect 8): deep nesting, the source in the error, `__proto__`. */
import { describe, expect, it } from 'vitest';
import { ConfigError, expandEnvPlaceholders } from './index.js';

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? { a: value } : [value];
  return value;
}

describe('expandEnvPlaceholders on hostile input', () => {
  it('expands a value nested 10,000 levels deep without overflowing the stack', () => {
    const expanded = expandEnvPlaceholders(nested(10_000, '${KEY}'), { KEY: 'v' });
    let node: unknown = expanded;
    for (let level = 9_999; level >= 0; level -= 1) node = level % 2 === 0 ? (node as { a: unknown }).a : (node as unknown[])[0];
    expect(node).toBe('v');
  });

  it('names the path of a deep unset variable and the file', () => {
    let caught: unknown;
    try {
      expandEnvPlaceholders({ models: { x: [{ y: '${MISSING_ONE}' }] }, z: '${MISSING_TWO}' }, {}, { source: '/etc/understudy.json5' });
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    const error = caught as ConfigError;
    expect(error.message).toContain('/etc/understudy.json5');
    expect(error.issues.map((issue) => issue.path)).toEqual(['models.x[0].y', 'z']);
  });

  it('keeps a "__proto__" key as a key, so validation can see it', () => {
    const input = JSON.parse('{"entries":{"__proto__":{"model":"${M}"}}}') as unknown;
    const expanded = expandEnvPlaceholders(input, { M: 'a/b' }) as { entries: Record<string, unknown> };
    expect(Object.keys(expanded.entries)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(expanded.entries)).toBe(Object.prototype);
  });
});

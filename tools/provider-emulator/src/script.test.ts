import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmulatorScriptError, parseEmulatorScript } from './script.js';

const demo = readFileSync(path.resolve(import.meta.dirname, '../examples/demo.json5'), 'utf8');

function problem(input: unknown): string {
  try {
    parseEmulatorScript(input);
  } catch (error) {
    if (EmulatorScriptError.isInstance(error)) return error.message;
    throw error;
  }
  return 'no error';
}

describe('parseEmulatorScript', () => {
  it('reads the demo script (JSON5 with comments)', () => {
    const script = parseEmulatorScript(demo);
    expect(script.routes?.map((route) => route.name)).toHaveLength(6);
    expect(script.oauth?.steps?.[0]).toMatchObject({ accessToken: 'fresh-access-token' });
  });

  it('takes fixture rows from provider-errors.jsonl as steps, unchanged', () => {
    // Three real rows: with headers, with a null status, with a 200 status.
    const rows = [
      '{"id": "pe-016", "provider": "openai", "status": 502, "headers": {"content-type": "application/json", "server": "cloudflare"}, "body": "{\\"error\\":{\\"code\\":502,\\"message\\":\\"Bad gateway.\\",\\"param\\":null,\\"type\\":\\"cf_bad_gateway\\"}}", "expect": "server_error", "why": "JSON 502 from Cloudflare"}',
      '{"id": "pe-194", "provider": "lmstudio", "status": null, "body": "Connection error.", "expect": "timeout", "why": "no status, no body"}',
      '{"id": "pe-147", "provider": "openrouter", "status": 200, "body": "Cannot read properties of undefined (reading \'finish_reason\')", "expect": "unclassified", "why": "client crash after 200"}',
    ].map((line) => JSON.parse(line) as unknown);
    const script = parseEmulatorScript({ routes: [{ steps: rows }] });
    expect(script.routes?.[0]?.steps.map((step) => step.status)).toEqual([502, null, 200]);
  });

  it.each([
    [{ routes: [{ steps: [{ delayMS: 10 }] }] }, /routes\.0\.steps\.0: Unrecognized key.*delayMS/],
    [{ routes: [{ steps: [] }] }, /routes\.0\.steps: /],
    [{ routes: [{ match: { api: 'openai' }, steps: [{}] }] }, /routes\.0\.match\.api: /],
    [{ routes: [{ steps: [{ ok: true, status: 500 }] }] }, /routes\.0\.steps\.0\.status: a step is either ok or a status/],
    [{ routes: [{ steps: [{ reset: true, status: 500 }] }] }, /routes\.0\.steps\.0\.reset: a reset step sends no response/],
    [{ routes: [{ steps: [{ cutAfterChunks: -1 }] }] }, /routes\.0\.steps\.0\.cutAfterChunks: /],
    [{ routes: [{ steps: [{ status: 102 }] }] }, /routes\.0\.steps\.0\.status: a status step needs a final status/],
    [{ oauth: { steps: [{ expiresInSeconds: 0 }] } }, /oauth\.steps\.0\.expiresInSeconds: /],
    [{ rutes: [] }, /\(root\): Unrecognized key.*rutes/],
    ['{ routes: [', /not valid JSON5/],
  ])('rejects %j naming the path', (input, message) => {
    expect(problem(input)).toMatch(message);
  });
});

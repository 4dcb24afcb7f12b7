/**
 * End to end against the built gateway process: hostile and broken input never ends the process nor poisons
 * its state (issue 20). Each case was a reproduction against the gateway before its fix; the requests go
 * over a raw TCP socket, so the request target and the framing reach the server exactly as written here.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from './test-support/e2e-fixture.js';
import { ADMIN_TOKEN, KEYS, fixtureConfig, seedProfiles, startFixture } from './test-support/e2e-fixture.js';
import { rawClient } from './test-support/in-process-gateway.js';
import { startGateway } from './test-support/processes.js';

let fixture: Fixture;

beforeAll(async () => {
  // Room for the ~360 KB bodies of the deep-nesting cases.
  fixture = await startFixture({ gateway: { maxRequestBytes: 1_048_576 } });
});

afterAll(async () => {
  await fixture?.stop();
});

function portOf(url: string): number {
  return Number(new URL(url).port);
}

/** Sends `text` as is on a fresh connection and resolves with everything received once the server closed it. */
async function raw(text: string): Promise<{ readonly status: number; readonly headers: string; readonly body: string }> {
  const client = await rawClient(portOf(fixture.gateway.url));
  client.write(text);
  const received = await client.closed;
  const split = received.indexOf('\r\n\r\n');
  const headers = split === -1 ? received : received.slice(0, split);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]), headers: headers.toLowerCase(), body: split === -1 ? '' : received.slice(split + 4) };
}

async function stillServing(): Promise<void> {
  expect(fixture.gateway.child.exitCode).toBeNull();
  const response = await fetch(`${fixture.gateway.url}/healthz`);
  expect(response.status).toBe(200);
}

describe('request targets that are not plain paths', () => {
  it.each(['//', '///', '//[', '//a:99999/', '//%', '//%zz?x=1', '//user:pass@host/v1/models', '/\\\\evil'])(
    'GET %s is answered (404 in the OpenAI error shape) and the process keeps serving',
    async (target) => {
      const { status, body } = await raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(JSON.parse(body)).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
      await stillServing();
    },
  );

  it('answers an unknown hostile path of a POST with 404 and keeps serving', async () => {
    const { status } = await raw('POST //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}');
    expect(status).toBe(404);
    await stillServing();
  });

  it.each(['/v1/models/%@@[~00', '/v1/models/%', '/admin/profiles/%E0%A4%A'])(
    'GET %s (a path segment that is not valid percent-encoding) is a 4xx in the error shape, never a 500',
    async (target) => {
      const { status, body } = await raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(JSON.parse(body)).toMatchObject({ error: { message: expect.any(String) } });
      await stillServing();
    },
  );

  it('reads an absolute-form target by its path', async () => {
    const { status, body } = await raw('GET http://anything.example/v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ object: 'list' });
  });

  it('refuses a target that is neither a path nor an http URL with 400 invalid_request_target', async () => {
    const { status, body } = await raw('GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'invalid_request_target' } });
    const second = await raw('GET mailto:x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(second.status).toBe(400);
    await stillServing();
  });

  it('keeps in-flight requests alive while hostile targets arrive', async () => {
    const ordinary = fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'backup/model-c', messages: [{ role: 'user', content: 'still here' }] }),
    });
    await Promise.all(['//', '///', '//[', '//a:99999/', '//%'].map((target) => raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)));
    const answer = await ordinary;
    expect(answer.status).toBe(200);
    await stillServing();
  });
});

/** Where a test body takes {@link deepJson}: `JSON.stringify` itself cannot write the deep value. */
const DEEP = '__deep__';

/** JSON text nested `depth` levels deep (`{"a":{"a":…1…}}`, 6 bytes a level), written as text. */
function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A schema nested `depth` levels deep, as a value (for depths `JSON.stringify` handles). */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level += 1) value = { type: 'object', properties: { a: value } };
  return value;
}

async function post(path: string, body: unknown): Promise<{ readonly status: number; readonly json: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (path === '/v1/messages') headers['anthropic-version'] = '2023-06-01';
  // A DEEP placeholder is replaced by 60,000 levels of JSON text.
  const text = JSON.stringify(body).replace(`"${DEEP}"`, () => deepJson(60_000));
  const response = await fetch(`${fixture.gateway.url}${path}`, { method: 'POST', headers, body: text });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Every stored profile of agent main, with its usage stats. */
async function profiles(): Promise<{ id: string; available: boolean; usageStats: Record<string, unknown> }[]> {
  return ((await fixture.admin('GET', '/admin/profiles')).json as { profiles: { id: string; available: boolean; usageStats: Record<string, unknown> }[] }).profiles;
}

describe('a request nested too deeply (defects 2 and 3)', () => {
  const user = { role: 'user', content: 'hi' };
  // Each was ~360 KB and made JSON.stringify throw further down: a 500, or a profile cooled with no upstream call.
  const deepCases: readonly { readonly name: string; readonly path: string; readonly body: unknown; readonly field: string }[] = [
    {
      name: 'an OpenAI tool schema',
      path: '/v1/chat/completions',
      body: { model: 'default', messages: [user], tools: [{ type: 'function', function: { name: 'deep', parameters: DEEP } }] },
      field: 'tools[0].function.parameters',
    },
    {
      name: 'an Anthropic input_schema',
      path: '/v1/messages',
      body: { model: 'default', max_tokens: 10, messages: [user], tools: [{ name: 'deep', input_schema: DEEP }] },
      field: 'tools[0].input_schema',
    },
    {
      name: 'OpenAI tool_calls arguments given as an object',
      path: '/v1/chat/completions',
      body: {
        model: 'default',
        messages: [user, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: DEEP } }] }],
      },
      field: 'messages[1].tool_calls[0].function.arguments',
    },
    {
      name: 'an Anthropic tool_use input',
      path: '/v1/messages',
      body: { model: 'default', max_tokens: 10, messages: [user, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: DEEP }] }] },
      field: 'messages[1].content[0].input',
    },
  ];

  it.each(deepCases)('$name: 400 naming the field, no upstream call, no profile marked', async ({ path, body, field }) => {
    await fixture.clearCooldowns();
    await fixture.emulator.clearRequests();
    for (let round = 0; round < 3; round += 1) {
      const { status, json } = await post(path, body);
      expect(status).toBe(400);
      expect(JSON.stringify(json)).toContain('nested deeper than 100 levels');
      expect(JSON.stringify(json)).toContain(field);
    }
    expect(await fixture.emulator.requests()).toEqual([]);
    for (const profile of await profiles()) {
      expect(profile.available, profile.id).toBe(true);
      expect(profile.usageStats['errorCount'], profile.id).toBeUndefined();
    }
    // The primary still answers: nothing was cooled.
    const answer = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'default', messages: [user] }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-understudy-profile')).toBe('openai:a');
  });

  it('accepts a schema within the limit', async () => {
    const { status } = await post('/v1/chat/completions', {
      model: 'default',
      messages: [user],
      tools: [{ type: 'function', function: { name: 'ok', parameters: nested(40) } }],
    });
    expect(status).toBe(200);
  });
});

describe('a compressed request body', () => {
  const chat = { model: 'default', messages: [{ role: 'user', content: 'compressed-body-marker' }] };
  const cases = [
    { path: '/v1/chat/completions', body: chat, dialect: 'openai' },
    { path: '/v1/responses', body: { model: 'default', input: 'compressed-body-marker' }, dialect: 'openai' },
    { path: '/v1/messages', body: { ...chat, max_tokens: 10 }, dialect: 'anthropic' },
  ] as const;

  it.each(cases)('$path with content-encoding: gzip is a 415 in the $dialect error shape naming the header, with no body bytes', async ({ path, body, dialect }) => {
    await fixture.emulator.clearRequests();
    const gzipped = zlib.gzipSync(JSON.stringify(body));
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    if (dialect === 'anthropic') headers['anthropic-version'] = '2023-06-01';
    const response = await fetch(`${fixture.gateway.url}${path}`, { method: 'POST', headers, body: gzipped });
    expect(response.status).toBe(415);
    const text = await response.text();
    const json = JSON.parse(text) as Record<string, unknown>;
    const message = 'the request body was sent with content-encoding: gzip, which this gateway does not decode; send an uncompressed body (no content-encoding header, or content-encoding: identity)';
    if (dialect === 'anthropic') {
      expect(json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message } });
    } else {
      expect(json).toEqual({ error: { message, type: 'invalid_request_error', param: null, code: 'unsupported_content_encoding' } });
    }
    // Neither the gzip magic bytes nor any part of the decoded body come back.
    expect(text).not.toContain('\u001f');
    expect(text).not.toContain(String.fromCharCode(0x1f));
    expect(text).not.toContain('compressed-body-marker');
    expect(await fixture.emulator.requests()).toEqual([]);
    await stillServing();
  });

  it('names no header value it cannot show plainly, and keeps serving', async () => {
    const { status, body } = await raw(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Encoding: "<script>"\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect(status).toBe(415);
    expect(body).not.toContain('<script>');
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'unsupported_content_encoding', message: expect.stringContaining('a content-encoding header') } });
    await stillServing();
  });

  it('content-encoding: identity is an uncompressed body and is answered', async () => {
    const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: JSON.stringify(chat),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-understudy-profile')).toBe('openai:a');
  });
});

describe('a body that is not JSON', () => {
  it.each([
    ['a key pasted by mistake', 'sk-test-PASTEDKEY0123 is my key'],
    ['gzip bytes sent without content-encoding', zlib.gzipSync('{"model":"x"}')],
    ['JSON cut short', '{"model": "backup/model-c", "messages": [PASTEDKEY'],
  ])('%s: 400 invalid_json that quotes none of it', async (_label, body) => {
    const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { code: string; message: string } };
    expect(answer.error.code).toBe('invalid_json');
    expect(answer.error.message).toMatch(/^the request body is not valid JSON/);
    expect(answer.error.message).not.toMatch(/PASTEDKEY|sk-test/);
    expect(answer.error.message).not.toContain(String.fromCharCode(0x1f)); // gzip's first byte
  });
});

describe('attacker-shaped values where a string is expected (defect 3)', () => {
  it.each([
    { path: '/v1/chat/completions', body: { model: 'default', messages: [{ role: { toString: null }, content: 'x' }] }, field: 'messages[0].role' },
    { path: '/v1/chat/completions', body: { model: 'default', messages: [{ role: 'user', content: [{ type: { toString: 1 } }] }] }, field: 'messages[0].content[0].type' },
    { path: '/v1/messages', body: { model: 'default', max_tokens: 5, messages: [{ role: { toString: null }, content: 'x' }] }, field: 'messages[0].role' },
    { path: '/v1/messages', body: { model: 'default', max_tokens: 5, messages: [{ role: 'user', content: [{ type: { valueOf: 1, toString: 1 } }] }] }, field: 'messages[0].content[0].type' },
    { path: '/v1/messages', body: { model: 'default', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], tools: [{ name: { toString: null } }] }, field: 'tools[0].name' },
  ])('$path $field: 400 naming the field, never a 500', async ({ path, body, field }) => {
    const { status, json } = await post(path, body);
    expect(status).toBe(400);
    expect(JSON.stringify(json)).toContain(field);
    await stillServing();
  });
});

describe('shutdown when the log destination is gone (defect 4)', () => {
  async function gatewayWithDeadStderr(shutdownGraceMs: number) {
    const gateway = await startGateway({
      config: fixtureConfig(fixture.emulator.url, { shutdownGraceMs }),
      env: { TEST_ANTHROPIC_KEY: KEYS.anthropic },
      prepare: seedProfiles,
    });
    // The reader of the gateway's stderr goes away: every later log write fails with EPIPE.
    gateway.child.stderr?.destroy();
    for (let index = 0; index < 20; index += 1) await fetch(`${gateway.url}/v1/models`);
    return gateway;
  }

  it('SIGTERM ends the process within the drain timeout', async () => {
    const gateway = await gatewayWithDeadStderr(500);
    const started = Date.now();
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(500 + 3000);
    await gateway.stop();
  });

  it('a second signal exits at once while a request still drains', async () => {
    await fixture.emulator.setScript({ routes: [{ steps: [{ delayMs: 20_000 }] }] });
    const gateway = await gatewayWithDeadStderr(60_000);
    try {
      const hanging = fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'backup/model-c', messages: [{ role: 'user', content: 'hold' }] }),
      }).catch(() => undefined);
      await expect.poll(async () => (await fixture.emulator.requests()).length).toBeGreaterThan(0);
      gateway.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const second = Date.now();
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(1);
      expect(Date.now() - second).toBeLessThan(1500);
      await hanging;
    } finally {
      await gateway.stop();
      await fixture.emulator.setScript({ routes: [] });
    }
  });
});

describe('credentials inside provider URLs (defect 6)', () => {
  it('/admin/status and the log show the URL without its userinfo or key-like query values', async () => {
    const port = new URL(fixture.emulator.url).port;
    const config = fixtureConfig(fixture.emulator.url) as { models: { providers: Record<string, { baseUrl: string }> } };
    config.models.providers['backup'] = { ...config.models.providers['backup'], baseUrl: `http://user:URLPASS99@127.0.0.1:${port}/v1?key=QUERYKEY99&region=eu` };
    const gateway = await startGateway({ config, env: { TEST_ANTHROPIC_KEY: KEYS.anthropic }, prepare: seedProfiles });
    try {
      const response = await fetch(`${gateway.url}/admin/status`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(text).toContain('http://***@127.0.0.1');
      expect(text).toContain('key=***&region=eu');
      await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'backup/model-c', messages: [{ role: 'user', content: 'x' }] }),
      });
      // Stopped first, so every buffered log line is out before it is read.
      await gateway.stop();
      for (const output of [text, gateway.stderr(), gateway.stdout()]) {
        expect(output).not.toContain('URLPASS99');
        expect(output).not.toContain('QUERYKEY99');
      }
    } finally {
      await gateway.stop();
    }
  });
});

describe('--host [::1] (defect 9)', () => {
  it('listens on the IPv6 loopback given in brackets', async () => {
    const gateway = await startGateway({ config: fixtureConfig(fixture.emulator.url), env: { TEST_ANTHROPIC_KEY: KEYS.anthropic }, args: ['--host', '[::1]', '--port', '0'] });
    try {
      expect(gateway.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});

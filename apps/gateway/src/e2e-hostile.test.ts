/**
 * End to end against the built gateway process: hostile and broken input never ends the process nor poisons
 * its state (issue 20). Each case was a reproduction against the gateway before its fix; the requests go
 * over a raw TCP socket, so the request target and the framing reach the server exactly as written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from './test-support/e2e-fixture.js';
import { startFixture } from './test-support/e2e-fixture.js';
import { rawClient } from './test-support/in-process-gateway.js';

let fixture: Fixture;

beforeAll(async () => {
  fixture = await startFixture();
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

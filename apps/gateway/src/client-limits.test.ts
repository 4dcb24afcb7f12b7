/**
 * The gateway's limits on slow or broken clients (breaker finding F1): a body that stops arriving is answered
 * 408 in the endpoint's error format and releases its in-flight slot; a shutdown does not wait for such a
 * body; headers that never finish get 408, oversized headers 431, each with a JSON body.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { InProcessGateway } from './test-support/in-process-gateway.js';
import { rawClient, startInProcessGateway } from './test-support/in-process-gateway.js';

let running: InProcessGateway | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const head = (path: string, contentLength: number): string =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

/** The status line and the JSON body of a raw HTTP response. */
function parseResponse(text: string): { readonly status: number; readonly headers: string; readonly body: unknown } {
  const [headers = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]), headers: headers.toLowerCase(), body: body === '' ? undefined : (JSON.parse(body) as unknown) };
}

async function inFlight(gateway: InProcessGateway): Promise<number> {
  const { json } = await gateway.admin('GET', '/admin/status');
  return (json as { inFlight: number }).inFlight;
}

describe('a request body that stops arriving', () => {
  it.each([
    { path: '/v1/chat/completions', shape: { error: { code: 'request_timeout', type: 'timeout_error' } } },
    { path: '/v1/messages', shape: { type: 'error', error: { type: 'timeout_error' } } },
  ])('is answered 408 in the wire format of $path, the connection closed and the in-flight slot released', async ({ path, shape }) => {
    running = await startInProcessGateway({ httpLimits: { bodyIdleTimeoutMs: 300 } });
    const clients = await Promise.all([1, 2, 3].map(() => rawClient(running?.port ?? 0)));
    for (const client of clients) client.write(`${head(path, 1000)}{"model":"default",`);
    const answers = await Promise.all(clients.map((client) => client.closed));
    for (const answer of answers) {
      const { status, headers, body } = parseResponse(answer);
      expect(status).toBe(408);
      expect(headers).toContain('connection: close');
      expect(body).toMatchObject(shape);
      expect(JSON.stringify(body)).toContain('stopped arriving');
    }
    // Only the status request itself is in flight now.
    expect(await inFlight(running)).toBe(1);
  });

  it('closes a body that trickles in past the whole-request limit, and releases its slot', async () => {
    running = await startInProcessGateway({ httpLimits: { requestTimeoutMs: 500, headersTimeoutMs: 500, checkIntervalMs: 100, bodyIdleTimeoutMs: 60_000 } });
    const client = await rawClient(running.port);
    client.write(head('/v1/chat/completions', 1000));
    const drip = setInterval(() => client.write(' '), 50);
    try {
      await client.closed;
    } finally {
      clearInterval(drip);
    }
    expect(await inFlight(running)).toBe(1);
  });

  it('does not hold a shutdown for the grace period: the read ends at once with 503', async () => {
    running = await startInProcessGateway({ httpLimits: { bodyIdleTimeoutMs: 60_000 } });
    const client = await rawClient(running.port);
    client.write(`${head('/v1/chat/completions', 1000)}{"model":`);
    await expect.poll(() => inFlight(running as InProcessGateway)).toBe(2);
    // A grace period far longer than the test's timeout: the close must not wait for the stalled body.
    await running.gateway.close({ graceMs: 600_000 });
    const { status, body } = parseResponse(await client.closed);
    expect(status).toBe(503);
    expect(body).toMatchObject({ error: { code: 'shutting_down' } });
  });
});

describe('requests Node refuses before the gateway sees them', () => {
  it('answers headers that never finish with 408 and a JSON body', async () => {
    running = await startInProcessGateway({ httpLimits: { requestTimeoutMs: 400, headersTimeoutMs: 400, checkIntervalMs: 100 } });
    const client = await rawClient(running.port);
    client.write('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-');
    const { status, body } = parseResponse(await client.closed);
    expect(status).toBe(408);
    expect(body).toMatchObject({ error: { code: 'request_timeout' } });
  });

  it('answers oversized headers with 431 and a JSON body', async () => {
    running = await startInProcessGateway();
    const client = await rawClient(running.port);
    client.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(70_000)}\r\n\r\n`);
    const { status, body } = parseResponse(await client.closed);
    expect(status).toBe(431);
    expect(body).toMatchObject({ error: { code: 'headers_too_large' } });
  });

  it('keeps serving ordinary requests with the limits on', async () => {
    running = await startInProcessGateway({ httpLimits: { bodyIdleTimeoutMs: 300 } });
    const response = await fetch(`${running.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages": []}' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('missing_messages');
  });
});

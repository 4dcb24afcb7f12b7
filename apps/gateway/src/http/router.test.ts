/**
 * The request listener's last guard (issue 20, defect 1): an exception that escapes the handling of one request
 * is answered 500 in the OpenAI error shape and logged; it never reaches the process.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@understudy/config';
import type { AdminContext } from '../admin/admin-api.js';
import type { ChatHandlerContext } from '../chat/chat-handler.js';
import { createLogger } from '../logger.js';
import type { UiContext } from '../ui/ui-handler.js';
import { GatewayMetrics } from '../metrics.js';
import { createRequestListener } from './router.js';

const servers: ReturnType<typeof createServer>[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function serve(breakIt: (metrics: GatewayMetrics) => void): Promise<{ readonly url: string; readonly log: () => string }> {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const config = parseConfig({});
  const metrics = new GatewayMetrics({ activeWindows: () => Promise.resolve([]), defaultMetrics: false });
  breakIt(metrics);
  // Only the parts of the context these requests reach are real: the chat, admin and status page handlers are never called.
  const listener = createRequestListener({
    chat: { config } as ChatHandlerContext,
    admin: {} as AdminContext,
    ui: {} as UiContext,
    metrics,
    log: createLogger({ level: 'info', destination }),
    draining: () => false,
    inFlight: new Set(),
  });
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log: () => text };
}

describe('the last guard of the request listener', () => {
  it('answers a synchronous exception before the request is routed with 500 and logs it', async () => {
    const running = await serve((metrics) => {
      metrics.inFlight.inc = () => {
        throw new TypeError('broken gauge');
      };
    });
    const response = await fetch(`${running.url}/v1/models`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: 'internal_error', type: 'server_error' } });
    expect(running.log()).toContain('broken gauge');
    // The server is still there for the next request.
    expect((await fetch(`${running.url}/v1/models`)).status).toBe(500);
  });

  it('catches an exception thrown after the answer (while recording it) without touching the process', async () => {
    const running = await serve((metrics) => {
      metrics.requests.inc = () => {
        throw new RangeError('broken counter');
      };
    });
    const response = await fetch(`${running.url}/v1/models`);
    expect(response.status).toBe(200);
    await expect.poll(() => running.log()).toContain('broken counter');
  });
});

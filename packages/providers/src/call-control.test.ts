import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CallControl } from './call-control.js';

/** Keeps the event loop busy (as a loaded gateway's is) for at least `ms` of wall-clock time. */
function blockEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: no timer and no socket is serviced meanwhile
  }
}

/** A loopback server and a client connected to it: the server's socket and the client's. */
async function connectedPair(): Promise<{ readonly server: net.Server; readonly serverSide: net.Socket; readonly clientSide: net.Socket }> {
  const server = net.createServer();
  const serverSideReady = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const clientSide = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve) => clientSide.once('connect', resolve));
  return { server, serverSide: await serverSideReady, clientSide };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('CallControl timeouts', () => {
  it('lets bytes that arrived before a busy event loop noticed its expired limit be read first: no timeout', async () => {
    const { server, serverSide, clientSide } = await connectedPair();
    cleanups.push(() => {
      clientSide.destroy();
      serverSide.destroy();
      server.close();
    });
    const control = new CallControl(undefined);
    cleanups.push(() => control.dispose());
    const received = new Promise<string>((resolve) => {
      clientSide.once('data', (chunk: Buffer) => {
        // What the stream pump does with the first content: the first-token limit is met.
        control.disarm('first_token');
        resolve(chunk.toString('utf8'));
      });
    });
    control.arm('first_token', 1);
    // The provider answers at once; the bytes sit in our socket while the loop is busy past the limit.
    serverSide.write('data: {"first":"token"}\n\n');
    blockEventLoop(30);

    expect(await received).toBe('data: {"first":"token"}\n\n');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(control.abortInfo).toBeUndefined();
    expect(control.signal.aborted).toBe(false);
  });

  it('still times out a provider that stays silent, naming the limit', async () => {
    const control = new CallControl(undefined);
    cleanups.push(() => control.dispose());
    const aborted = new Promise<void>((resolve) => control.signal.addEventListener('abort', () => resolve(), { once: true }));
    control.arm('stall', 1);

    await aborted;
    expect(control.abortInfo).toEqual({ cause: 'timeout', timeoutKind: 'stall', afterMs: 1 });
  });
});

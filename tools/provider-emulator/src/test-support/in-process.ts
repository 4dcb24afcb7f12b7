/**
 * The emulator's own tests' one set-up: a test file calls {@link useInProcessEmulator} once at its top; the
 * emulator runs in this process for the file (`startEmulator`, port 0), starts every test with an empty script
 * and no records, and closes after the file's tests.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { EmulatorHandle } from '../server.js';
import { startEmulator } from '../server.js';

/**
 * Registers the hooks and returns the file's emulator. Its members may be used inside tests and hooks only (it
 * starts in `beforeAll`).
 */
export function useInProcessEmulator(): EmulatorHandle {
  let running: EmulatorHandle | undefined;
  const current = (): EmulatorHandle => {
    if (running === undefined) throw new Error('the emulator runs only inside tests and hooks (useInProcessEmulator starts it in beforeAll)');
    return running;
  };
  beforeAll(async () => {
    running = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await running?.close();
    running = undefined;
  });
  beforeEach(() => {
    current().setScript({ routes: [] });
    current().clearRequests();
  });
  return {
    get url() {
      return current().url;
    },
    get port() {
      return current().port;
    },
    requests: () => current().requests(),
    clearRequests: () => current().clearRequests(),
    setScript: (script) => current().setScript(script),
    stats: () => current().stats(),
    close: () => current().close(),
  };
}

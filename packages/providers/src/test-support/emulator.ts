/**
 * The provider tests' one emulator set-up. A test file calls {@link useEmulator} once at its top: the emulator
 * runs as a child process for the file (started by the typed client of `@understudy/provider-emulator/client`,
 * which is how these tests reach it: a `type:io` package's published code cannot import a `type:tool` one,
 * docs/architecture.md), its records are cleared before each test, and the provider clients the file made are
 * closed after its tests, before the emulator stops.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { EmulatorProcess, EmulatorScript } from '@understudy/provider-emulator/client';
import { spawnEmulator } from '@understudy/provider-emulator/client';
import type { ProviderApi } from '../chat-types.js';
import type { ProviderClient, ProviderClientOptions } from '../client-options.js';
import { emulatorClient } from './clients.js';

/** The emulator of one test file: its control client, and provider clients closed after the file's tests. */
export interface EmulatorFixture extends Omit<EmulatorProcess, 'stop' | 'stderr'> {
  /** Closes `clients` after the file's tests (before the emulator stops); returns the first. */
  closeAfterAll<T extends ProviderClient>(first: T, ...more: ProviderClient[]): T;
  /** A provider client of `api` against the emulator (test-support/clients.ts), closed after the file's tests. */
  client(api: ProviderApi, options?: Partial<ProviderClientOptions>): ProviderClient;
}

/**
 * Registers the hooks of the file's emulator and returns it. Its members may be used inside tests and hooks
 * only (the process starts in `beforeAll`).
 * - `everyTest`: a script set before each test as well (the file's tests then start from it). Without one, the
 *   script is whatever the previous test set.
 */
export function useEmulator(options: { readonly everyTest?: EmulatorScript } = {}): EmulatorFixture {
  let running: EmulatorProcess | undefined;
  const clients: ProviderClient[] = [];
  const current = (): EmulatorProcess => {
    if (running === undefined) throw new Error('the emulator runs only inside tests and hooks (useEmulator starts it in beforeAll)');
    return running;
  };

  beforeAll(async () => {
    running = await spawnEmulator();
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await running?.stop();
    running = undefined;
  });
  beforeEach(async () => {
    if (options.everyTest !== undefined) await current().setScript(options.everyTest);
    await current().clearRequests();
  });

  const closeAfterAll = <T extends ProviderClient>(first: T, ...more: ProviderClient[]): T => {
    clients.push(first, ...more);
    return first;
  };
  return {
    get url() {
      return current().url;
    },
    setScript: (script) => current().setScript(script),
    requests: () => current().requests(),
    clearRequests: () => current().clearRequests(),
    stats: () => current().stats(),
    closeAfterAll,
    client: (api, clientOptions = {}) => closeAfterAll(emulatorClient(api, current().url, clientOptions)),
  };
}

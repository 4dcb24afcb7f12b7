/**
 * The typed control client against a real emulator: in-process (startEmulator) for the calls and their
 * failures, and as a child process (spawnEmulator, the built dist/main.js) for start, script and stop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorControlError, emulatorControl, spawnEmulator } from './client.js';
import type { EmulatorHandle } from './server.js';
import { startEmulator } from './server.js';

let handle: EmulatorHandle;

beforeAll(async () => {
  handle = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await handle.close();
});

const chat = (url: string, model: string, key: string): Promise<Response> =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });

describe('emulatorControl', () => {
  it('sets a script, reads the records and counters, and clears the records', async () => {
    const control = emulatorControl(handle.url);
    await control.setScript({ routes: [{ name: 'limited', match: { model: 'm-1' }, steps: [{ status: 429 }] }] });
    expect((await chat(handle.url, 'm-1', 'sk-control-1234')).status).toBe(429);
    expect(await control.requests()).toMatchObject([{ method: 'POST', api: 'openai-completions', model: 'm-1', keyFingerprint: '…1234', route: 0, outcome: 'status 429' }]);
    expect(await control.stats()).toEqual({ requests: 1, oauthRefreshes: 0, deviceLogins: 0, routes: [{ name: 'limited', calls: 1 }] });
    await control.clearRequests();
    expect(await control.requests()).toEqual([]);
    expect(handle.requests()).toEqual([]);
  });

  it('sends a string script as JSON5 text', async () => {
    const control = emulatorControl(handle.url);
    await control.setScript("{ routes: [{ name: 'five', steps: [{ status: 503 }] }] }");
    expect((await chat(handle.url, 'm-2', 'sk-x')).status).toBe(503);
    expect((await control.stats()).routes).toEqual([{ name: 'five', calls: 1 }]);
  });

  it('throws an EmulatorControlError with status 400 naming the bad field when the script is refused', async () => {
    const control = emulatorControl(handle.url);
    const refused = await control.setScript('{ routes: [{ steps: [{ status: 42 }] }] }').catch((error: unknown) => error);
    expect(EmulatorControlError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'emulator_control_failed', status: 400 });
    expect((refused as Error).message).toContain('routes.0.steps.0.status');
  });

  it('throws an EmulatorControlError with status 0 when nothing listens', async () => {
    const gone = await startEmulator({ port: 0 });
    await gone.close();
    const failure = await emulatorControl(gone.url).stats().catch((error: unknown) => error);
    expect(EmulatorControlError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ status: 0 });
  });
});

describe('spawnEmulator', () => {
  it('starts the built emulator with a script, drives it, and stops it', async () => {
    const emulator = await spawnEmulator({ script: { routes: [{ name: 'only', steps: [{ ok: true, text: 'from the child' }] }] } });
    try {
      expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const answer = (await (await chat(emulator.url, 'm-3', 'sk-y')).json()) as { choices: { message: { content: string } }[] };
      expect(answer.choices[0]?.message.content).toBe('from the child');
      expect(await emulator.stats()).toMatchObject({ requests: 1, routes: [{ name: 'only', calls: 1 }] });
    } finally {
      await emulator.stop();
    }
    const afterStop = await emulatorControl(emulator.url).stats().catch((error: unknown) => error);
    expect(afterStop).toMatchObject({ status: 0 });
  });

  it('rejects with status 400 when the emulator refuses the script', async () => {
    const refused = await spawnEmulator({ script: { routes: [{ steps: [] }] } }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'emulator_control_failed', status: 400 });
    expect((refused as Error).message).toContain('routes.0.steps');
  });
});

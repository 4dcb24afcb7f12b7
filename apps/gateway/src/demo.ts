#!/usr/bin/env node
/**
 * `pnpm demo`: a self-contained tour. It starts the provider emulator (a real HTTP server, spawned) with a
 * failure script, starts the gateway in this process on a temporary state dir, sends a few chat requests and
 * prints what happened to each one — which upstream calls were made with which auth profile, every fallback
 * decision, and who answered — showing an auth-profile rotation, a cooldown, a model fallback and the recovery.
 * Exits 0 when the story went as told, 1 otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import { parseConfig } from '@understudy/config';
import { Secret } from '@understudy/contracts';
import type { EmulatorScript } from '@understudy/provider-emulator/client';
import { spawnEmulator } from '@understudy/provider-emulator/client';
import { parseRuntimeEnv } from '@understudy/runtime';
import { createGateway } from './gateway.js';
import { createLogger } from './logger.js';

const KEYS = { primary: 'demo-key-primary-1111', backup: 'demo-key-backup-2222', anthropic: 'demo-key-anthropic-3333' };
const SESSION = 'demo-session';
/**
 * The first cooldown step and the probe throttle of the demo (30 s each by default). The first call after a
 * cooldown is the profile's probe, one per throttle, so the throttle is as short as the cooldown here.
 */
const COOLDOWN_MS = 3000;

const print = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

/** The emulator's failure script: keyed by the auth profile's key, one step per call (the last one repeats). */
const SCRIPT: EmulatorScript = {
  routes: [
    {
      name: 'openai primary key',
      match: { api: 'openai-completions', key: KEYS.primary },
      steps: [
        { status: 429, headers: { 'retry-after': '2' }, body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } } },
        { ok: true, text: 'Back on the primary key.' },
      ],
    },
    {
      name: 'openai backup key',
      match: { api: 'openai-completions', key: KEYS.backup },
      steps: [
        { ok: true, text: 'Answered with the backup key.' },
        { ok: true, text: 'Still on the backup key.' },
        { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
        { ok: true, text: 'Backup key again.' },
      ],
    },
    { name: 'anthropic', match: { api: 'anthropic-messages' }, steps: [{ ok: true, text: 'Anthropic stepping in.' }] },
  ],
};

function profileOfKey(fingerprint: string | null): string {
  const byTail = Object.entries({ 'openai:primary': KEYS.primary, 'openai:backup': KEYS.backup, 'anthropic:inline': KEYS.anthropic });
  return byTail.find(([, key]) => fingerprint === `…${key.slice(-4)}`)?.[0] ?? 'no key';
}

function describeDecision(event: Record<string, unknown>): string {
  const model = `${String(event['provider'])}/${String(event['model'])}`;
  const profile = event['profile'] === null || event['profile'] === undefined ? '' : ` (${String(event['profile'])})`;
  const status = event['status'] === undefined ? '' : ` HTTP ${String(event['status'])}`;
  switch (event['decision']) {
    case 'candidate_failed':
      return `✗ ${model}${profile} failed: ${String(event['reason'])}${status} → ${event['fallbackStepToModel'] === undefined ? 'nothing left' : `falling back to ${String(event['fallbackStepToModel'])}`}`;
    case 'skip_candidate':
      return `↷ ${model} skipped: ${String(event['reason'])} (${String(event['fallbackStepFromFailureDetail'])}) → ${String(event['fallbackStepToModel'] ?? 'nothing left')}`;
    case 'probe_cooldown_candidate':
      return `? ${model}${profile} is cooling down (${String(event['reason'])}): probing it`;
    case 'candidate_succeeded':
      return `✓ ${model}${profile} answered${event['fallbackStepFromModel'] === undefined ? '' : ` (after ${String(event['fallbackStepFromModel'])} failed: ${String(event['fallbackStepFromFailureReason'])})`}`;
    default:
      return JSON.stringify(event);
  }
}

async function main(): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-demo-'));
  const emulator = await spawnEmulator({ script: SCRIPT, stderr: 'inherit' });
  const decisions: Record<string, unknown>[] = [];
  const logSink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line.trim() === '') continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry['msg'] === 'model_fallback_decision') decisions.push(entry);
      }
      done();
    },
  });
  const stateDir = path.join(dir, 'state');
  const store = await openAuthProfileStore({ stateDir, agentId: 'main' });
  await store.upsertProfile({ id: 'openai:primary', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.primary) } });
  await store.upsertProfile({ id: 'openai:backup', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.backup) } });
  await store.close();

  const config = parseConfig({
    models: {
      providers: {
        openai: { baseUrl: `${emulator.url}/v1`, api: 'openai-completions', models: ['gpt-demo'] },
        anthropic: { baseUrl: emulator.url, api: 'anthropic-messages', apiKey: KEYS.anthropic, models: ['claude-demo'] },
      },
    },
    auth: { order: { openai: ['openai:primary', 'openai:backup'] }, cooldowns: { cooldownStepsMs: [COOLDOWN_MS, 2 * COOLDOWN_MS, 4 * COOLDOWN_MS], probeThrottleMs: COOLDOWN_MS, overloadedBackoffMs: 10 } },
    agents: { defaults: { model: { primary: 'openai/gpt-demo', fallbacks: ['anthropic/claude-demo'] } } },
    retry: { provider: { maxRetries: 0 } },
    gateway: { port: 0 },
  });
  const gateway = createGateway({
    config,
    settings: { ...parseRuntimeEnv({}), stateDir },
    homeDir: dir,
    logger: createLogger({ level: 'info', destination: logSink }),
    processMetrics: false,
  });
  const { url } = await gateway.listen();
  let ok = true;

  const ask = async (step: string, content: string, expected: string): Promise<void> => {
    await emulator.clearRequests();
    decisions.length = 0;
    print(`\n── ${step}`);
    print(`   POST ${url}/v1/chat/completions  model "default", x-understudy-session: ${SESSION}, "${content}"`);
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-understudy-session': SESSION },
      body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content }] }),
    });
    const body = (await response.json()) as { model?: string; choices?: { message: { content: string } }[]; understudy?: { notice?: string }; error?: { message: string } };
    const calls = await emulator.requests();
    for (const call of calls) print(`   upstream  ${String(call.model)} with ${profileOfKey(call.keyFingerprint)} → ${call.outcome}`);
    if (calls.length === 0) print('   upstream  (no call)');
    await new Promise((resolve) => setImmediate(resolve));
    for (const decision of decisions) print(`   decision  ${describeDecision(decision)}`);
    if (body.understudy?.notice !== undefined) print(`   notice    ${body.understudy.notice}`);
    const who = `${response.headers.get('x-understudy-model') ?? '?'} via ${response.headers.get('x-understudy-profile') ?? '?'}`;
    print(`   answer    ${response.status} from ${who}${response.headers.get('x-understudy-fallback') === null ? '' : ` (fallback: ${response.headers.get('x-understudy-fallback') ?? ''})`}: "${body.choices?.[0]?.message.content ?? body.error?.message ?? ''}"`);
    if (response.status !== 200 || !who.startsWith(expected)) {
      print(`   !! expected an answer from ${expected}`);
      ok = false;
    }
  };

  print('understudy demo: a provider emulator fails on cue; the gateway keeps answering.');
  print(`chain: openai/gpt-demo (auth profiles openai:primary, then openai:backup) → anthropic/claude-demo; cooldowns of ${COOLDOWN_MS / 1000} s`);
  try {
    await ask('1. Rotation: the primary key is rate-limited, the backup key of the same provider answers', 'hello', 'openai/gpt-demo via openai:backup');
    await ask('2. Cooldown: the primary key is cooling down, so it is not even tried', 'and again', 'openai/gpt-demo via openai:backup');
    await ask('3. Fallback: the backup key is overloaded too, the next model in the chain answers', 'still there?', 'anthropic/claude-demo');
    const status = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-understudy-session': SESSION },
      body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: '/status' }] }),
    });
    const statusText = ((await status.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content ?? '';
    print('\n── /status in the session');
    for (const line of statusText.split('\n')) print(`   ${line}`);
    print(`\n   … waiting ${COOLDOWN_MS / 1000 + 0.5} s for the cooldowns to end …`);
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 500));
    await ask(
      '4. Recovery: the cooldowns are over, the selected model answers again (on the key the session is pinned to) and the fallback is cleared',
      'are we back?',
      'openai/gpt-demo',
    );
  } finally {
    await gateway.close({ graceMs: 0 });
    await emulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  print(ok ? '\nDone: rotation, cooldown, fallback and recovery, all on real HTTP.' : '\nThe demo did not go as expected (see the !! lines).');
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

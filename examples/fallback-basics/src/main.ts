/**
 * One turn with model fallback, embedded in a program: the primary model's only key is rate limited, so the
 * turn falls back to the next model of the candidate chain, and the program prints the fallback it took.
 *
 * The provider is the bundled emulator (a real HTTP server on loopback), so the example needs no key and no
 * network. Swap its URL for a real provider's base URL and its keys for real ones, and nothing else changes.
 * The policy it exercises (rate_limit: cool the profile down, rotate, then fall back) is docs/policy.md.
 *
 * Run: `node dist/main.js` after `tsc`; prints one JSON line and exits 0 when the fallback happened.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import { parseConfig } from '@understudy/config';
import { Secret } from '@understudy/contracts';
import { runWithModelFallback } from '@understudy/fallback-runner';
import type { FallbackDecisionEvent } from '@understudy/fallback-runner';
import { startEmulator } from '@understudy/provider-emulator';
import { completeAttempt, createProviderClient } from '@understudy/providers';
import type { ProviderClient } from '@understudy/providers';
import { systemClock, systemRandom } from '@understudy/runtime';

// A fake upstream: every call to gpt-4o-mini is a 429; any other model answers.
const emulator = await startEmulator({
  port: 0,
  script: {
    routes: [{ name: 'primary is rate limited', match: { model: 'gpt-4o-mini' }, steps: [{ status: 429, body: { error: { message: 'Rate limit reached', type: 'rate_limit_exceeded' } } }] }],
  },
});
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-example-'));

try {
  // The same shape as the config file (docs/configuration.md); `parseConfig` applies the defaults and names any bad field.
  const config = parseConfig({
    models: {
      providers: {
        openai: { baseUrl: `${emulator.url}/v1`, api: 'openai-completions', apiKey: 'sk-example-openai' },
        anthropic: { baseUrl: emulator.url, api: 'anthropic-messages', apiKey: 'sk-ant-example' },
      },
    },
    agents: { defaults: { model: { primary: 'openai/gpt-4o-mini', fallbacks: ['anthropic/claude-sonnet-4-5'] } } },
  });

  // Cooldowns and usage stats persist in SQLite under stateDir; the config keys become `<provider>:inline` profiles.
  const store = await openAuthProfileStore({
    stateDir,
    agentId: 'main',
    inlineProfiles: Object.entries(config.models.providers).flatMap(([provider, settings]) =>
      settings.apiKey === undefined ? [] : [{ provider, key: new Secret(settings.apiKey) }],
    ),
  });

  const clients = new Map<string, ProviderClient>(
    Object.entries(config.models.providers).map(([providerId, settings]) => [
      providerId,
      createProviderClient({ providerId, api: settings.api, baseUrl: settings.baseUrl }),
    ]),
  );
  const decisions: FallbackDecisionEvent[] = [];
  try {
    const result = await runWithModelFallback({
      request: { agentId: 'main', sessionKey: 'example-chat', chatType: 'direct' },
      config,
      store,
      attempt: completeAttempt((candidate) => clients.get(candidate.provider), {
        model: '',
        messages: [{ role: 'user', content: 'Say hello.' }],
      }),
      clock: systemClock,
      random: systemRandom,
      onDecision: (event) => decisions.push(event),
    });
    console.log(
      JSON.stringify({
        selected: `${result.selected.provider}/${result.selected.model}`,
        answeredBy: `${result.candidate.provider}/${result.candidate.model}`,
        profile: result.profile,
        fallbackReason: result.fallbackReason ?? null,
        notice: result.notice ?? null,
        reply: result.value.text,
        attempts: result.attempts.map((a) => `${a.provider}/${a.model} ${a.kind} ${a.ok ? 'ok' : a.reason ?? 'failed'}`),
        decisions: decisions.length,
      }),
    );
    if (result.fallbackReason === undefined) process.exitCode = 1;
  } finally {
    await Promise.allSettled([...clients.values()].map((client) => client.close()));
    await store.close();
  }
} finally {
  await emulator.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
}

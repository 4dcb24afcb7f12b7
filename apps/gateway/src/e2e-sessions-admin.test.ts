/**
 * End to end: sessions (`x-understudy-session`), the chat commands, fallback notices once per state change,
 * the Anthropic wire format through the official `@anthropic-ai/sdk`, the admin API and `/metrics`
 * (docs/contracts.md#gateway; the model-failover doc "Session overrides and live model switching", "User-visible fallback notices").
 */
import Anthropic from '@anthropic-ai/sdk';
import { fallbackClearedNoticeText, fallbackNoticeText } from '@understudy/fallback-runner';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from './test-support/e2e-fixture.js';
import { ADMIN_TOKEN, KEYS, startFixture, tail } from './test-support/e2e-fixture.js';

let fixture: Fixture;
let openai: OpenAI;
let anthropic: Anthropic;
let sessionCounter = 0;

beforeAll(async () => {
  fixture = await startFixture();
  openai = new OpenAI({ baseURL: `${fixture.gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: fixture.gateway.url, apiKey: 'unused', maxRetries: 0 });
});

afterAll(async () => {
  await fixture?.stop();
});

beforeEach(async () => {
  await fixture.clearCooldowns();
  await fixture.emulator.setScript({ routes: [] });
});

const failing = (model: string, status = 429) => ({
  match: { model },
  steps: [{ status, body: { error: { message: 'upstream trouble', code: status === 429 ? 'rate_limit_exceeded' : 'server_error' } } }],
});

function newSession(): string {
  sessionCounter += 1;
  return `e2e-session-${sessionCounter}`;
}

async function say(session: string | undefined, content: string, options: { model?: string; chatType?: string } = {}) {
  const headers: Record<string, string> = {};
  if (session !== undefined) headers['x-understudy-session'] = session;
  if (options.chatType !== undefined) headers['x-understudy-chat-type'] = options.chatType;
  const { data, response } = await openai.chat.completions
    .create({ model: options.model ?? 'default', messages: [{ role: 'user', content }] }, { headers })
    .withResponse();
  return {
    text: data.choices[0]?.message.content ?? '',
    model: data.model,
    profile: response.headers.get('x-understudy-profile'),
    fallback: response.headers.get('x-understudy-fallback'),
    notice: (data as unknown as { understudy?: { notice?: string } }).understudy?.notice,
  };
}

async function upstreamCalls(): Promise<string[]> {
  return (await fixture.emulator.requests()).map((request) => `${request.model ?? '?'} ${request.keyFingerprint ?? 'none'}`);
}

describe('Anthropic wire format', () => {
  it('answers a messages request for an alias with the model that answered', async () => {
    const { data, response } = await anthropic.messages
      .create({ model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'bonjour' }] })
      .withResponse();
    expect(data.type).toBe('message');
    expect(data.model).toBe('anthropic/claude-b');
    expect(data.content[0]).toEqual({ type: 'text', text: 'bonjour' });
    expect(data.usage.output_tokens).toBeGreaterThan(0);
    expect(response.headers.get('x-understudy-model')).toBe('anthropic/claude-b');
  });

  it('streams with failover before the first token, through the SDK', async () => {
    await fixture.emulator.setScript({ routes: [failing('gpt-a', 503)] });
    const stream = anthropic.messages.stream({ model: 'default', max_tokens: 64, messages: [{ role: 'user', content: 'stream across' }] });
    const message = await stream.finalMessage();
    expect(message.model).toBe('anthropic/claude-b');
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'stream across' });
    expect(message.stop_reason).toBe('end_turn');
  });

  it('ends a stream that breaks after output with an error event', async () => {
    await fixture.emulator.setScript({
      routes: [{ match: { model: 'gpt-a' }, steps: [{ ok: true, chunks: ['par', 'tial', ' answer'], chunkDelayMs: 30, cutAfterChunks: 1 }] }],
    });
    // A strict selection: no later candidate could continue the answer (docs/policy.md#continuing-a-broken-stream).
    const stream = anthropic.messages.stream({ model: 'openai/gpt-a', max_tokens: 64, messages: [{ role: 'user', content: 'x' }] });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const error = await stream.finalMessage().then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as Error).message).toContain('broke off after output started');
    expect(text).toBe('par');
  });

  it('renders errors in the Anthropic error shape (404 for an unknown model lists what is valid)', async () => {
    const error = await anthropic.messages
      .create({ model: 'no-such-model', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })
      .then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    const body = (error as InstanceType<typeof Anthropic.NotFoundError>).error as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('not_found_error');
    expect(body.error.message).toContain('anthropic/claude-b');
    expect(body.error.message).toContain('claude');
  });

  it('lists models in the Anthropic shape for the Anthropic client', async () => {
    const page = await anthropic.models.list();
    expect(page.data.map((model) => model.id)).toEqual(expect.arrayContaining(['default', 'main', 'coder', 'claude', 'openai/gpt-a', 'backup/model-c']));
  });
});

describe('chat commands and sessions', () => {
  it('/model selects a strict user model for the session; /status shows it; /model default goes back', async () => {
    const session = newSession();
    const set = await say(session, '/model backup/model-c');
    expect(set.model).toBe('understudy');
    expect(set.text).toContain('Model set to backup/model-c');
    const answer = await say(session, 'on my model');
    expect(answer.model).toBe('backup/model-c');
    expect(await upstreamCalls()).toEqual([`model-c ${tail(KEYS.backup)}`]);

    // Strict: a failure of the selected model is the answer.
    await fixture.emulator.setScript({ routes: [failing('model-c', 500)] });
    const error = await say(session, 'fails').then(() => undefined, (thrown: unknown) => thrown);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(500);
    expect((await upstreamCalls()).every((call) => call.startsWith('model-c'))).toBe(true);

    const status = await say(session, '/status');
    expect(status.text).toContain('Model: backup/model-c (your selection, strict)');
    expect(status.text).toContain('Fallback chain: none (strict)');

    const back = await say(session, '/model default');
    expect(back.text).toContain('openai/gpt-a');
    await fixture.emulator.setScript({ routes: [] });
    expect((await say(session, 'configured again')).model).toBe('openai/gpt-a');
  });

  it('/model p/m@profile pins a user profile that survives /reset; another provider clears the pin', async () => {
    const session = newSession();
    await say(session, '/model openai/gpt-a@openai:b');
    const pinned = await say(session, 'pinned');
    expect(pinned.profile).toBe('openai:b');
    const reset = await say(session, '/reset');
    expect(reset.text).toContain('auth profile openai:b');
    expect((await say(session, 'after reset')).profile).toBe('openai:b');
    await say(session, '/model anthropic/claude-b');
    const entry = (await fixture.admin('GET', `/admin/sessions/${session}`)).json as { session: Record<string, unknown> };
    expect(entry.session['authProfileOverride']).toBeUndefined();
    expect(entry.session['modelOverride']).toBe('claude-b');
    expect(entry.session['modelOverrideSource']).toBe('user');
  });

  it('a command without a session explains the header; an unknown profile is answered in words', async () => {
    expect((await say(undefined, '/model backup/model-c')).text).toContain('x-understudy-session');
    expect((await say(newSession(), '/model openai/gpt-a@openai:nobody')).text).toContain('profiles of openai: openai:a, openai:b');
  });

  it('notices once per state change in direct chats, the cleared notice on recovery, none in group chats', async () => {
    const session = newSession();
    await fixture.emulator.setScript({ routes: [failing('gpt-a')] });
    const first = await say(session, 'one');
    expect(first.fallback).toBe('rate_limit');
    expect(first.notice).toBe(fallbackNoticeText({ active: 'anthropic/claude-b', selected: 'openai/gpt-a', reason: 'rate_limit' }));
    const status = await say(session, '/status');
    expect(status.text).toContain('Active fallback: anthropic/claude-b (rate_limit)');
    expect(status.text).toContain('openai/gpt-a [blocked]');
    const second = await say(session, 'two');
    expect(second.model).toBe('anthropic/claude-b');
    expect(second.notice).toBeUndefined();

    await fixture.emulator.setScript({ routes: [] });
    await fixture.clearCooldowns();
    const recovered = await say(session, 'three');
    expect(recovered.model).toBe('openai/gpt-a');
    expect(recovered.notice).toBe(fallbackClearedNoticeText({ selected: 'openai/gpt-a', previous: 'anthropic/claude-b' }));

    const group = newSession();
    await fixture.emulator.setScript({ routes: [failing('gpt-a')] });
    const quiet = await say(group, 'group turn', { chatType: 'group' });
    expect(quiet.fallback).toBe('rate_limit');
    expect(quiet.notice).toBeUndefined();
  });

  it('answers a streamed command as an assistant stream', async () => {
    const stream = await openai.chat.completions.create(
      { model: 'default', stream: true, messages: [{ role: 'user', content: '/status' }] },
      { headers: { 'x-understudy-session': newSession() } },
    );
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toContain('Model: openai/gpt-a (configured default)');
  });

  it('runs an agent named in the model field with that agent’s own (strict) model', async () => {
    const answer = await say(undefined, 'agent turn', { model: 'coder' });
    expect(answer.model).toBe('backup/model-c');
  });
});

describe('admin API', () => {
  const adminFetch = (endpoint: string, token?: string) =>
    fetch(`${fixture.gateway.url}${endpoint}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

  it('needs the admin token', async () => {
    expect((await adminFetch('/admin/status')).status).toBe(401);
    expect((await adminFetch('/admin/status', 'wrong-token')).status).toBe(401);
    const ok = await adminFetch('/admin/status', ADMIN_TOKEN);
    expect(ok.status).toBe(200);
    const status = (await ok.json()) as { status: string; agents: { id: string; chain: string[] }[] };
    expect(status.status).toBe('ok');
    expect(status.agents.find((agent) => agent.id === 'main')?.chain).toEqual(['openai/gpt-a', 'anthropic/claude-b', 'backup/model-c']);
  });

  it('lists profiles with their availability and never a secret; clear-cooldown makes a cooling profile available', async () => {
    await fixture.emulator.setScript({
      routes: [{ match: { model: 'gpt-a', key: KEYS.openaiA }, steps: [{ status: 429, headers: { 'retry-after': '600' }, body: 'rate limited' }] }],
    });
    await say(undefined, 'cool a down');
    const listed = await fixture.admin('GET', '/admin/profiles');
    const text = JSON.stringify(listed.json);
    for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
    const profiles = (listed.json as { profiles: { id: string; available: boolean; unavailable?: { reason: string } }[] }).profiles;
    expect(profiles.map((profile) => profile.id).sort()).toEqual(['anthropic:inline', 'backup:inline', 'openai:a', 'openai:b']);
    // Model-scoped rate limit: the profile as a whole is available, but /status shows the block on the chain.
    const status = await say(newSession(), '/status');
    expect(status.text).toContain('openai:a cooling down (rate_limit)');
    const cleared = await fixture.admin('POST', '/admin/profiles/openai:a/clear-cooldown');
    expect(cleared.status).toBe(200);
    expect((await say(newSession(), '/status')).text).toContain('Cooldowns: none block the chain');
    expect((await fixture.admin('POST', '/admin/profiles/openai:nobody/clear-cooldown')).status).toBe(404);
  });

  it('PATCH /admin/sessions/:key: a model change is a user override with a pending live switch', async () => {
    const session = newSession();
    const patched = await fixture.admin('PATCH', `/admin/sessions/${session}`, { model: 'claude', chatType: 'direct' });
    expect(patched.status).toBe(200);
    const entry = (patched.json as { session: Record<string, unknown> }).session;
    expect(entry).toMatchObject({ providerOverride: 'anthropic', modelOverride: 'claude-b', modelOverrideSource: 'user', chatType: 'direct' });
    expect(entry['pendingLiveSwitch']).toMatchObject({ provider: 'anthropic', model: 'claude-b' });
    expect((await say(session, 'patched')).model).toBe('anthropic/claude-b');
  });

  it('PATCH compactionCount releases an automatic auth pin; reset keeps a user pin', async () => {
    const session = newSession();
    await say(session, 'pick a profile');
    const before = ((await fixture.admin('GET', `/admin/sessions/${session}`)).json as { session: Record<string, unknown> }).session;
    expect(before['authProfileOverride']).toBe('openai:a');
    expect(before['authProfileOverrideSource']).toBe('auto');
    const patched = ((await fixture.admin('PATCH', `/admin/sessions/${session}`, { compactionCount: 1 })).json as { session: Record<string, unknown> }).session;
    expect(patched['compactionCount']).toBe(1);
    expect(patched['authProfileOverride']).toBeUndefined();

    const user = newSession();
    await fixture.admin('PATCH', `/admin/sessions/${user}`, { model: 'openai/gpt-a@openai:b' });
    const reset = await fixture.admin('POST', `/admin/sessions/${user}/reset`);
    expect((reset.json as { session: Record<string, unknown> }).session).toMatchObject({ authProfileOverride: 'openai:b', authProfileOverrideSource: 'user' });
  });

  it('rejects unknown patch fields and unknown sessions with clear messages', async () => {
    const bad = await fixture.admin('PATCH', `/admin/sessions/${newSession()}`, { modle: 'x' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('modle');
    expect((await fixture.admin('GET', '/admin/sessions/never-seen')).status).toBe(404);
    expect((await fixture.admin('POST', '/admin/sessions/never-seen/reset')).status).toBe(404);
  });
});

describe('metrics and health', () => {
  it('exposes requests, attempts by reason, fallbacks, active cooldowns and the overhead histogram', async () => {
    await fixture.emulator.setScript({ routes: [failing('gpt-a')] });
    await say(undefined, 'count me');
    const metrics = await (await fetch(`${fixture.gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/understudy_requests_total\{route="chat_completions",status="200"\} \d+/);
    expect(metrics).toMatch(/understudy_attempts_total\{provider="openai",kind="call",reason="rate_limit"\} \d+/);
    expect(metrics).toMatch(/understudy_fallbacks_total\{reason="rate_limit"\} \d+/);
    expect(metrics).toMatch(/understudy_active_cooldowns\{agent="main",provider="openai",lane="cooldown"\} [1-9]/);
    expect(metrics).toContain('understudy_gateway_overhead_seconds_bucket');
    expect(metrics).toContain('understudy_upstream_duration_seconds_bucket');
    expect((await fetch(`${fixture.gateway.url}/healthz`)).status).toBe(200);
  });
});

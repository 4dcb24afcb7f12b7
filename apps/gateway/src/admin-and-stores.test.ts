/**
 * Breaker findings F2, F3, F8 and F10 against an in-process gateway: a corrupted agent database is a 503 naming
 * `understudy doctor` (in both wire formats), `/admin/status` still reports the healthy agents, and the log
 * carries the real cause; malformed profile ids and session keys in admin paths are 400s; `/model x@typo` says
 * the profile does not exist instead of selecting a model named `x@typo`.
 */
import fs from 'node:fs';
import { openAuthProfileStore, statePathsUnder } from '@understudy/auth-profile-store';
import { Secret } from '@understudy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InProcessGateway } from './test-support/in-process-gateway.js';
import { startInProcessGateway } from './test-support/in-process-gateway.js';

const INLINE_KEY = 'sk-test-inproc-inline-zzzz';
const STORED_KEY = 'sk-test-inproc-stored-yyyy';

let gateway: InProcessGateway;

/** Writes garbage over agent `coder`'s database, as a crashed disk or a stray copy would. */
async function breakCoderStore(stateDir: string): Promise<void> {
  const store = await openAuthProfileStore({ stateDir, agentId: 'coder' });
  await store.close();
  const { databasePath } = statePathsUnder(stateDir, 'coder');
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${databasePath}${suffix}`, { force: true });
  fs.writeFileSync(databasePath, Buffer.alloc(20_000, 0x5a));
}

beforeAll(async () => {
  gateway = await startInProcessGateway({
    config: {
      models: { providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', apiKey: INLINE_KEY, models: ['gpt-a', 'claude@20240620'] } } },
      agents: { defaults: { model: 'openai/gpt-a' }, entries: { coder: { model: 'openai/gpt-a' } } },
    },
    prepare: async (stateDir) => {
      const store = await openAuthProfileStore({ stateDir, agentId: 'main' });
      await store.upsertProfile({ id: 'openai:work', credential: { type: 'api_key', provider: 'openai', key: new Secret(STORED_KEY) } });
      await store.close();
      await breakCoderStore(stateDir);
    },
  });
});

afterAll(async () => {
  await gateway?.stop();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('a corrupted agent database (F2)', () => {
  it('answers 503 store_unavailable naming the agent and `understudy doctor`, in each wire format', async () => {
    const openai = await post('/v1/chat/completions', { model: 'coder', messages: [{ role: 'user', content: 'x' }] });
    expect(openai.status).toBe(503);
    expect(openai.json['error']).toMatchObject({ code: 'store_unavailable', message: expect.stringContaining('state store unavailable for agent coder: run `understudy doctor --agent coder`') });
    const anthropic = await post('/v1/messages', { model: 'coder', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(anthropic.status).toBe(503);
    expect(anthropic.json).toMatchObject({ type: 'error', error: { message: expect.stringContaining('understudy doctor --agent coder') } });
    // The client never sees the database path or SQLite's words.
    expect(JSON.stringify([openai.json, anthropic.json])).not.toContain(gateway.stateDir);
  });

  it('logs the real cause (code and message at error, the stack at debug) and no secret', async () => {
    await post('/v1/chat/completions', { model: 'coder', messages: [{ role: 'user', content: 'log me' }] });
    const lines = gateway.logLines();
    const failure = lines.find((line) => line['level'] === 50 && String(line['msg']).includes('state store unavailable for agent coder'));
    expect(failure).toMatchObject({ path: '/v1/chat/completions' });
    expect(JSON.stringify(failure)).toMatch(/SQLITE_NOTADB|file is not a database/);
    const stack = lines.find((line) => line['level'] === 20 && line['msg'] === 'state store failure (stack)') as { err?: { stack?: string; type?: string } } | undefined;
    expect(stack?.err?.stack).toMatch(/\n\s+at /);
    for (const secret of [INLINE_KEY, STORED_KEY]) expect(gateway.logText()).not.toContain(secret);
  });

  it('keeps /admin/status reporting the healthy agents and marks the broken one', async () => {
    const { status, json } = await gateway.admin('GET', '/admin/status');
    expect(status).toBe(200);
    const agents = (json as { agents: Record<string, unknown>[] }).agents;
    expect(agents.find((agent) => agent['id'] === 'main')).toMatchObject({ store: 'ok', profiles: expect.arrayContaining([expect.objectContaining({ id: 'openai:work' })]) });
    expect(agents.find((agent) => agent['id'] === 'coder')).toMatchObject({ store: 'unavailable', code: 'store_unavailable', problem: expect.stringContaining('understudy doctor --agent coder') });
  });

  it('answers the broken agent’s admin endpoints 503, and serves it again once the file is fixed, without a restart', async () => {
    expect((await gateway.admin('GET', '/admin/profiles?agent=coder')).status).toBe(503);
    const { databasePath } = statePathsUnder(gateway.stateDir, 'coder');
    fs.rmSync(databasePath);
    expect((await gateway.admin('GET', '/admin/profiles?agent=coder')).status).toBe(200);
    await breakCoderStore(gateway.stateDir);
  });
});

describe('admin path parameters', () => {
  // F3: a malformed profile id is the caller's mistake (400 naming the rule), an unknown well-formed one a 404.
  it.each(['openai', ':x', 'a%2Fb', '..%2F..%2Fetc', 'openai%3A', `openai%3A${'x'.repeat(300)}`, 'openai%3Ab%00'])('clear-cooldown of %s is a 400', async (segment) => {
    const { status, json } = await gateway.admin('POST', `/admin/profiles/${segment}/clear-cooldown`);
    expect(status).toBe(400);
    expect(json).toMatchObject({ error: { code: 'invalid_profile_id', message: expect.stringContaining('provider:name') } });
  });

  it('clear-cooldown of an unknown well-formed id is a 404, of a stored one a 200', async () => {
    expect((await gateway.admin('POST', '/admin/profiles/openai%3Anope/clear-cooldown')).status).toBe(404);
    expect((await gateway.admin('POST', '/admin/profiles/openai%3Awork/clear-cooldown')).status).toBe(200);
  });

  // F8: the admin API takes the same session keys as x-understudy-session (1-256 printable ASCII).
  it.each(['k'.repeat(300), '%00', '%0Aabc', '%C3%A9t%C3%A9', '%20lead'])('PATCH /admin/sessions/%s is a 400', async (segment) => {
    const { status, json } = await gateway.admin('PATCH', `/admin/sessions/${segment.slice(0, 400)}`, {});
    expect(status).toBe(400);
    expect(json).toMatchObject({ error: { code: 'invalid_session_key' } });
  });

  it('accepts a key the chat header accepts', async () => {
    expect((await gateway.admin('PATCH', `/admin/sessions/${'k'.repeat(256)}`, {})).status).toBe(200);
    expect((await gateway.admin('PATCH', '/admin/sessions/chat%20with%20spaces', {})).status).toBe(200);
  });
});

describe('/model with an @profile that does not exist (F10)', () => {
  async function command(session: string, text: string): Promise<string> {
    const { status, json } = await post('/v1/chat/completions', { model: 'default', messages: [{ role: 'user', content: text }] }, { 'x-understudy-session': session });
    expect(status).toBe(200);
    return ((json['choices'] as { message: { content: string } }[])[0] as { message: { content: string } }).message.content;
  }

  it('says the profile does not exist and selects nothing', async () => {
    const text = await command('typo-1', '/model openai/x@typo');
    expect(text).toContain('auth profile "openai:typo" does not exist');
    expect(text).toContain('openai:work');
    expect(text).toContain('models.providers.openai.models');
    expect((await gateway.admin('GET', '/admin/sessions/typo-1')).status).toBe(404);
  });

  it('says nothing follows a trailing @', async () => {
    expect(await command('typo-2', '/model openai/x@')).toContain('nothing follows the "@"');
    expect(await command('typo-2', '/model openai/x@@@')).toContain('nothing follows the "@"');
    expect((await gateway.admin('GET', '/admin/sessions/typo-2')).status).toBe(404);
  });

  it('still reads a configured model id holding @ as a model, and a real profile as a pin', async () => {
    expect(await command('typo-3', '/model openai/claude@20240620')).toContain('Model set to openai/claude@20240620');
    expect(await command('typo-4', '/model openai/gpt-a@work')).toContain('Auth profile openai:work is now pinned');
  });
});

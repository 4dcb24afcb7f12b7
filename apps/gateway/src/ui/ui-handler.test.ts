/**
 * The status page's access rules over real HTTP (docs/contracts.md#status-page): the login form without a session,
 * the cookie and its flags, logout, the CSRF token and Origin check on actions, 404 with the admin API off, and
 * no secret of the fixture (provider keys, stored credentials, the admin token) in any `/ui` answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, KEYS, fixtureConfig, seedProfiles } from '../test-support/e2e-fixture.js';
import type { InProcessGateway } from '../test-support/in-process-gateway.js';
import { startInProcessGateway } from '../test-support/in-process-gateway.js';
import type { EmulatorProcess } from '../test-support/processes.js';
import { startEmulator } from '../test-support/processes.js';

let emulator: EmulatorProcess;
let gateway: InProcessGateway;

beforeAll(async () => {
  emulator = await startEmulator({ routes: [{ match: { model: 'gpt-a' }, steps: [{ status: 429, body: { error: { message: 'slow down', code: 'rate_limit_exceeded' } } }] }] });
  const config = fixtureConfig(emulator.url) as { models: { providers: Record<string, Record<string, unknown>> } };
  // The in-process gateway parses the config as given: the key the fixture reads from the environment is inline here.
  config.models.providers['anthropic'] = { ...config.models.providers['anthropic'], apiKey: KEYS.anthropic };
  gateway = await startInProcessGateway({ config, prepare: seedProfiles, logLevel: 'warn' });
});

afterAll(async () => {
  await gateway?.stop();
  await emulator?.stop();
});

async function login(token = ADMIN_TOKEN): Promise<Response> {
  return fetch(`${gateway.url}/ui/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: gateway.url },
    body: new URLSearchParams({ token }).toString(),
    redirect: 'manual',
  });
}

async function cookie(): Promise<string> {
  const response = await login();
  expect(response.status).toBe(303);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function state(sessionCookie: string): Promise<{ csrfToken: string } & Record<string, unknown>> {
  const response = await fetch(`${gateway.url}/ui/api/state`, { headers: { cookie: sessionCookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as { csrfToken: string };
}

function action(sessionCookie: string, headers: Record<string, string>, body: unknown = { agent: 'main', profile: 'openai:a' }): Promise<Response> {
  return fetch(`${gateway.url}/ui/api/clear-cooldown`, {
    method: 'POST',
    headers: { cookie: sessionCookie, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('the status page login', () => {
  it('shows the login form (401) and refuses the data without a session', async () => {
    const page = await fetch(`${gateway.url}/ui`);
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/ui/login">');
    expect(html).not.toContain('app.js');
    const data = await fetch(`${gateway.url}/ui/api/state`);
    expect(data.status).toBe(401);
    expect(await data.json()).toMatchObject({ error: { code: 'ui_login_required' } });
    // The admin token as a bearer header is no session either: the page keeps to its cookie.
    expect((await fetch(`${gateway.url}/ui/api/state`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(401);
  });

  it('answers a wrong token with the form again and no cookie', async () => {
    const response = await login('admin-test-token-wrong');
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.text()).toContain('not the admin token');
  });

  it('sets an HttpOnly, SameSite=Strict cookie on /ui that is not the token, and serves the page with it', async () => {
    const response = await login();
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/ui');
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^understudy_ui=[\w-]+\.[\w-]+; HttpOnly; SameSite=Strict; Path=\/ui; Max-Age=28800$/);
    expect(setCookie).not.toContain(ADMIN_TOKEN);
    const sessionCookie = setCookie.split(';')[0] ?? '';
    const page = await fetch(`${gateway.url}/ui`, { headers: { cookie: sessionCookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="/ui/app.js" defer></script>');
    expect((await state(sessionCookie)).csrfToken).toMatch(/^[\w-]{20,}$/);
    expect((await fetch(`${gateway.url}/ui/api/state`, { headers: { cookie: `${sessionCookie}x` } })).status).toBe(401);
  });

  it('ends the session on logout: the old cookie is refused after', async () => {
    const sessionCookie = await cookie();
    const response = await fetch(`${gateway.url}/ui/logout`, { method: 'POST', headers: { cookie: sessionCookie, origin: gateway.url }, redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie')).toBe('understudy_ui=; HttpOnly; SameSite=Strict; Path=/ui; Max-Age=0');
    expect((await fetch(`${gateway.url}/ui/api/state`, { headers: { cookie: sessionCookie } })).status).toBe(401);
  });

  it('refuses a login posted from another origin', async () => {
    const response = await fetch(`${gateway.url}/ui/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
      body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
      redirect: 'manual',
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('status page actions', () => {
  it('needs the session and its CSRF token, from its own origin; then clears the cooldown through the admin operation', async () => {
    // A turn whose primary answers 429 on both profiles: both cool down, the fallback answers.
    const chat = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(chat.status).toBe(200);
    const sessionCookie = await cookie();
    const before = (await state(sessionCookie)) as unknown as { csrfToken: string; gateway: { agents: { id: string; profiles: { id: string; available: boolean }[] }[] } };
    const profiles = before.gateway.agents.find((agent) => agent.id === 'main')?.profiles ?? [];
    expect(profiles.find((profile) => profile.id === 'openai:a')?.available).toBe(false);

    expect((await action('', { 'x-understudy-csrf': before.csrfToken })).status).toBe(401);
    const noToken = await action(sessionCookie, {});
    expect(noToken.status).toBe(403);
    expect(await noToken.json()).toMatchObject({ error: { code: 'csrf_token_missing' } });
    expect((await action(sessionCookie, { 'x-understudy-csrf': `${before.csrfToken}x` })).status).toBe(403);
    expect((await action(sessionCookie, { 'x-understudy-csrf': before.csrfToken, origin: 'http://evil.example' })).status).toBe(403);
    expect((await action(sessionCookie, { 'x-understudy-csrf': before.csrfToken }, { agent: 'main', profile: 'openai:nope' })).status).toBe(404);
    expect((await action(sessionCookie, { 'x-understudy-csrf': before.csrfToken }, { agent: 'nobody', profile: 'openai:a' })).status).toBe(404);

    const cleared = await action(sessionCookie, { 'x-understudy-csrf': before.csrfToken, origin: gateway.url });
    expect(cleared.status).toBe(200);
    const after = (await state(sessionCookie)) as unknown as typeof before;
    expect(after.gateway.agents.find((agent) => agent.id === 'main')?.profiles.find((profile) => profile.id === 'openai:a')?.available).toBe(true);

    const reset = await fetch(`${gateway.url}/ui/api/reset-session`, {
      method: 'POST',
      headers: { cookie: sessionCookie, 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'main', session: 'chat-1' }),
    });
    expect(reset.status).toBe(403);
  });

  it('shows no secret: no provider key, stored credential or admin token in any /ui answer', async () => {
    const sessionCookie = await cookie();
    const bodies: string[] = [];
    for (const endpoint of ['/ui', '/ui/app.js', '/ui/app.css', '/ui/api/state']) {
      const response = await fetch(`${gateway.url}${endpoint}`, { headers: { cookie: sessionCookie } });
      expect(response.status).toBe(200);
      bodies.push(await response.text());
    }
    bodies.push(await (await fetch(`${gateway.url}/ui`)).text(), await (await login('sk-test-openai-key-aaaa')).text());
    const seen = JSON.parse(bodies[3] ?? '{}') as { decisions: unknown[]; providerFigures: unknown[] };
    // The state is not empty: the fallback of the previous test is in it.
    expect(seen.decisions.length).toBeGreaterThan(0);
    expect(seen.providerFigures.length).toBeGreaterThan(0);
    for (const body of bodies) {
      for (const secret of [...Object.values(KEYS), ADMIN_TOKEN]) expect(body).not.toContain(secret);
      expect(body).not.toMatch(/sk-test-/);
    }
  });
});

describe('with the admin API off', () => {
  it('answers 404 under /ui', async () => {
    const off = await startInProcessGateway({ config: { gateway: { auth: {} } }, logLevel: 'warn' });
    try {
      const response = await fetch(`${off.url}/ui`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'admin_disabled' } });
      expect((await fetch(`${off.url}/ui/login`, { method: 'POST', body: 'token=x' })).status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});

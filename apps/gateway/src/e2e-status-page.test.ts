/**
 * End to end in a browser: Debian's Chromium (headless, driven by playwright-core) against the built gateway and
 * the provider emulator (docs/operations.md#status-page). The emulator answers 429 for the primary: the page shows
 * both OpenAI profiles cooling down with a countdown, the fallback decision in the timeline and the fallback as
 * the model answering now; "Clear cooldown", confirmed, brings the profile back to ok. Without a login the page
 * shows only the form. A screenshot is kept in apps/gateway/test-artifacts/ (git-ignored).
 *
 * With CI=true a missing browser fails the suite; elsewhere it is skipped with the reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from './test-support/e2e-fixture.js';
import { ADMIN_TOKEN, KEYS, startFixture } from './test-support/e2e-fixture.js';

/** Debian's Chromium (`apt-get install chromium`). */
const CHROMIUM = process.env['UNDERSTUDY_CHROMIUM'] ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../test-artifacts');
const haveChromium = fs.existsSync(CHROMIUM);
const inCi = process.env['CI'] === 'true';

if (!haveChromium && !inCi) {
  process.stderr.write(`e2e-status-page: skipped — no Chromium at ${CHROMIUM} (apt-get install chromium, or set UNDERSTUDY_CHROMIUM)\n`);
}

describe.skipIf(!haveChromium && !inCi)('the status page in a browser', () => {
  let fixture: Fixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`CI=true and no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package`);
    fixture = await startFixture({
      script: { routes: [{ match: { model: 'gpt-a' }, steps: [{ status: 429, body: { error: { message: 'slow down', code: 'rate_limit_exceeded' } } }] }] },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
    page.setDefaultTimeout(8000);
    // Every confirmation the page asks for is accepted, as an operator who means it would.
    page.on('dialog', (dialog) => void dialog.accept());
  });

  afterAll(async () => {
    await browser?.close();
    await fixture?.stop();
  });

  it('refuses without the token: the login form, no data', async () => {
    const response = await page.goto(`${fixture.gateway.url}/ui`);
    expect(response?.status()).toBe(401);
    await expect.poll(() => page.locator('input[name=token]').count()).toBe(1);
    expect(await page.locator('#agents').count()).toBe(0);
    await page.fill('input[name=token]', 'not-the-token');
    await page.click('button[type=submit]');
    await page.waitForSelector('text=not the admin token');
  });

  it('shows a cooldown with its countdown, the fallback event and the model answering, and clears the cooldown', async () => {
    await page.goto(`${fixture.gateway.url}/ui`);
    await page.fill('input[name=token]', ADMIN_TOKEN);
    await Promise.all([page.waitForURL(`${fixture.gateway.url}/ui`), page.click('button[type=submit]')]);
    await page.waitForSelector('#agents article');

    const chat = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'are you there?' }] }),
    });
    expect(chat.status).toBe(200);
    expect(chat.headers.get('x-understudy-model')).toBe('anthropic/claude-b');

    const row = (profile: string) => page.locator('#agents tr', { has: page.locator(`code:text-is("${profile}")`) }).first();
    // Cooling, with a countdown m:ss and the time it ends and why.
    await expect.poll(() => row('openai:a').innerText(), { timeout: 5000 }).toMatch(/cooling · 0:[0-5]\d[\s\S]*until \d\d:\d\d:\d\d · rate_limit/);
    const first = await row('openai:a').locator('[data-until]').innerText();
    await expect.poll(() => row('openai:a').locator('[data-until]').innerText(), { timeout: 4000 }).not.toBe(first);
    await expect.poll(() => page.locator('#agents article').first().innerText()).toContain('Answering now: anthropic/claude-b');
    await expect.poll(() => page.locator('#agents li.answering').first().innerText()).toContain('anthropic/claude-b');

    const timeline = page.locator('#timeline');
    await expect.poll(() => timeline.innerText()).toMatch(/candidate failed\s+openai\/gpt-a[\s\S]*rate_limit 429/);
    await expect.poll(() => timeline.innerText()).toContain('candidate succeeded');
    // The filters: the answering fallback's event is anthropic's, so filtering on openai leaves only the failure.
    await page.selectOption('#filter-provider', 'openai');
    await expect.poll(() => timeline.innerText()).not.toContain('candidate succeeded');
    expect(await timeline.innerText()).toContain('candidate failed');
    await page.selectOption('#filter-provider', '');
    await page.selectOption('#filter-reason', 'rate_limit');
    await expect.poll(() => timeline.innerText()).toContain('candidate succeeded');
    await page.selectOption('#filter-reason', '');
    await expect.poll(() => page.locator('#providers').innerText()).toMatch(/openai[\s\S]*0\.0 %/);

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'status-page-cooldown.png'), fullPage: true });

    await row('openai:a').locator('button', { hasText: 'Clear cooldown' }).click();
    await expect.poll(() => row('openai:a').innerText(), { timeout: 5000 }).toMatch(/\bok\b/);
    expect(await row('openai:a').locator('button').count()).toBe(0);
    // The other profile is still cooling: only the one asked for was cleared.
    expect(await row('openai:b').innerText()).toContain('cooling');
    await expect.poll(() => page.locator('#action-result').innerText()).toContain('Cleared the cooldown of openai:a');
    await page.screenshot({ path: path.join(ARTIFACTS, 'status-page-cleared.png'), fullPage: true });

    // No secret reached the page.
    const html = await page.content();
    for (const secret of [...Object.values(KEYS), ADMIN_TOKEN]) expect(html).not.toContain(secret);
  });
});

/**
 * `/metrics` answers "is my fallback working?" (docs/operations.md#observability): against the real gateway
 * and the emulator, a scripted 429 on the primary, the fallback answering, a probe of the cooled profile that
 * succeeds, and the series that tell it — fallbacks by from/to/reason, cooldowns by reason, the window opened,
 * the probe's outcome and the recovery time — with bounded labels. And the ready-made Grafana dashboard
 * (docs/grafana/understudy-dashboard.json) queries only series this gateway exposes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from './test-support/e2e-fixture.js';
import { startFixture } from './test-support/e2e-fixture.js';

const RATE_LIMIT = { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached for gpt-a', type: 'requests', code: 'rate_limit_exceeded' } } };
const PROBE_THROTTLE_MS = 300;

let fixture: Fixture;

beforeAll(async () => {
  fixture = await startFixture({
    script: { routes: [{ match: { api: 'openai-completions', model: 'gpt-a' }, steps: [RATE_LIMIT, { ok: true }] }] },
    config: (base) => ({
      ...base,
      retry: { provider: { maxRetries: 0 } },
      auth: { order: { openai: ['openai:a'] }, cooldowns: { rateLimitedProfileRotations: 0, cooldownStepsMs: [20_000, 40_000, 60_000], probeThrottleMs: PROBE_THROTTLE_MS } },
    }),
  });
});

afterAll(async () => {
  await fixture?.stop();
});

async function ask(model: string): Promise<Response> {
  const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-understudy-session': `metrics-${Math.random()}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'is my fallback working?' }] }),
  });
  await response.text();
  return response;
}

async function scrape(): Promise<string> {
  return (await fetch(`${fixture.gateway.url}/metrics`)).text();
}

/** The value of one series, `undefined` when it is not exposed. */
function value(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('429 → fallback → recovery, as /metrics tells it', () => {
  let during: string;
  let after: string;

  beforeAll(async () => {
    const first = await ask('default');
    expect(first.headers.get('x-understudy-fallback')).toBe('rate_limit');
    during = await scrape();
    // The throttle lets the next request probe the cooled primary, which now answers.
    await new Promise((resolve) => setTimeout(resolve, PROBE_THROTTLE_MS + 100));
    const second = await ask('default');
    expect(second.headers.get('x-understudy-model')).toBe('openai/gpt-a');
    after = await scrape();
  });

  it('counts the fallback by from, to and reason (and keeps understudy_fallbacks_total{reason})', () => {
    expect(value(during, 'understudy_fallback_transitions_total{from="openai/gpt-a",to="anthropic/claude-b",reason="rate_limit"}')).toBe(1);
    expect(value(during, 'understudy_fallbacks_total{reason="rate_limit"}')).toBe(1);
  });

  it('shows the active cooldown by provider, lane and reason while it lasts, and not after the probe cleared it', () => {
    expect(value(during, 'understudy_cooldowns_by_reason{provider="openai",lane="cooldown",reason="rate_limit"}')).toBe(1);
    expect(value(during, 'understudy_active_cooldowns{agent="main",provider="openai",lane="cooldown"}')).toBe(1);
    expect(value(after, 'understudy_cooldowns_by_reason{provider="openai",lane="cooldown",reason="rate_limit"}')).toBeUndefined();
  });

  it('records the window opened: one 20 s cooldown for rate_limit', () => {
    const labels = 'provider="openai",lane="cooldown",reason="rate_limit"';
    expect(value(during, `understudy_cooldown_window_seconds_count{${labels}}`)).toBe(1);
    const seconds = value(during, `understudy_cooldown_window_seconds_sum{${labels}}`) ?? 0;
    expect(seconds).toBeGreaterThan(19);
    expect(seconds).toBeLessThanOrEqual(20);
  });

  it('counts the probe that succeeded and observes the recovery time', () => {
    expect(value(during, 'understudy_probes_total{provider="openai",outcome="success"}')).toBeUndefined();
    expect(value(after, 'understudy_probes_total{provider="openai",outcome="success"}')).toBe(1);
    expect(value(after, 'understudy_recovery_seconds_count{provider="openai",reason="rate_limit"}')).toBe(1);
    const seconds = value(after, 'understudy_recovery_seconds_sum{provider="openai",reason="rate_limit"}') ?? 0;
    expect(seconds).toBeGreaterThanOrEqual(PROBE_THROTTLE_MS / 1000);
    expect(seconds).toBeLessThan(20);
  });

  it('bounds the model labels to the configured models', async () => {
    await fixture.emulator.setScript({ routes: [{ match: { api: 'openai-completions', model: 'made-up-model' }, steps: [{ status: 500, body: { error: { message: 'boom' } } }] }] });
    await ask('openai/made-up-model');
    const metrics = await scrape();
    expect(metrics).not.toContain('made-up-model');
    for (const line of metrics.split('\n').filter((candidate) => candidate.startsWith('understudy_fallback_transitions_total{'))) {
      expect(line).toMatch(/from="(openai\/gpt-a|openai\/other)",to="(anthropic\/claude-b|backup\/model-c|openai\/gpt-a)"/);
    }
  });
});

describe('the Grafana dashboard (docs/grafana/understudy-dashboard.json)', () => {
  const file = path.resolve(import.meta.dirname, '../../../docs/grafana/understudy-dashboard.json');
  const dashboard = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    templating: { list: { name: string; type: string; query?: unknown }[] };
    panels: { type: string; title: string; datasource?: { uid?: string }; targets?: { expr: string; datasource?: { uid?: string } }[] }[];
  };
  const queried = dashboard.panels.filter((panel) => panel.type !== 'row');

  it('takes its Prometheus datasource as a variable, in every panel and query', () => {
    expect(dashboard.templating.list.find((variable) => variable.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(queried.length).toBeGreaterThan(0);
    for (const panel of queried) {
      expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(target.datasource?.uid, panel.title).toBe('${datasource}');
    }
  });

  it('queries only metrics that /metrics exposes', async () => {
    const metrics = await scrape();
    const exposed = new Set([...metrics.matchAll(/^# TYPE (\S+) (\w+)$/gm)].map((match) => `${match[1]} ${match[2]}`));
    const names = new Set(queried.flatMap((panel) => (panel.targets ?? []).flatMap((target) => [...target.expr.matchAll(/\bunderstudy_[a-z_]+/g)].map((match) => match[0]))));
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) {
      const histogram = /_(bucket|sum|count)$/.test(name) ? name.replace(/_(bucket|sum|count)$/, '') : undefined;
      const found = histogram === undefined ? ['counter', 'gauge'].some((type) => exposed.has(`${name} ${type}`)) : exposed.has(`${histogram} histogram`);
      expect(found, name).toBe(true);
    }
    // The questions the dashboard answers have their series.
    for (const name of ['understudy_fallback_transitions_total', 'understudy_cooldowns_by_reason', 'understudy_probes_total', 'understudy_recovery_seconds_bucket', 'understudy_cooldown_window_seconds_sum']) {
      expect(names.has(name), name).toBe(true);
    }
  });
});

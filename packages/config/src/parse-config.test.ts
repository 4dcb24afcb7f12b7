import { describe, expect, it } from 'vitest';
import type { UnderstudyConfig } from './index.js';
import { ConfigError, configJsonSchema, formatConfigPath, parseConfig, safeParseConfig } from './index.js';

function issuesOf(input: unknown): { path: string; message: string }[] {
  const result = safeParseConfig(input);
  if (result.success) throw new Error('expected the config to be rejected');
  return [...result.error.issues];
}

const get = (config: UnderstudyConfig, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], config);

describe('defaults (docs/configuration.md, docs/policy.md)', () => {
  const config = parseConfig({});
  it.each([
    ['gateway.host', '127.0.0.1'],
    ['gateway.port', 4317],
    ['gateway.maxRequestBytes', 1_048_576],
    ['gateway.turnTimeoutMs', 600_000],
    ['gateway.shutdownGraceMs', 10_000],
    ['gateway.logLevel', 'info'],
    ['retry.provider.maxRetries', 3],
    ['retry.provider.baseDelayMs', 250],
    ['retry.provider.maxDelayMs', 5_000],
    ['retry.provider.windowMs', 90_000],
    ['retry.provider.maxRetryAfterWaitMs', 5_000],
    ['gateway.streams.continueAfterOutput', true],
    ['auth.cooldowns.timeoutProfileRotations', 1],
    ['models.timeouts.connectMs', 10_000],
    ['models.timeouts.requestMs', 300_000],
    ['auth.cooldowns.preset', 'default'],
    ['auth.cooldowns.cooldownStepsMs', [30_000, 60_000, 300_000]],
    ['auth.cooldowns.billingBackoffHours', 1 / 6],
    ['auth.cooldowns.overloadedProfileRotations', 1],
    ['auth.profiles', {}],
    ['auth.order', {}],
    ['agents.defaults.models', {}],
    ['agents.entries', {}],
    ['models.providers', {}],
    ['state', {}],
    ['session', {}],
    ['telemetry', { otlp: {}, serviceName: 'understudy-gateway' }],
  ])('%s defaults to %j', (path, expected) => {
    expect(get(config, path)).toEqual(expected);
  });

  it('treats a missing file (undefined or null) as all defaults', () => {
    expect(parseConfig(undefined)).toEqual(config);
    expect(parseConfig(null)).toEqual(config);
  });

  it('returns a deep-frozen value', () => {
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.auth.cooldowns.cooldownStepsMs)).toBe(true);
    expect(Object.isFrozen(config.gateway.auth)).toBe(true);
  });

  it('applies the legacy cooldown preset', () => {
    expect(parseConfig({ auth: { cooldowns: { preset: 'legacy' } } }).auth.cooldowns).toMatchObject({
      cooldownStepsMs: [60_000, 300_000, 1_500_000, 3_600_000],
      billingBackoffHours: 5,
      billingMaxHours: 24,
    });
  });
});

describe('a full config', () => {
  const config = parseConfig({
    $schema: './understudy.schema.json',
    auth: {
      profiles: {
        'OpenAI:user@example.com': { provider: 'OpenAI', mode: 'oauth', email: 'user@example.com' },
        'openai:backup': { provider: 'openai', mode: 'api_key' },
      },
      order: { OpenAI: ['openai:user@example.com', 'OPENAI:backup'] },
      cooldowns: { billingBackoffHoursByProvider: { Anthropic: 1 }, rateLimitedProfileRotations: 2 },
    },
    agents: {
      defaults: {
        model: { primary: 'openai/gpt-main', fallbacks: ['anthropic/claude-fb', 'fast'] },
        imageModel: 'openai/gpt-vision',
        models: { 'google/gemini-flash': { alias: 'fast' }, 'openai/gpt-main': {} },
      },
      entries: { main: { model: { primary: 'fast', fallbacks: [] } }, 'ops.bot-2': { model: 'anthropic/claude-ops' } },
    },
    retry: { provider: { maxRetries: 5 } },
    models: {
      providers: {
        OpenAI: { baseUrl: 'https://api.openai.com/v1', api: 'openai-completions', apiKey: 'sk-inline', headers: { 'x-a': '1' } },
        local: { baseUrl: 'http://127.0.0.1:11434/v1', api: 'openai-completions', models: ['qwen'], timeouts: { firstTokenMs: 5_000 } },
      },
      timeouts: { stallMs: 30_000 },
    },
    gateway: { host: '0.0.0.0', port: 8080, auth: { token: 't', adminToken: 'a' }, logLevel: 'debug' },
    state: { dir: '/var/lib/understudy', postgres: { url: 'postgres://u@db:5432/understudy' } },
    session: { fallbackSkipTtlMs: 60_000 },
  });

  it('normalises profile ids and provider ids', () => {
    expect(Object.keys(config.auth.profiles)).toEqual(['openai:user@example.com', 'openai:backup']);
    expect(config.auth.profiles['openai:user@example.com']?.provider).toBe('openai');
    expect(config.auth.order).toEqual({ openai: ['openai:user@example.com', 'openai:backup'] });
    expect(config.auth.cooldowns.billingBackoffHoursByProvider).toEqual({ anthropic: 1 });
    expect(Object.keys(config.models.providers)).toEqual(['openai', 'local']);
  });

  it('keeps model refs as written (the chain builder resolves them) and fills nested defaults', () => {
    expect(config.agents.defaults.model).toEqual({ primary: 'openai/gpt-main', fallbacks: ['anthropic/claude-fb', 'fast'] });
    expect(config.retry.provider).toEqual({ maxRetries: 5, baseDelayMs: 250, maxDelayMs: 5_000, windowMs: 90_000, maxRetryAfterWaitMs: 5_000 });
    expect(config.models.timeouts.stallMs).toBe(30_000);
    expect(config.models.timeouts.connectMs).toBe(10_000);
    expect(config.models.providers['local']?.timeouts).toEqual({ firstTokenMs: 5_000 });
    expect(config.gateway).toMatchObject({ host: '0.0.0.0', port: 8080, logLevel: 'debug', maxRequestBytes: 1_048_576 });
    expect(config.state.postgres?.url).toBe('postgres://u@db:5432/understudy');
  });
});

describe('errors name the path and the fix (unknown keys are errors)', () => {
  it.each<[string, unknown, string, RegExp]>([
    ['an unknown top-level key', { gatway: {} }, 'gatway', /unknown key/],
    ['an unknown nested key', { gateway: { auth: { tokn: 'x' } } }, 'gateway.auth.tokn', /unknown key/],
    ['an unknown cooldown knob', { auth: { cooldowns: { billingBackoffMinutes: 3 } } }, 'auth.cooldowns.billingBackoffMinutes', /unknown key/],
    ['an unknown key in a model object', { agents: { defaults: { model: { primary: 'a/b', fallback: [] } } } }, 'agents.defaults.model.fallback', /unknown key/],
    ['a model selection of the wrong shape', { agents: { defaults: { model: 42 } } }, 'agents.defaults.model', /write "provider\/model" or \{ primary/],
    ['a wrong type', { gateway: { port: '80' } }, 'gateway.port', /expected number, got a string/],
    ['a missing required field', { auth: { profiles: { 'openai:a': { provider: 'openai' } } } }, 'auth.profiles["openai:a"].mode', /must be one of/],
    ['a port out of range', { gateway: { port: 70_000 } }, 'gateway.port', /must be at most 65535/],
    ['an OTLP endpoint that is no http(s) URL', { telemetry: { otlp: { endpoint: 'grpc://collector:4317' } } }, 'telemetry.otlp.endpoint', /http\(s\) URL/],
    ['a negative retry count', { retry: { provider: { maxRetries: -1 } } }, 'retry.provider.maxRetries', /must be at least 0/],
    ['a bad enum', { gateway: { logLevel: 'loud' } }, 'gateway.logLevel', /"info"/],
    ['a bad wire format', { models: { providers: { x: { baseUrl: 'https://x', api: 'soap' } } } }, 'models.providers.x.api', /openai-completions/],
    ['a non-http base URL', { models: { providers: { x: { baseUrl: 'ftp://x', api: 'anthropic-messages' } } } }, 'models.providers.x.baseUrl', /http\(s\) URL/],
    ['a profile id without provider', { auth: { profiles: { nope: { provider: 'openai', mode: 'api_key' } } } }, 'auth.profiles.nope', /provider:name/],
    ['a bad id in an order', { auth: { order: { openai: ['openai:a', 'b'] } } }, 'auth.order.openai[1]', /provider:name/],
    ['a bad provider id', { models: { providers: { 'open ai': { baseUrl: 'https://x', api: 'openai-completions' } } } }, 'models.providers["open ai"]', /bad key: a provider id has no spaces/],
    [
      'two spellings of one provider',
      { models: { providers: { OpenAI: { baseUrl: 'https://x', api: 'openai-completions' }, openai: { baseUrl: 'https://y', api: 'openai-completions' } } } },
      'models.providers.openai',
      /same provider \(openai\)/,
    ],
    [
      'two spellings of one profile',
      { auth: { profiles: { 'openai:a': { provider: 'openai', mode: 'api_key' }, 'OpenAI:a': { provider: 'openai', mode: 'api_key' } } } },
      'auth.profiles["OpenAI:a"]',
      /same auth profile/,
    ],
    ['a fallback that is neither ref nor alias', { agents: { defaults: { model: { primary: 'a/b', fallbacks: ['a/c', 'fast'] } } } }, 'agents.defaults.model.fallbacks[1]', /neither "provider\/model" nor an alias/],
    ['a bad agent model', { agents: { entries: { main: { model: 'nope' } } } }, 'agents.entries.main.model', /neither/],
    ['a bad image model', { agents: { defaults: { imageModel: { primary: 'nope' } } } }, 'agents.defaults.imageModel.primary', /neither/],
    ['a bad allowlist key', { agents: { defaults: { models: { 'gpt-4o': {} } } } }, 'agents.defaults.models["gpt-4o"]', /provider\/model/],
    ['an alias with a slash', { agents: { defaults: { models: { 'a/b': { alias: 'x/y' } } } } }, 'agents.defaults.models["a/b"].alias', /no "\/"/],
    [
      'a duplicate alias',
      { agents: { defaults: { models: { 'a/b': { alias: 'Fast' }, 'a/c': { alias: 'fast' } } } } },
      'agents.defaults.models["a/c"].alias',
      /already used by "a\/b"/,
    ],
    ['a bad agent id', { agents: { entries: { 'my agent': {} } } }, 'agents.entries["my agent"]', /agent id/],
    ['a non-postgres url', { state: { postgres: { url: 'mysql://x' } } }, 'state.postgres.url', /PostgreSQL URL/],
    ['a blank email', { auth: { profiles: { 'openai:a': { provider: 'openai', mode: 'oauth', email: ' ' } } } }, 'auth.profiles["openai:a"].email', /must have at least 1 character$/],
    ['an exclusive bound', { retry: { provider: { windowMs: 0 } } }, 'retry.provider.windowMs', /must be greater than 0/],
    ['an empty list', { auth: { cooldowns: { cooldownStepsMs: [] } } }, 'auth.cooldowns.cooldownStepsMs', /must have at least 1 item$/],
    ['a too-long agent id', { agents: { entries: { ['a'.repeat(65)]: {} } } }, `agents.entries.${'a'.repeat(65)}`, /agent id is 1–64/],
    ['a config that is not an object', [], '(root)', /expected object, got an array/],
  ])('%s', (_sentence, input, path, message) => {
    const issues = issuesOf(input);
    const issue = issues.find((candidate) => candidate.path === path);
    expect(issue, JSON.stringify(issues)).toBeDefined();
    expect(issue?.message).toMatch(message);
  });

  it('throws a branded ConfigError listing every problem with the file named', () => {
    try {
      parseConfig({ gateway: { port: 'x', extra: 1 } }, { source: '/etc/understudy.json5' });
      expect.unreachable();
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      if (!ConfigError.isInstance(error)) throw error;
      expect(error.code).toBe('invalid_config');
      expect(error.message).toContain('Invalid config /etc/understudy.json5 (2 problems)');
      expect(error.message).toContain('  - gateway.port: expected number');
      expect(error.message).toContain('  - gateway.extra: unknown key');
      expect(error.cause).toBeDefined();
    }
    expect(ConfigError.isInstance({})).toBe(false);
    expect(new ConfigError([{ path: 'a', message: 'b' }]).message).toBe('Invalid config (1 problem):\n  - a: b');
  });

  it('never echoes the offending value (it may be a misplaced secret)', () => {
    const result = safeParseConfig({ models: { providers: { x: { baseUrl: 'https://x', api: 'sk-live-SECRET' } } }, gateway: { port: 'sk-live-SECRET' } });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message).not.toContain('SECRET');
  });
});

describe('formatConfigPath', () => {
  it.each<[PropertyKey[], string]>([
    [[], '(root)'],
    [['auth', 'order', 'openai', 1], 'auth.order.openai[1]'],
    [['agents', 'defaults', 'models', 'openai/gpt-4o', 'alias'], 'agents.defaults.models["openai/gpt-4o"].alias'],
    [[Symbol.for('x')], '["Symbol(x)"]'],
  ])('%j → %s', (path, expected) => {
    expect(formatConfigPath(path)).toBe(expected);
  });
});

describe('JSON Schema (`understudy config schema`)', () => {
  const schema = configJsonSchema() as {
    $schema: string;
    title: string;
    additionalProperties: boolean;
    properties: Record<string, { properties?: Record<string, { default?: unknown; additionalProperties?: boolean; description?: string }> }>;
  };
  it('describes every section, strictly, with defaults', () => {
    expect(schema.$schema).toContain('2020-12');
    expect(schema.title).toBe('understudy config');
    expect(Object.keys(schema.properties)).toEqual(['$schema', 'auth', 'agents', 'retry', 'models', 'gateway', 'state', 'session', 'telemetry']);
    expect(schema.additionalProperties).toBe(false);
    const otlp = schema.properties['telemetry']?.properties?.['otlp'] as { properties?: Record<string, { format?: string }> } | undefined;
    expect(otlp?.properties?.['endpoint']?.format).toBe('uri');
    expect(schema.properties['gateway']?.properties?.['port']?.default).toBe(4317);
    expect(schema.properties['auth']?.properties?.['cooldowns']?.additionalProperties).toBe(false);
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe('id-keyed maps', () => {
  it('answer only their own keys, so an id like constructor finds nothing the file does not say', () => {
    const config = parseConfig({ auth: { order: { openai: ['openai:a'] } } });
    expect(config.auth.order['constructor']).toBeUndefined();
    expect(config.models.providers['toString']).toBeUndefined();
    expect(config.agents.entries['__proto__']).toBeUndefined();
    expect(config.auth.order['openai']).toEqual(['openai:a']);
  });
});

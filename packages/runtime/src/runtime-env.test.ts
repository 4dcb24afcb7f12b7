import { describe, expect, it } from 'vitest';
import { DEFAULT_SDK_RETRY_MAX_WAIT_MS } from '@understudy/contracts';
import { parseConfig } from '@understudy/config';
import { RuntimeEnvError, fallbackSkipTtlMsOf, otlpTracesUrlOf, parseRuntimeEnv } from './runtime-env.js';

describe('parseRuntimeEnv', () => {
  it('leaves unset (and blank) variables unset, with the 60 s SDK retry cap by default', () => {
    expect(parseRuntimeEnv({})).toEqual({
      configPath: undefined,
      stateDir: undefined,
      sdkRetryMaxWaitMs: DEFAULT_SDK_RETRY_MAX_WAIT_MS,
      fallbackSkipTtlMs: undefined,
      gatewayEntry: undefined,
      otlpTracesUrl: undefined,
    });
    expect(parseRuntimeEnv({ UNDERSTUDY_STATE_DIR: '  ', UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS: '' }).stateDir).toBeUndefined();
    expect(DEFAULT_SDK_RETRY_MAX_WAIT_MS).toBe(60_000);
  });

  it('reads paths trimmed', () => {
    const settings = parseRuntimeEnv({ UNDERSTUDY_CONFIG: ' /etc/us.json5 ', UNDERSTUDY_STATE_DIR: '/srv/us', UNDERSTUDY_GATEWAY_ENTRY: '/opt/main.js' });
    expect(settings).toMatchObject({ configPath: '/etc/us.json5', stateDir: '/srv/us', gatewayEntry: '/opt/main.js' });
  });

  // docs/configuration.md#environment-variables: the seconds of the variable become ms once, here.
  it.each([
    ['60', 60_000],
    ['2.5', 2_500],
    [' 15 ', 15_000],
    ['0', null],
    ['off', null],
    ['OFF', null],
  ])('SDK retry cap %j → %j ms', (value, expected) => {
    expect(parseRuntimeEnv({ UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS: value }).sdkRetryMaxWaitMs).toBe(expected);
    expect(parseRuntimeEnv({ OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: value }).sdkRetryMaxWaitMs).toBe(expected);
  });

  it.each(['1e2', '-5', 'soon', '60s', 'Infinity', '0x10'])('refuses the SDK retry cap %j, naming the variable', (value) => {
    for (const variable of ['UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS', 'OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS']) {
      const attempt = (): unknown => parseRuntimeEnv({ [variable]: value });
      expect(attempt).toThrow(RuntimeEnvError);
      expect(attempt).toThrow(new RegExp(`^${variable}: expected a number of seconds`));
    }
  });

  it.each([
    ['60000', 60_000],
    ['0', 0],
    ['10', 10],
  ])('skip-cache TTL %j → %j ms, as given (the cache clamps it)', (value, expected) => {
    expect(parseRuntimeEnv({ OPENCLAW_FALLBACK_SKIP_TTL_MS: value }).fallbackSkipTtlMs).toBe(expected);
  });

  it('refuses a skip-cache TTL that is not milliseconds', () => {
    const attempt = (): unknown => parseRuntimeEnv({ UNDERSTUDY_FALLBACK_SKIP_TTL_MS: 'one minute' });
    expect(attempt).toThrow(/^UNDERSTUDY_FALLBACK_SKIP_TTL_MS: expected milliseconds \(e\.g\. 60000\), or 0 to disable the cache; got "one minute"$/);
    try {
      attempt();
    } catch (error) {
      expect(RuntimeEnvError.isInstance(error) && error.code === 'invalid_environment' && error.variable).toBe('UNDERSTUDY_FALLBACK_SKIP_TTL_MS');
    }
  });

  it('lets UNDERSTUDY_* win over its OPENCLAW_* alias, and never reads a shadowed alias', () => {
    expect(parseRuntimeEnv({ UNDERSTUDY_FALLBACK_SKIP_TTL_MS: '5000', OPENCLAW_FALLBACK_SKIP_TTL_MS: '60000' }).fallbackSkipTtlMs).toBe(5_000);
    expect(parseRuntimeEnv({ UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS: 'off', OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: '30' }).sdkRetryMaxWaitMs).toBeNull();
    expect(parseRuntimeEnv({ UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS: '5', OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: 'x' }).sdkRetryMaxWaitMs).toBe(5_000);
    expect(parseRuntimeEnv({ UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS: ' ', OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: '5' }).sdkRetryMaxWaitMs).toBe(5_000);
  });

  it('reads the standard OTLP endpoints: the traces one as given, else the base one with /v1/traces', () => {
    expect(parseRuntimeEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' }).otlpTracesUrl).toBe('http://127.0.0.1:4318/v1/traces');
    expect(
      parseRuntimeEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/otlp/traces' }).otlpTracesUrl,
    ).toBe('https://b/otlp/traces');
    expect(parseRuntimeEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }).otlpTracesUrl).toBeUndefined();
    expect(() => parseRuntimeEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT: expected an http\(s\) URL/);
    expect(otlpTracesUrlOf('http://c:4318/base')).toBe('http://c:4318/base/v1/traces');
  });
});

describe('fallbackSkipTtlMsOf', () => {
  const configured = parseConfig({ session: { fallbackSkipTtlMs: 30_000 } });
  it.each([
    ['the variable wins over the config', { UNDERSTUDY_FALLBACK_SKIP_TTL_MS: '60000' }, configured, 60_000],
    ['its alias too', { OPENCLAW_FALLBACK_SKIP_TTL_MS: '45000' }, configured, 45_000],
    ['0 in the variable turns off a configured cache', { UNDERSTUDY_FALLBACK_SKIP_TTL_MS: '0' }, configured, 0],
    ['without the variable the config decides', {}, configured, 30_000],
    ['with neither the cache is off', {}, parseConfig({}), 0],
  ])('%s', (_sentence, env, config, expected) => {
    expect(fallbackSkipTtlMsOf(parseRuntimeEnv(env), config)).toBe(expected);
  });
});

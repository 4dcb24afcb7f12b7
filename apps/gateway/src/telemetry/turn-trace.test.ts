/**
 * Where traces go (docs/operations.md#observability): `telemetry.otlp.endpoint` wins over the standard variables
 * (as `parseRuntimeEnv` read them); with neither, tracing is off and no tracer is loaded.
 */
import { parseConfig } from '@understudy/config';
import { silentLogger } from '@understudy/contracts';
import { parseRuntimeEnv } from '@understudy/runtime';
import { describe, expect, it } from 'vitest';
import { loadTurnTracer, otlpTracesUrl } from './turn-trace.js';

describe('otlpTracesUrl', () => {
  const withEndpoint = parseConfig({ telemetry: { otlp: { endpoint: 'http://collector:4318/' } } });
  const without = parseConfig({});

  it('takes the config endpoint as a base, over the variables', () => {
    const settings = parseRuntimeEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://other:4318/v1/traces' });
    expect(otlpTracesUrl(withEndpoint, settings)).toBe('http://collector:4318/v1/traces');
  });

  it('falls back to the variables, then to off', () => {
    expect(otlpTracesUrl(without, parseRuntimeEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' }))).toBe('http://env:4318/v1/traces');
    expect(otlpTracesUrl(without, parseRuntimeEnv({}))).toBeUndefined();
  });

  it('loads no tracer while off', async () => {
    await expect(loadTurnTracer({ config: without, settings: parseRuntimeEnv({}), logger: silentLogger })).resolves.toBeUndefined();
  });
});

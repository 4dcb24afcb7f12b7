/**
 * `telemetry.*`: OpenTelemetry trace export, opt-in (docs/operations.md#observability). Without an endpoint here or
 * in `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, the gateway loads no OpenTelemetry
 * module and does no tracing work at all.
 */
import * as z from 'zod';

/** `telemetry.otlp`: where traces go (OTLP over HTTP, JSON encoding). */
export const otlpConfigSchema = z.strictObject({
  endpoint: z
    .url({ protocol: /^https?$/, error: 'telemetry.otlp.endpoint must be an http(s) URL, e.g. "http://127.0.0.1:4318"' })
    .optional()
    .describe(
      'Base URL of an OTLP/HTTP collector, e.g. "http://127.0.0.1:4318"; traces are posted to <endpoint>/v1/traces. Wins over OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. Absent (the default) with neither variable set: tracing is off.',
    ),
});

/** The `telemetry` section. */
export const telemetryConfigSchema = z.strictObject({
  otlp: otlpConfigSchema.prefault({}).describe('OTLP trace export (off unless an endpoint is set).'),
  serviceName: z
    .string()
    .trim()
    .min(1)
    .default('understudy-gateway')
    .describe('The `service.name` resource attribute of exported spans.'),
});

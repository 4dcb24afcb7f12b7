/**
 * Turn traces, opt-in (docs/operations.md#observability): what the gateway hands to a tracer once a turn is over,
 * and how the tracer is loaded. This module imports no OpenTelemetry code: with no OTLP endpoint configured the
 * gateway never loads `./otel-tracer.js` (a lazy `import()`), keeps no tracer, and a request does no tracing
 * work beyond one `undefined` check.
 *
 * The spans are built after the fact from the runner's attempt records (each has `startedAtMs` and `atMs` from
 * the run clock), so the runner (core) knows nothing of tracing.
 */
import type { UnderstudyConfig } from '@understudy/config';
import type { Logger } from '@understudy/contracts';
import type { AttemptRecord } from '@understudy/fallback-runner';
import type { ChatUsage } from '@understudy/providers';
import type { RuntimeEnv } from '@understudy/runtime';
import { otlpTracesUrlOf } from '@understudy/runtime';

/** The answer a traced turn ended with. */
export interface TracedAnswer {
  /** The provider id of the candidate that answered (the config's, e.g. `anthropic`). */
  readonly provider: string;
  /** The candidate's model (as configured). */
  readonly model: string;
  /** The model id the provider said answered, when it said one (`gen_ai.response.model`). */
  readonly responseModel?: string | undefined;
  readonly profile: string | null;
  /** Token usage as the provider reported it (absent when it did not). */
  readonly usage?: ChatUsage | undefined;
  /** Why the selected model did not answer, when a fallback did (`x-understudy-fallback`). */
  readonly fallbackReason?: string | undefined;
}

/** One finished turn, as the tracer receives it. All times are epoch ms from the gateway's clock. */
export interface TracedTurn {
  /** The caller's W3C `traceparent` header (the turn span continues its trace), when it sent one. */
  readonly traceparent?: string | undefined;
  /** The caller's W3C `tracestate` header, kept with the continued trace. */
  readonly tracestate?: string | undefined;
  /** The wire dialect the client spoke (`openai`, `anthropic`, `responses`). */
  readonly dialect: string;
  readonly agentId: string;
  /** The `model` field of the client's request, as sent (`gen_ai.request.model` of the turn span). */
  readonly requestedModel: string | undefined;
  readonly stream: boolean;
  readonly startedAtMs: number;
  readonly endedAtMs: number;
  /** Every attempt record of the turn in order: live switches, the run, a stream continuation. */
  readonly attempts: readonly AttemptRecord[];
  /** Set when the turn answered. */
  readonly answer?: TracedAnswer | undefined;
  /** Set when the turn failed: the gateway error code sent to the client and its message (our own words). */
  readonly error?: { readonly code: string; readonly message: string } | undefined;
}

/** Receives finished turns and exports them. */
export interface TurnTracer {
  /** Records one finished turn: a turn span and a child span per attempt. Never throws. */
  recordTurn(turn: TracedTurn): void;
  /** Exports what is still buffered and stops; resolves within the exporter's timeout even when the collector is gone. */
  shutdown(): Promise<void>;
}

/**
 * Where traces go, or `undefined` when tracing is off: `telemetry.otlp.endpoint` (a base URL, `/v1/traces`
 * appended), else the standard variables as `parseRuntimeEnv` read them.
 *
 * @example otlpTracesUrl(parseConfig({ telemetry: { otlp: { endpoint: 'http://127.0.0.1:4318' } } }), settings) // 'http://127.0.0.1:4318/v1/traces'
 */
export function otlpTracesUrl(config: UnderstudyConfig, settings: Pick<RuntimeEnv, 'otlpTracesUrl'>): string | undefined {
  const endpoint = config.telemetry.otlp.endpoint;
  return endpoint === undefined ? settings.otlpTracesUrl : otlpTracesUrlOf(endpoint);
}

/**
 * Loads the OpenTelemetry tracer when an endpoint is configured (the only place `./otel-tracer.js` is imported,
 * lazily); resolves with `undefined`, loading nothing, when tracing is off.
 */
export async function loadTurnTracer(options: {
  readonly config: UnderstudyConfig;
  readonly settings: Pick<RuntimeEnv, 'otlpTracesUrl'>;
  readonly logger: Logger;
}): Promise<TurnTracer | undefined> {
  const url = otlpTracesUrl(options.config, options.settings);
  if (url === undefined) return undefined;
  const { createOtelTurnTracer } = await import('./otel-tracer.js');
  // Only origin and path: a URL may carry credentials, which never reach a log.
  const shown = new URL(url);
  options.logger.info({ otlp: `${shown.origin}${shown.pathname}` }, 'exporting OpenTelemetry traces');
  return createOtelTurnTracer({ url, serviceName: options.config.telemetry.serviceName, logger: options.logger });
}

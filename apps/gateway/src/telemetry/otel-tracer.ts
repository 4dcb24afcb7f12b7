/**
 * The OpenTelemetry implementation of {@link TurnTracer} (docs/operations.md#observability), loaded only when
 * tracing is on. Per turn: one `SERVER` span `chat <requested model>` (a child of the caller's W3C `traceparent`
 * when there is one) and, under it, one `CLIENT` span per attempt record, with the GenAI semantic-convention
 * attributes and understudy's own. Spans go out in batches over OTLP/HTTP (JSON encoding).
 */
import type { Attributes, Context, Span, TextMapGetter, Tracer } from '@opentelemetry/api';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Logger } from '@understudy/contracts';
import type { AttemptRecord } from '@understudy/fallback-runner';
import type { TracedTurn, TurnTracer } from './turn-trace.js';

/** How long one export (and the flush on shutdown) may take, ms. */
const EXPORT_TIMEOUT_MS = 5_000;
/** Spans kept waiting for an export; beyond it new spans are dropped (about 4 s of a busy gateway, 2 spans a turn). */
const MAX_QUEUED_SPANS = 8_192;
/** Spans per export request (one is sent as soon as this many wait). */
const MAX_EXPORT_BATCH = 1_024;

const CARRIER_GETTER: TextMapGetter<Readonly<Record<string, string | undefined>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** The attribute names, GenAI semantic conventions first (`gen_ai.*`), then understudy's own. */
const SPAN_ATTRIBUTES = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  errorType: 'error.type',
  httpStatus: 'http.response.status_code',
  failoverReason: 'understudy.failover.reason',
  profile: 'understudy.profile',
  attemptKind: 'understudy.attempt.kind',
  continuation: 'understudy.attempt.continuation',
  detail: 'understudy.attempt.detail',
  agent: 'understudy.agent',
  dialect: 'understudy.dialect',
  stream: 'understudy.stream',
  attemptCount: 'understudy.attempts',
  fallbackReason: 'understudy.fallback.reason',
} as const;

/** Builds the tracer: a provider of its own (no global registration), a batch processor, the OTLP/HTTP exporter. */
export function createOtelTurnTracer(options: { readonly url: string; readonly serviceName: string; readonly logger: Logger }): TurnTracer {
  const exporter = new OTLPTraceExporter({ url: options.url, timeoutMillis: EXPORT_TIMEOUT_MS });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: 1_000,
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
        maxQueueSize: MAX_QUEUED_SPANS,
        maxExportBatchSize: MAX_EXPORT_BATCH,
      }),
    ],
  });
  const tracer = provider.getTracer('@understudy/gateway');
  const propagator = new W3CTraceContextPropagator();

  const parentOf = (turn: TracedTurn): Context => {
    if (turn.traceparent === undefined) return ROOT_CONTEXT;
    const carrier = { traceparent: turn.traceparent, ...(turn.tracestate === undefined ? {} : { tracestate: turn.tracestate }) };
    return propagator.extract(ROOT_CONTEXT, carrier, CARRIER_GETTER);
  };

  const record = (turn: TracedTurn): void => {
    const answer = turn.answer;
    const turnSpan = tracer.startSpan(
      `chat ${turn.requestedModel ?? answer?.model ?? ''}`.trim(),
      {
        kind: SpanKind.SERVER,
        startTime: turn.startedAtMs,
        attributes: compact({
          [SPAN_ATTRIBUTES.operation]: 'chat',
          [SPAN_ATTRIBUTES.requestModel]: turn.requestedModel,
          [SPAN_ATTRIBUTES.provider]: answer?.provider,
          [SPAN_ATTRIBUTES.responseModel]: answer === undefined ? undefined : (answer.responseModel ?? answer.model),
          [SPAN_ATTRIBUTES.inputTokens]: answer?.usage?.inputTokens,
          [SPAN_ATTRIBUTES.outputTokens]: answer?.usage?.outputTokens,
          [SPAN_ATTRIBUTES.profile]: answer?.profile ?? undefined,
          [SPAN_ATTRIBUTES.fallbackReason]: answer?.fallbackReason,
          [SPAN_ATTRIBUTES.agent]: turn.agentId,
          [SPAN_ATTRIBUTES.dialect]: turn.dialect,
          [SPAN_ATTRIBUTES.stream]: turn.stream,
          [SPAN_ATTRIBUTES.attemptCount]: turn.attempts.length,
          [SPAN_ATTRIBUTES.errorType]: turn.error?.code,
        }),
      },
      parentOf(turn),
    );
    if (turn.error !== undefined) turnSpan.setStatus({ code: SpanStatusCode.ERROR, message: turn.error.message });
    const parent = trace.setSpan(ROOT_CONTEXT, turnSpan);
    const answering = answeringAttempt(turn);
    for (const attempt of turn.attempts) attemptSpan(tracer, parent, attempt, attempt === answering ? turn : undefined).end(attempt.atMs);
    turnSpan.end(Math.max(turn.endedAtMs, turn.startedAtMs));
  };

  return {
    recordTurn(turn: TracedTurn): void {
      try {
        record(turn);
      } catch (error) {
        options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not record the turn trace');
      }
    },
    async shutdown(): Promise<void> {
      try {
        await provider.shutdown();
      } catch (error) {
        options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not flush the traces');
      }
    },
  };
}

/** The record whose answer the client got: the last successful one (a continuation's, when one continued). */
function answeringAttempt(turn: TracedTurn): AttemptRecord | undefined {
  if (turn.answer === undefined) return undefined;
  for (let index = turn.attempts.length - 1; index >= 0; index -= 1) {
    const attempt = turn.attempts[index];
    if (attempt?.ok === true) return attempt;
  }
  return undefined;
}

/** One attempt's span (ended by the caller at `atMs`); `answered` is the turn when this attempt gave the answer (its usage and response model). */
function attemptSpan(
  tracer: Tracer,
  parent: Context,
  attempt: AttemptRecord,
  answered: TracedTurn | undefined,
): Span {
  const answer = answered?.answer;
  const span = tracer.startSpan(
    `chat ${attempt.model}`,
    {
      kind: SpanKind.CLIENT,
      startTime: attempt.startedAtMs,
      attributes: compact({
        [SPAN_ATTRIBUTES.operation]: 'chat',
        [SPAN_ATTRIBUTES.provider]: attempt.provider,
        [SPAN_ATTRIBUTES.requestModel]: attempt.model,
        [SPAN_ATTRIBUTES.responseModel]: attempt.ok ? (answer?.responseModel ?? attempt.model) : undefined,
        [SPAN_ATTRIBUTES.inputTokens]: answer?.usage?.inputTokens,
        [SPAN_ATTRIBUTES.outputTokens]: answer?.usage?.outputTokens,
        [SPAN_ATTRIBUTES.profile]: attempt.profile ?? undefined,
        [SPAN_ATTRIBUTES.attemptKind]: attempt.kind,
        [SPAN_ATTRIBUTES.continuation]: attempt.continuation,
        [SPAN_ATTRIBUTES.failoverReason]: attempt.reason,
        [SPAN_ATTRIBUTES.errorType]: attempt.ok ? undefined : attempt.reason,
        [SPAN_ATTRIBUTES.httpStatus]: attempt.status,
        [SPAN_ATTRIBUTES.detail]: attempt.detail,
      }),
    },
    parent,
  );
  // A skip sent nothing: it is no failed attempt (its reason says why it was passed over).
  if (!attempt.ok && attempt.kind !== 'skip') span.setStatus({ code: SpanStatusCode.ERROR, ...(attempt.summary === undefined ? {} : { message: attempt.summary }) });
  return span;
}

/** Attributes without the absent ones. */
function compact(attributes: Readonly<Record<string, string | number | boolean | undefined>>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * `POST /v1/chat/completions`, `POST /v1/messages` and `POST /v1/responses`, written once against {@link WireDialect}: read and
 * parse the body, resolve the agent, session, chat type and model selection, answer a chat command, or run the
 * turn with failover and render the answer (whole or streamed) with the `x-understudy-*` headers.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import type { AbortSignalLike, ChatType, Clock, Logger } from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import type { AttemptRecord, FallbackRunResult } from '@understudy/fallback-runner';
import type { ChatResult, ChatStreamDelta, ChatUsage, NativeRequest } from '@understudy/providers';
import { parseChatCommand } from '../chat-commands/parse-command.js';
import { runChatCommand } from '../chat-commands/run-command.js';
import type { GatewayError } from '../gateway-error.js';
import { invalidRequest } from '../gateway-error.js';
import type { BodyLimits } from '../http/body.js';
import { readJsonBody } from '../http/body.js';
import type { HeaderMap } from '../http/respond.js';
import { SseSink, safeHeaderValue, sendJson } from '../http/respond.js';
import type { AgentStores } from '../services/agent-stores.js';
import type { TracedAnswer, TracedTurn } from '../telemetry/turn-trace.js';
import { checkSessionKey } from '../sessions/session-key.js';
import { failureAfterOutput } from '../turn/after-output.js';
import type { ScheduledSource, TurnInput, TurnServices, UpstreamTimer } from '../turn/run-turn.js';
import type { StreamAnswerer } from '../turn/run-turn.js';
import { continueStreamTurn, countFailedAttempts, runCompleteTurn, runStreamTurn } from '../turn/run-turn.js';
import { turnError } from '../turn/turn-errors.js';
import type { AnswerMeta, ParsedChatRequest, WireDialect } from '../wire/dialect.js';
import type { RequestSelection } from './model-selection.js';
import { DEFAULT_AGENT, checkFallbacksOverride, resolveRequestSelection } from './model-selection.js';
import { relayStream } from './stream-relay.js';

/** What the chat endpoints need. */
export interface ChatHandlerContext {
  readonly config: UnderstudyConfig;
  readonly stores: AgentStores;
  readonly turn: TurnServices;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Limits of the request body (size, idle time, shutdown). */
  readonly body: BodyLimits;
}

/**
 * One endpoint of the chat family with its dialect fixed (count tokens): serves `request` with `context`;
 * `signal` aborts when the client goes away, `timer` collects the time spent waiting on providers.
 */
export type ChatEndpoint = (
  request: IncomingMessage,
  response: ServerResponse,
  context: ChatHandlerContext,
  signal: AbortSignalLike,
  timer: UpstreamTimer,
) => Promise<ChatOutcome>;

/** What a chat request did, for the access log. */
export interface ChatOutcome {
  readonly status: number;
  readonly agent?: string | undefined;
  readonly session?: string | undefined;
  readonly model?: string | undefined;
  readonly profile?: string | null | undefined;
  readonly fallback?: string | undefined;
  readonly attempts?: number | undefined;
  readonly command?: string | undefined;
  readonly stream?: boolean | undefined;
  readonly streamOutcome?: string | undefined;
  /** `provider/model` that continued a stream which broke after output (docs/policy.md#continuing-a-broken-stream). */
  readonly continuedBy?: string | undefined;
}

const CHAT_TYPES: readonly ChatType[] = ['direct', 'group', 'channel'];

/** The selection sources a request may declare with `x-understudy-source` (docs/contracts.md#gateway). */
const SCHEDULED_SOURCES: readonly ScheduledSource[] = ['cron', 'heartbeat'];

function headerText(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** The client's format headers a same-format upstream receives (`anthropic-beta`, …), lower-cased names. */
function forwardedHeaders(dialect: WireDialect, request: IncomingMessage): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const name of dialect.forwardedHeaders) {
    const value = request.headers[name];
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text !== undefined && text.trim() !== '') (out ??= {})[name] = text.trim();
  }
  return out;
}

/** The `x-understudy-*` request headers of a chat-family request. */
interface RequestHeaders {
  readonly agentId: string;
  readonly sessionKey?: string;
  readonly chatType?: ChatType;
  readonly source?: ScheduledSource;
}

/** The `x-understudy-*` request headers, validated. @throws {GatewayError} 400 for a bad session key, chat type or source. */
function requestHeaders(request: IncomingMessage): RequestHeaders {
  const sessionKey = headerText(request, 'x-understudy-session');
  if (sessionKey !== undefined) checkSessionKey(sessionKey, 'x-understudy-session');
  const chatType = headerText(request, 'x-understudy-chat-type')?.toLowerCase();
  if (chatType !== undefined && !CHAT_TYPES.includes(chatType as ChatType)) {
    throw invalidRequest(`x-understudy-chat-type: expected one of ${CHAT_TYPES.join(', ')}`, 'invalid_chat_type');
  }
  const source = headerText(request, 'x-understudy-source')?.toLowerCase();
  if (source !== undefined && !SCHEDULED_SOURCES.includes(source as ScheduledSource)) {
    throw invalidRequest(
      `x-understudy-source: expected one of ${SCHEDULED_SOURCES.join(', ')} (a scheduled job's request); leave it out for a user's request`,
      'invalid_selection_source',
    );
  }
  return {
    agentId: headerText(request, 'x-understudy-agent') ?? DEFAULT_AGENT,
    ...(sessionKey === undefined ? {} : { sessionKey }),
    ...(chatType === undefined ? {} : { chatType: chatType as ChatType }),
    ...(source === undefined ? {} : { source: source as ScheduledSource }),
  };
}

const ID_PREFIX: Readonly<Record<WireDialect['id'], string>> = { openai: 'chatcmpl-', anthropic: 'msg_', responses: 'resp_' };

function answerId(dialect: WireDialect): string {
  return `${ID_PREFIX[dialect.id]}${randomUUID().replaceAll('-', '')}`;
}

/**
 * The `x-understudy-*` headers of an answer: the model and profile that answered, the fallback reason. A model
 * ref is the caller's or the config's text, so it goes through {@link safeHeaderValue}: a name outside printable ASCII
 * (`openai/模型`) is sent percent-encoded rather than failing the answer (docs/contracts.md#gateway).
 */
export function answerHeaders(result: FallbackRunResult<unknown>): HeaderMap {
  return {
    'x-understudy-model': safeHeaderValue(formatModelRef(result.candidate)),
    ...(result.profile === null ? {} : { 'x-understudy-profile': safeHeaderValue(result.profile) }),
    ...(result.fallbackReason === undefined ? {} : { 'x-understudy-fallback': result.fallbackReason }),
  };
}

/** The body as the client sent it, for an upstream of the same format (parse already checked it is an object). */
function nativeRequest(dialect: WireDialect, body: unknown, request: IncomingMessage): NativeRequest {
  const headers = forwardedHeaders(dialect, request);
  return { api: dialect.api, body: body as Record<string, unknown>, ...(headers === undefined ? {} : { headers }) };
}

/** A chat-family request as read: the body as sent, its parse by the dialect, its headers and model selection. */
export interface ReadChatRequest {
  readonly dialect: WireDialect;
  readonly body: unknown;
  readonly parsed: ParsedChatRequest;
  readonly headers: RequestHeaders;
  readonly selection: RequestSelection;
}

/**
 * The first step of every chat endpoint (chat, count tokens): read the body, parse it with `dialect`, validate
 * the `x-understudy-*` headers and resolve the model selection.
 *
 * @throws {GatewayError} 400 for a malformed body or header, an unknown model or agent.
 */
export async function readChatRequest(dialect: WireDialect, request: IncomingMessage, context: ChatHandlerContext): Promise<ReadChatRequest> {
  const body = await readJsonBody(request, context.body);
  const parsed = dialect.parseRequest(body);
  const headers = requestHeaders(request);
  return { dialect, body, parsed, headers, selection: resolveRequestSelection(parsed.model, context.config, headers.agentId) };
}

/**
 * The turn's input for a read request on `store`: the selection, session, chat type and source, the checked
 * `understudy.fallbacks`, and the chat with the body as sent (for a same-format upstream).
 *
 * @throws {GatewayError} 400 when the fallbacks override names a model the config does not know.
 */
export function turnInput(read: ReadChatRequest, request: IncomingMessage, config: UnderstudyConfig, store: AuthProfileStore, signal: AbortSignalLike): TurnInput {
  const { parsed, headers } = read;
  return {
    store,
    selection: read.selection,
    sessionKey: headers.sessionKey,
    chatType: headers.chatType,
    source: headers.source,
    fallbacksOverride: checkFallbacksOverride(parsed.fallbacksOverride, config),
    isImageRequest: parsed.hasImages,
    chat: { ...parsed.chat, native: nativeRequest(read.dialect, read.body, request) },
    signal,
  };
}

/** What a traced turn answered with (docs/operations.md#observability). */
function tracedAnswer(result: FallbackRunResult<unknown>, responseModel: string, usage: ChatUsage | undefined): TracedAnswer {
  return {
    provider: result.candidate.provider,
    model: result.candidate.model,
    responseModel,
    profile: result.profile,
    ...(usage === undefined ? {} : { usage }),
    ...(result.fallbackReason === undefined ? {} : { fallbackReason: result.fallbackReason }),
  };
}

/** Sends a command's answer as an assistant message, whole or streamed. */
async function sendCommandAnswer(dialect: WireDialect, response: ServerResponse, parsed: ParsedChatRequest, text: string, nowMs: number): Promise<void> {
  const meta: AnswerMeta = { id: answerId(dialect), model: 'understudy', createdSeconds: Math.floor(nowMs / 1000) };
  const headers = { 'x-understudy-command': 'handled' };
  if (!parsed.stream) {
    const result: ChatResult = { model: 'understudy', text, toolCalls: [], finishReason: 'stop' };
    sendJson(response, 200, dialect.renderResult(result, meta), headers);
    return;
  }
  const sink = new SseSink(response, 200, headers);
  const encoder = dialect.createStreamEncoder(meta, { usage: parsed.streamUsage });
  const deltas: ChatStreamDelta[] = [{ kind: 'text', text }, { kind: 'finish', finishReason: 'stop' }];
  for (const delta of deltas) await sink.write(encoder.delta(delta));
  sink.end(encoder.end());
}

/**
 * Serves one chat request. Errors before any output are thrown as {@link GatewayError} (the server renders
 * them in the dialect's shape); after output they end the stream.
 *
 * @param signal - aborts when the client goes away.
 * @param timer - collects the time spent waiting on providers.
 */
export async function handleChat(
  dialect: WireDialect,
  request: IncomingMessage,
  response: ServerResponse,
  context: ChatHandlerContext,
  signal: AbortSignalLike,
  timer: UpstreamTimer,
): Promise<ChatOutcome> {
  const { config } = context;
  const startedAtMs = context.clock.nowMs();
  const read = await readChatRequest(dialect, request, context);
  const { parsed, headers } = read;
  const agentId = read.selection.agentId;
  let store;
  try {
    store = await context.stores.get(agentId);
  } catch (error) {
    throw turnError(error, context.clock.nowMs(), agentId);
  }
  const base = { agent: agentId, session: headers.sessionKey, stream: parsed.stream };

  const command = parseChatCommand(parsed.lastUserText);
  if (command !== undefined) {
    const nowMs = context.clock.nowMs();
    let text;
    try {
      text = await runChatCommand(command, { store, config, agentId, sessionKey: headers.sessionKey, nowMs });
    } catch (error) {
      throw turnError(error, nowMs, agentId);
    }
    await sendCommandAnswer(dialect, response, parsed, text, nowMs);
    return { ...base, status: 200, command: command.kind };
  }

  const tracer = context.turn.tracer;
  const attemptLog: AttemptRecord[] | undefined = tracer === undefined ? undefined : [];
  const input: TurnInput = { ...turnInput(read, request, config, store, signal), ...(attemptLog === undefined ? {} : { attemptLog }) };
  // Tracing is off unless a tracer was loaded (docs/operations.md#observability): then no attempt log is kept.
  const trace =
    tracer === undefined || attemptLog === undefined
      ? undefined
      : (end: Pick<TracedTurn, 'answer' | 'error'>): void =>
          tracer.recordTurn({
            traceparent: headerText(request, 'traceparent'),
            tracestate: headerText(request, 'tracestate'),
            dialect: dialect.id,
            agentId,
            requestedModel: parsed.model,
            stream: parsed.stream,
            startedAtMs,
            endedAtMs: context.clock.nowMs(),
            attempts: attemptLog,
            ...end,
          });
  const failed = (error: unknown): GatewayError => {
    countFailedAttempts(context.turn, input, error);
    const rendered = turnError(error, context.clock.nowMs(), agentId);
    trace?.({ error: { code: rendered.code, message: rendered.message } });
    return rendered;
  };
  const nowSeconds = (): number => Math.floor(context.clock.nowMs() / 1000);

  if (!parsed.stream) {
    let result;
    try {
      result = await runCompleteTurn(context.turn, input, timer);
    } catch (error) {
      throw failed(error);
    }
    trace?.({ answer: tracedAnswer(result, result.value.model, result.value.usage) });
    const meta: AnswerMeta = {
      id: answerId(dialect),
      model: formatModelRef(result.candidate),
      createdSeconds: nowSeconds(),
      ...(result.notice === undefined ? {} : { understudy: { notice: result.notice } }),
    };
    sendJson(response, 200, dialect.renderResult(result.value, meta), answerHeaders(result));
    return { ...base, status: 200, model: meta.model, profile: result.profile, fallback: result.fallbackReason, attempts: result.attempts.length };
  }

  let result;
  try {
    result = await runStreamTurn(context.turn, input, timer);
  } catch (error) {
    throw failed(error);
  }
  const model = formatModelRef(result.candidate);
  if (signal.aborted) {
    result.value.cancel();
    trace?.({ answer: tracedAnswer(result, result.value.model, undefined), error: { code: 'client_gone', message: 'the client went away before the answer started' } });
    return { ...base, status: 499, model, streamOutcome: 'client_gone' };
  }
  const sink = new SseSink(response, 200, answerHeaders(result));
  timer.outputAtMs = performance.now();
  const encoder = dialect.createStreamEncoder(
    { id: answerId(dialect), model, createdSeconds: nowSeconds() },
    { usage: parsed.streamUsage, native: result.value.native },
  );
  // Who the client is reading: the answering candidate, then the one that continued it.
  let answerer: StreamAnswerer = { candidate: result.candidate, profile: result.profile };
  let continuedBy: string | undefined;
  let responseModel = result.value.model;
  let usage: ChatUsage | undefined;
  let streamError: GatewayError | undefined;
  const streamOutcome = await relayStream({
    sink,
    encoder,
    stream: result.value,
    notice: result.notice,
    ...(trace === undefined
      ? {}
      : {
          onUsage: (reported: ChatUsage) => {
            usage = reported;
          },
        }),
    onFailure: async (failure, progress) => {
      const broken = await failureAfterOutput({
        config,
        store,
        candidate: answerer.candidate,
        profile: answerer.profile,
        failure,
        nowMs: context.clock.nowMs(),
        logger: context.logger,
      });
      // docs/policy.md#continuing-a-broken-stream: never after tool-call deltas, never twice, only when switched on.
      const continuable = config.gateway.streams.continueAfterOutput && progress.resumable && !progress.sawToolCall && progress.text !== '';
      const next = continuable
        ? await continueStreamTurn(context.turn, input, timer, { turn: result, answerer, classification: broken.classification, text: progress.text })
        : undefined;
      if (next === undefined) {
        streamError = broken.error;
        return { kind: 'end', error: broken.error };
      }
      answerer = next;
      responseModel = next.stream.model;
      continuedBy = formatModelRef(next.candidate);
      return { kind: 'continue', stream: next.stream };
    },
    onError: (error) => {
      streamError = turnError(error, context.clock.nowMs(), agentId);
      return streamError;
    },
  });
  if (trace !== undefined) {
    const answer = { ...tracedAnswer(result, responseModel, usage), provider: answerer.candidate.provider, model: answerer.candidate.model, profile: answerer.profile };
    const error =
      streamOutcome === 'failed'
        ? { code: streamError?.code ?? 'stream_failed', message: streamError?.message ?? 'the stream broke after output' }
        : streamOutcome === 'client_gone'
          ? { code: 'client_gone', message: 'the client went away during the answer' }
          : undefined;
    trace({ answer, ...(error === undefined ? {} : { error }) });
  }
  return {
    ...base,
    status: 200,
    model,
    profile: result.profile,
    fallback: result.fallbackReason,
    attempts: result.attempts.length,
    streamOutcome,
    ...(continuedBy === undefined ? {} : { continuedBy }),
  };
}

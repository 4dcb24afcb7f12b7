/**
 * Plays one step for one API request: a delay, a reset, a status with body, or an ok answer (whole or
 * streamed) with the step's faults injected at their chunk positions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { ApiRequest } from './request-info.js';
import { lastUserText, promptSize, trailingAssistantText } from './request-info.js';
import type { EmulatorScript, EmulatorStep } from './script.js';
import type { Answer, WireWriter } from './wire/answer.js';
import { estimateTokens, splitIntoChunks } from './wire/answer.js';
import { anthropicWriter } from './wire/anthropic.js';
import { geminiWriter } from './wire/gemini.js';
import { openAiWriter } from './wire/openai.js';
import { responsesWriter } from './wire/responses.js';

const WRITERS: Readonly<Record<ApiRequest['api'], WireWriter>> = {
  'openai-completions': openAiWriter,
  'openai-responses': responsesWriter,
  'anthropic-messages': anthropicWriter,
  'google-generative-ai': geminiWriter,
};

/** Everything a step needs about its exchange. */
export interface Exchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** Aborts when the client goes away (or the server closes). */
  readonly gone: AbortSignal;
  readonly target: ApiRequest;
  readonly body: unknown;
  /** Sequence number of the request, for ids. */
  readonly sequence: number;
}

/** Waits `ms` (none when `undefined`), or until the client is gone: then resolves `false`. */
async function pause(ms: number | undefined, gone: AbortSignal): Promise<boolean> {
  if (gone.aborted) return false;
  if (ms === undefined || ms <= 0) return true;
  try {
    await sleepFor(ms, undefined, { signal: gone });
    return true;
  } catch {
    return false;
  }
}

/** A stall: `ms` long, or (without `ms`) until the client is gone. Resolves `false` when the client left. */
async function stall(ms: number | undefined, gone: AbortSignal): Promise<boolean> {
  if (ms !== undefined) return pause(ms, gone);
  if (!gone.aborted) await new Promise<void>((resolve) => gone.addEventListener('abort', () => resolve(), { once: true }));
  return false;
}

/** Sends a status step's response: the body as-is (objects as JSON); a `null` status (fixture rows) is sent as 500. */
export function sendStatus(response: ServerResponse, step: Pick<EmulatorStep, 'status' | 'headers' | 'body'>): string {
  const status = step.status ?? 500;
  const body = step.body === undefined ? '' : typeof step.body === 'string' ? step.body : JSON.stringify(step.body);
  const headers: Record<string, string> = { ...(step.headers ?? {}) };
  const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  if (!hasContentType) headers['content-type'] = /^\s*[[{]/.test(body) ? 'application/json' : 'text/plain; charset=utf-8';
  response.writeHead(status, headers);
  response.end(body);
  return `status ${status}`;
}

function buildAnswer(exchange: Exchange, step: EmulatorStep, script: EmulatorScript): Answer {
  const { target, body, sequence } = exchange;
  const toolCalls = (step.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_emu_${sequence}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
  let text: string;
  if (step.chunks !== undefined) text = step.chunks.join('');
  else if (step.text !== undefined) text = step.text;
  else if (step.echo !== true && toolCalls.length > 0) text = '';
  else if (step.echo !== true && script.defaults?.text !== undefined) text = script.defaults.text;
  else text = lastUserText(target.api, body) || 'OK';
  // An assistant prefill that the answer starts with is continued, as a model does: only the rest is sent.
  const prefill = trailingAssistantText(target.api, body);
  const continues = prefill !== '' && text.startsWith(prefill) && toolCalls.length === 0;
  if (continues) text = text.slice(prefill.length);
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const streamOptions = record['stream_options'];
  return {
    id: `${target.api === 'anthropic-messages' ? 'msg_emu_' : 'chatcmpl-emu-'}${sequence}`,
    model: step.model ?? (target.model === '' ? 'emulator-model' : target.model),
    chunks: continues || step.chunks === undefined ? splitIntoChunks(text) : step.chunks,
    toolCalls,
    finishReason: step.finishReason,
    inputTokens: step.usage?.inputTokens ?? Math.max(1, Math.ceil(promptSize(target.api, body) / 4)),
    outputTokens: step.usage?.outputTokens ?? estimateTokens(text + toolCalls.map((call) => call.arguments).join('')),
    includeUsage:
      typeof streamOptions === 'object' && streamOptions !== null && (streamOptions as Record<string, unknown>)['include_usage'] === true,
    createdSeconds: Math.floor(Date.now() / 1000),
  };
}

/** Plays `step` (or a plain ok answer when there is none). @returns a short description of what was sent. */
export async function playStep(exchange: Exchange, step: EmulatorStep | undefined, script: EmulatorScript): Promise<string> {
  const current: EmulatorStep = step ?? {};
  const { request, response, gone } = exchange;
  if (!(await pause(current.delayMs, gone))) return 'client left';
  if (current.reset === true) {
    request.socket.resetAndDestroy();
    return 'reset';
  }
  if (current.status !== undefined) return sendStatus(response, current);
  const answer = buildAnswer(exchange, current, script);
  const writer = WRITERS[exchange.target.api];
  const chunkDelayMs = current.chunkDelayMs ?? script.defaults?.chunkDelayMs;
  if (!exchange.target.stream) return sendWhole(exchange, writer, answer, current);
  if (!exchange.target.sse) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify([writer.wholeBody(answer)]));
    return 'ok (json array)';
  }
  return sendStream(exchange, writer, answer, { ...current, ...(chunkDelayMs === undefined ? {} : { chunkDelayMs }) });
}

async function sendWhole(exchange: Exchange, writer: WireWriter, answer: Answer, step: EmulatorStep): Promise<string> {
  const { response, gone } = exchange;
  const json = JSON.stringify(writer.wholeBody(answer));
  response.writeHead(200, { 'content-type': 'application/json' });
  if (step.firstTokenDelayMs !== undefined) {
    response.flushHeaders();
    if (!(await pause(step.firstTokenDelayMs, gone))) return 'client left';
  }
  const faulty =
    step.cutAfterChunks !== undefined ||
    step.stallAfterChunks !== undefined ||
    step.malformedAfterChunks !== undefined ||
    step.endAfterChunks !== undefined;
  if (!faulty) {
    response.end(json);
    return 'ok';
  }
  const half = Math.floor(json.length / 2);
  const sink = new FrameSink(response, gone);
  sink.write(json.slice(0, half));
  if (step.cutAfterChunks !== undefined) {
    // The client gets the first half, then a dead socket.
    return (await sink.cut()) ? 'cut' : 'client left';
  }
  if (step.stallAfterChunks !== undefined) {
    if (!(await stall(step.stallMs, gone))) return 'stalled until the client left';
    response.end(json.slice(half));
    return 'ok after a stall';
  }
  response.end();
  return 'truncated body';
}

async function sendStream(exchange: Exchange, writer: WireWriter, answer: Answer, step: EmulatorStep): Promise<string> {
  const { response, gone } = exchange;
  const frames = writer.streamFrames(answer);
  const sink = new FrameSink(response, gone);
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  response.flushHeaders();
  for (const frame of frames.prelude) sink.write(frame);
  if (!(await pause(step.firstTokenDelayMs, gone))) return 'client left';
  for (let position = 0; position <= frames.content.length; position += 1) {
    if (position > 0 && position < frames.content.length && !(await pause(step.chunkDelayMs, gone))) return 'client left';
    if (step.stallAfterChunks === position && !(await stall(step.stallMs, gone))) return `stalled after ${position} chunks until the client left`;
    if (step.malformedAfterChunks === position) {
      // The good chunks go out on their own before the bad one.
      if (!(await sink.flushed())) return 'client left';
      sink.write(writer.malformedFrame(answer));
    }
    if (step.errorAfterChunks === position) {
      response.end(writer.errorFrame(step.errorEvent));
      return `error event after ${position} chunks`;
    }
    if (step.endAfterChunks === position) {
      response.end();
      return `ended after ${position} chunks`;
    }
    if (step.cutAfterChunks === position) return (await sink.cut()) ? `cut after ${position} chunks` : 'client left';
    const frame = frames.content[position];
    if (frame !== undefined) sink.write(frame);
  }
  for (const frame of frames.trailer) sink.write(frame);
  const marker = step.omitDone === true ? ' (no end marker)' : '';
  if (step.omitDone !== true && frames.terminator !== undefined) sink.write(frames.terminator);
  if (step.holdOpen === true) {
    await stall(undefined, gone);
    return `ok${marker}, held open until the client left`;
  }
  response.end();
  return `ok${marker}`;
}

/**
 * Writes a response's frames in order and knows when the last one was handed to the socket, so a fault can
 * wait until everything before it has left (without that, a cut right after a write can beat the bytes out).
 */
class FrameSink {
  readonly #response: ServerResponse;
  readonly #gone: AbortSignal;
  readonly #left: Promise<void>;
  #lastWrite: Promise<void> = Promise.resolve();

  constructor(response: ServerResponse, gone: AbortSignal) {
    this.#response = response;
    this.#gone = gone;
    this.#left = new Promise<void>((resolve) => {
      if (gone.aborted) resolve();
      else gone.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  write(frame: string): void {
    this.#lastWrite = new Promise<void>((resolve) => {
      this.#response.write(frame, () => resolve());
    });
  }

  /** Resolves `true` once everything written so far reached the socket, `false` when the client left first. */
  async flushed(): Promise<boolean> {
    await Promise.race([this.#lastWrite, this.#left]);
    return !this.#gone.aborted;
  }

  /** Destroys the connection once everything written so far reached the socket; `false` when the client left first. */
  async cut(): Promise<boolean> {
    if (!(await this.flushed())) return false;
    this.#response.socket?.destroy();
    return true;
  }
}

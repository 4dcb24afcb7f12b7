/**
 * Stream faults without any `chunkDelayMs`: a cut or a malformed chunk comes only after the chunks before it
 * were handed to the socket, so a client sees exactly those chunks first; `holdOpen` keeps a finished stream's
 * response open until the client leaves. Over real loopback HTTP (fetch) and a raw TCP socket.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { EmulatorApi } from './script.js';
import { useInProcessEmulator } from './test-support/in-process.js';

const emulator = useInProcessEmulator();

const CHUNKS = ['one ', 'two ', 'three ', 'four'];

const STREAM_PATH: Readonly<Record<EmulatorApi, string>> = {
  'openai-completions': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
  'anthropic-messages': '/v1/messages',
  'google-generative-ai': '/v1beta/models/g:streamGenerateContent?alt=sse',
};

function streamBody(api: EmulatorApi): Record<string, unknown> {
  return api === 'google-generative-ai'
    ? { contents: [{ role: 'user', parts: [{ text: 'x' }] }] }
    : { model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] };
}

/** The SSE `data:` payloads in `text`, parsed where they are JSON (the raw text otherwise). */
function dataPayloads(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => {
      try {
        return JSON.parse(line.slice('data: '.length)) as unknown;
      } catch {
        return line.slice('data: '.length);
      }
    });
}

/** The answer text a payload carries, in any of the three formats (`undefined` for none). */
function contentOf(payload: unknown): string | undefined {
  const value = payload as {
    choices?: { delta?: { content?: string } }[];
    delta?: { text?: string };
    candidates?: { content?: { parts?: { text?: string }[] } }[];
  };
  const text = value.choices?.[0]?.delta?.content ?? value.delta?.text ?? value.candidates?.[0]?.content?.parts?.[0]?.text;
  return text === '' ? undefined : text;
}

/** Reads a streamed response with fetch: each read's text, and what ended it (`'end'` or the error). */
async function readStream(api: EmulatorApi): Promise<{ reads: string[]; ending: unknown }> {
  const response = await fetch(`${emulator.url}${STREAM_PATH[api]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(streamBody(api)),
  });
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  const reads: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { reads, ending: 'end' };
      reads.push(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    return { reads, ending: error };
  }
}

/** Sends one streaming request over a raw TCP socket and returns every byte received until the close. */
async function rawExchange(api: EmulatorApi): Promise<string> {
  const body = JSON.stringify(streamBody(api));
  return new Promise<string>((resolve, reject) => {
    let received = '';
    const socket = connect(emulator.port, '127.0.0.1', () => {
      socket.write(
        `POST ${STREAM_PATH[api]} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

const APIS: readonly EmulatorApi[] = ['openai-completions', 'anthropic-messages', 'google-generative-ai'];

describe.each(APIS)('%s stream faults without chunkDelayMs', (api) => {
  it('cutAfterChunks: 2 — the client receives exactly the first 2 content chunks, then the connection breaks', async () => {
    emulator.setScript({ routes: [{ steps: [{ chunks: CHUNKS, cutAfterChunks: 2 }] }] });
    const { reads, ending } = await readStream(api);
    const contents = dataPayloads(reads.join('')).map(contentOf).filter((text) => text !== undefined);
    expect(contents).toEqual(['one ', 'two ']);
    expect(ending).toBeInstanceOf(TypeError);
    expect(emulator.requests()[0]?.outcome).toBe('cut after 2 chunks');
  });

  it('cutAfterChunks: the bytes before the cut are whole frames, and the response never ends cleanly', async () => {
    emulator.setScript({ routes: [{ steps: [{ chunks: CHUNKS, cutAfterChunks: 3 }] }] });
    const raw = await rawExchange(api);
    const [head = '', ...rest] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
    expect(rest.join('\r\n\r\n').endsWith('\r\n0\r\n\r\n')).toBe(false);
    const contents = dataPayloads(raw.replace(/\r\n[0-9a-f]+\r\n/g, '')).map(contentOf).filter((text) => text !== undefined);
    expect(contents).toEqual(['one ', 'two ', 'three ']);
  });

  it('malformedAfterChunks: 2 — the 2 good chunks come first, whole, then the bad one', async () => {
    emulator.setScript({ routes: [{ steps: [{ chunks: CHUNKS, malformedAfterChunks: 2 }] }] });
    const { reads } = await readStream(api);
    const payloads = dataPayloads(reads.join(''));
    const bad = payloads.findIndex((payload) => typeof payload === 'string' && payload.includes('"tru'));
    expect(bad).toBeGreaterThan(0);
    expect(payloads.slice(0, bad).map(contentOf).filter((text) => text !== undefined)).toEqual(['one ', 'two ']);
    expect(payloads.slice(0, bad).every((payload) => typeof payload === 'object')).toBe(true);
  });
});

describe('holdOpen', () => {
  it('keeps a finished stream without its end marker open until the client leaves', async () => {
    emulator.setScript({ routes: [{ steps: [{ chunks: ['a', 'b'], omitDone: true, holdOpen: true }] }] });
    const response = await fetch(`${emulator.url}${STREAM_PATH['openai-completions']}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(streamBody('openai-completions')),
    });
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"finish_reason":"stop"')) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended; got ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    expect(text).not.toContain('[DONE]');
    expect(emulator.requests()[0]?.outcome).toBe('pending');
    await reader.cancel();
    let outcome = 'pending';
    for (let tries = 0; tries < 250 && outcome === 'pending'; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      outcome = emulator.requests()[0]?.outcome ?? '';
    }
    expect(outcome).toBe('ok (no end marker), held open until the client left');
  });
});

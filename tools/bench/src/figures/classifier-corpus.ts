/**
 * The payloads the classifier bench runs on: the captured corpus and the extra cases of
 * `packages/error-classifier/fixtures`, plus synthetic worst cases (a 1 MB random body, a 1 MB HTML page, a
 * deeply escaped 1 MB JSON string), generated from a fixed seed so every run measures the same bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ProviderFailure } from '@understudy/contracts';
import { BenchError } from '../errors.js';

/** One payload with a name for reports. */
export interface BenchPayload {
  readonly id: string;
  readonly failure: ProviderFailure;
}

/** The fixture files read, relative to the repository root. */
export const FIXTURE_FILES = [
  'packages/error-classifier/fixtures/provider-errors.jsonl',
  'packages/error-classifier/fixtures/extra-cases.jsonl',
] as const;

/** Size of each synthetic worst-case body. @default 1 MiB */
export const LARGE_BODY_BYTES = 1024 * 1024;

function readJsonl(file: string): BenchPayload[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new BenchError(`cannot read the fixture corpus ${file}`, 'missing_input', { cause: error });
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const row = JSON.parse(line) as ProviderFailure & { id?: string };
      const { id, ...failure } = row;
      return { id: id ?? `${path.basename(file)}:${index + 1}`, failure };
    });
}

/** A small deterministic PRNG (mulberry32), so the random body is the same in every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RANDOM_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:,;"\'{}[]()<>/\\\n\t=+*&%$#@!?';

/** `bytes` characters of seeded random text drawn from letters, digits, punctuation and escapes. */
export function randomBody(bytes: number, seed = 1): string {
  const random = seededRandom(seed);
  const chars = new Array<string>(bytes);
  for (let index = 0; index < bytes; index += 1) chars[index] = RANDOM_ALPHABET.charAt(Math.floor(random() * RANDOM_ALPHABET.length));
  return chars.join('');
}

/** `head` + repeated `filler` + `tail`, exactly `bytes` characters long (the filler is cut to fit). */
function fitTo(bytes: number, head: string, filler: string, tail: string): string {
  const room = Math.max(0, bytes - head.length - tail.length);
  return `${head}${filler.repeat(Math.ceil(room / filler.length)).slice(0, room)}${tail}`;
}

/** The synthetic worst cases, each body exactly `bytes` characters. */
export function syntheticPayloads(bytes: number = LARGE_BODY_BYTES): BenchPayload[] {
  const random = randomBody(bytes);
  const html = fitTo(
    bytes,
    `<!DOCTYPE html><html><head><title>llm.example.dev | 520: Web server is returning an unknown error</title><script>${'var x=1;'.repeat(512)}</script></head><body>`,
    '<p>There is an unknown connection issue between the edge and the origin web server.</p>',
    '</body></html>',
  );
  const escapedError = JSON.stringify(JSON.stringify({ error: { type: 'overloaded_error', message: 'Overloaded' } })).slice(1, -1);
  const escaped = fitTo(bytes, '{"error":{"message":"', String.raw`\\\"padding\\\" `, `${escapedError}"}}`);
  return [
    { id: 'synthetic:random-1MiB', failure: { status: null, body: random } },
    { id: 'synthetic:random-1MiB-status-500', failure: { status: 500, body: random, message: random.slice(0, 4096) } },
    { id: 'synthetic:html-1MiB', failure: { status: 520, body: html } },
    { id: 'synthetic:escaped-json-1MiB', failure: { status: 200, body: escaped } },
  ];
}

/** The fixture payloads read from `repoRoot`. */
export function fixturePayloads(repoRoot: string): BenchPayload[] {
  return FIXTURE_FILES.flatMap((file) => readJsonl(path.join(repoRoot, file)));
}

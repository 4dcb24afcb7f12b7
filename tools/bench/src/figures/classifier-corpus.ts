/**
 * The payloads the classifier bench runs on: the fixture corpora of `packages/error-classifier/fixtures` (captured
 * payloads, extra cases, the second captured corpus and the public-payload corpus), plus synthetic worst cases —
 * 1 MiB random bodies in several disguises (plain, with a status, opening like JSON, as SSE `data:` lines, as CJK
 * text, as a `message`), a 1 MiB HTML page and a deeply escaped 1 MiB JSON string — generated from fixed seeds so
 * every run measures the same bytes.
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
const FIXTURE_FILES = [
  'packages/error-classifier/fixtures/provider-errors.jsonl',
  'packages/error-classifier/fixtures/extra-cases.jsonl',
  'packages/error-classifier/fixtures/provider-errors-2.jsonl',
  'packages/error-classifier/fixtures/provider-errors-3.jsonl',
] as const;

/** Fixture-row keys that are labels or bookkeeping, not part of the failure. */
const LABEL_KEYS = ['expect', 'accept', 'why', 'source', 'shape', 'split', 'expectStatus', 'expectRetryAfterMs'] as const;

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
      const row = JSON.parse(line) as ProviderFailure & { id?: string } & Record<string, unknown>;
      const { id, ...rest } = row;
      const failure: Record<string, unknown> = { ...rest };
      for (const key of LABEL_KEYS) delete failure[key];
      return { id: id ?? `${path.basename(file)}:${index + 1}`, failure: failure as ProviderFailure };
    });
}

/**
 * A small deterministic PRNG (mulberry32): values in [0, 1), the same sequence for the same `seed` in every run (the
 * random bodies here, and the classifier's golden corpus, `packages/error-classifier/tools/golden.mjs`).
 */
export function seededRandom(seed: number): () => number {
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

/** Joins UTF-16 code units into a string, a chunk at a time (no per-character string concatenation). */
function fromCodes(codes: Uint16Array): string {
  const CHUNK = 8192;
  const parts: string[] = [];
  for (let start = 0; start < codes.length; start += CHUNK) parts.push(String.fromCharCode(...codes.subarray(start, start + CHUNK)));
  return parts.join('');
}

/** `bytes` characters of seeded random text drawn from letters, digits, punctuation and escapes. */
export function randomBody(bytes: number, seed = 1): string {
  const random = seededRandom(seed);
  const codes = new Uint16Array(bytes);
  for (let index = 0; index < bytes; index += 1) codes[index] = RANDOM_ALPHABET.charCodeAt(Math.floor(random() * RANDOM_ALPHABET.length));
  return fromCodes(codes);
}

const CJK_ALPHABET =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严';
const CJK_COMMA = 0xff0c;

/** `chars` characters of seeded random CJK text (common hanzi, with a full-width comma now and then). */
function randomCjkBody(chars: number, seed = 7): string {
  const random = seededRandom(seed);
  const codes = new Uint16Array(chars);
  for (let index = 0; index < chars; index += 1) {
    codes[index] = random() < 0.05 ? CJK_COMMA : CJK_ALPHABET.charCodeAt(Math.floor(random() * CJK_ALPHABET.length));
  }
  return fromCodes(codes);
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
  const jsonHead = '{"error":{"message":"';
  const randomJsonish = `${jsonHead}${randomBody(Math.max(0, bytes - jsonHead.length), 2)}`;
  const sseEvent = `data: {"choices":[{"delta":{"content":"${randomBody(200, 3).replace(/["\\\n]/g, ' ')}"}}]}\n\n`;
  const sse = fitTo(bytes, '', sseEvent, 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n');
  const cjk = randomCjkBody(bytes);
  return [
    { id: 'synthetic:random-1MiB', failure: { status: null, body: random } },
    { id: 'synthetic:random-1MiB-seed-4-status-429', failure: { provider: 'openrouter', status: 429, body: randomBody(bytes, 4) } },
    { id: 'synthetic:random-1MiB-json-prefix', failure: { status: 400, body: randomJsonish } },
    { id: 'synthetic:random-1MiB-message', failure: { status: null, message: randomBody(bytes, 5) } },
    { id: 'synthetic:sse-1MiB-error-at-end', failure: { status: 200, body: sse } },
    { id: 'synthetic:cjk-1MiB', failure: { provider: 'zhipu', status: null, body: cjk } },
    { id: 'synthetic:random-1MiB-status-500', failure: { status: 500, body: random, message: random.slice(0, 4096) } },
    { id: 'synthetic:html-1MiB', failure: { status: 520, body: html } },
    { id: 'synthetic:escaped-json-1MiB', failure: { status: 200, body: escaped } },
  ];
}

/** The fixture payloads read from `repoRoot`. */
export function fixturePayloads(repoRoot: string): BenchPayload[] {
  return FIXTURE_FILES.flatMap((file) => readJsonl(path.join(repoRoot, file)));
}

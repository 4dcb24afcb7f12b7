/**
 * The golden-output corpus (tests and tools only: reads files): every fixture row and reference vector, plus
 * seeded random failures built from their fragments — statuses, bodies, messages, codes, details and headers
 * mixed across rows, wrapped in JSON, SSE, escaped JSON strings and log prefixes, truncated, concatenated, padded
 * past the text windows — so a change that must not change any output (a cost pass) can be checked byte for byte
 * against the output of the commit before it (`tools/golden.mjs`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ProviderFailure } from '@understudy/contracts';

/** One failure of the golden corpus, with a stable name. */
export interface GoldenCase {
  readonly id: string;
  readonly failure: ProviderFailure;
}

const fixturesDir = path.resolve(import.meta.dirname, '../../fixtures');

/** Fixture-row keys that are labels or bookkeeping, not part of the failure. */
const LABEL_KEYS: ReadonlySet<string> = new Set(['id', 'expect', 'accept', 'why', 'source', 'shape', 'split', 'expectStatus', 'expectRetryAfterMs']);

/** Every row of every `fixtures/*.jsonl` file, as the failure it describes (a reference vector's `input`). */
export function fixtureCases(): GoldenCase[] {
  const cases: GoldenCase[] = [];
  const files = fs.readdirSync(fixturesDir).filter((name) => name.endsWith('.jsonl')).sort();
  for (const file of files) {
    const lines = fs.readFileSync(path.join(fixturesDir, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      const row = JSON.parse(line) as Record<string, unknown>;
      const id = `${file}:${index + 1}:${typeof row.id === 'string' ? row.id : ''}`;
      if (row.input !== undefined) {
        cases.push({ id, failure: row.input as ProviderFailure });
        return;
      }
      const failure: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(row)) if (!LABEL_KEYS.has(key)) failure[key] = value;
      cases.push({ id, failure: failure as ProviderFailure });
    });
  }
  return cases;
}

/** The fragments random failures are built from, gathered from the fixture cases. */
interface Fragments {
  readonly texts: readonly string[];
  readonly codes: readonly string[];
  readonly statuses: readonly (number | null)[];
  readonly providers: readonly string[];
  readonly headers: readonly Readonly<Record<string, string>>[];
}

function fragmentsOf(cases: readonly GoldenCase[]): Fragments {
  const texts = new Set<string>();
  const codes = new Set<string>(['ECONNRESET', 'UND_ERR_HEADERS_TIMEOUT', 'insufficient_quota', '1113', 'RESOURCE_EXHAUSTED', 'APIConnectionError', 'err_tls_cert_x']);
  const statuses = new Set<number | null>([null, 200, 400, 401, 402, 403, 404, 408, 413, 422, 429, 500, 502, 503, 504, 520, 529]);
  const providers = new Set<string>(['openai', 'anthropic', 'openrouter', 'zhipu', 'google', 'dashscope', 'amazon-bedrock']);
  const headers: Readonly<Record<string, string>>[] = [{ 'retry-after': '20' }, { 'Retry-After': 'Thu, 01 Jan 2026 00:01:00 GMT' }, { 'retry-after-ms': '1500' }];
  for (const { failure } of cases) {
    const record = failure as Record<string, unknown>;
    for (const key of ['body', 'message'] as const) if (typeof record[key] === 'string' && record[key] !== '') texts.add(record[key]);
    if (Array.isArray(record.details)) for (const detail of record.details) if (typeof detail === 'string') texts.add(detail);
    for (const key of ['code', 'errorType'] as const) if (typeof record[key] === 'string') codes.add(record[key]);
    if (typeof record.status === 'number') statuses.add(record.status);
    if (typeof record.provider === 'string') providers.add(record.provider);
    if (record.headers !== null && typeof record.headers === 'object') headers.push(record.headers as Record<string, string>);
  }
  return { texts: [...texts], codes: [...codes], statuses: [...statuses], providers: [...providers], headers };
}

const PREFIXES = ['API Error: 429 ', 'Error code: 400 - ', 'HTTP 402: ', '✕ [API Error: ', 'status 403 Forbidden: ', '500: ', 'Error: ', '[GIN] 2024/05/25 - 02:20:27 | 503 | ', '  '];
const SUFFIXES = [' · Retrying in 5 seconds…', ']', '\n    at Object.<anonymous> (index.js:1:1)', ' (request id: req_123)', ''];
const CJK_WORDS = ['请求过于频繁', '余额不足', '模型不存在', '上下文长度超过限制', 'レート制限', '服务器繁忙', '配额'];

/**
 * Random failures built from the fixtures' fragments, drawn from `random` (a value in [0, 1) per call): a seeded
 * source (the bench's `seededRandom`, as `tools/golden.mjs` passes it) gives the same cases for the same `count`.
 */
export function randomCases(fixtures: readonly GoldenCase[], count: number, random: () => number): GoldenCase[] {
  const { texts, codes, statuses, providers, headers } = fragmentsOf(fixtures);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (probability: number): boolean => random() < probability;

  const text = (depth: number): string => {
    let value = pick(texts);
    const shape = random();
    if (shape < 0.1 && depth < 2) value = `${value} ${text(depth + 1)}`;
    else if (shape < 0.2) value = value.slice(0, Math.floor(random() * value.length));
    else if (shape < 0.3) value = value.slice(Math.floor(random() * value.length));
    else if (shape < 0.4) value = JSON.stringify({ error: { message: value, code: pick(statuses), type: pick(codes) } });
    else if (shape < 0.47) value = JSON.stringify({ error: { message: JSON.stringify({ error: { message: value, status: pick(statuses) } }) } });
    else if (shape < 0.53) value = `data: ${JSON.stringify({ type: 'error', error: { type: pick(codes), message: value } })}\n\n`;
    else if (shape < 0.57) value = `event: error\ndata: ${JSON.stringify({ error: { message: value } })}\n\ndata: [DONE]\n\n`;
    else if (shape < 0.65) value = `${pick(PREFIXES)}${value}${pick(SUFFIXES)}`;
    else if (shape < 0.7) value = JSON.stringify(value).slice(1, -1);
    else if (shape < 0.73) value = value.toUpperCase();
    else if (shape < 0.76) value = `${value} ${pick(CJK_WORDS)}`;
    else if (shape < 0.78) value = JSON.stringify({ choices: [{ message: { content: chance(0.5) ? '' : value }, finish_reason: pick(['stop', 'error', 'content_filter', 'length']) }] });
    else if (shape < 0.8) value = `<html><head><title>${pick(statuses) ?? 502} Bad Gateway</title></head><body><p>${value}</p></body></html>`;
    else if (shape < 0.81) value = value.repeat(Math.ceil((2 * 1024 + random() * 40 * 1024) / Math.max(1, value.length)));
    else if (shape < 0.82) value = `${'x '.repeat(Math.floor(random() * 8000))}${value}`;
    return value;
  };

  const cases: GoldenCase[] = [];
  for (let index = 0; index < count; index += 1) {
    const failure: Record<string, unknown> = {};
    if (chance(0.7)) failure.provider = pick(providers);
    if (chance(0.75)) failure.status = pick(statuses);
    if (chance(0.75)) failure.body = text(0);
    if (chance(0.35)) failure.message = text(0);
    if (chance(0.2)) failure.code = pick(codes);
    if (chance(0.1)) failure.errorType = pick(codes);
    if (chance(0.1)) failure.details = Array.from({ length: 1 + Math.floor(random() * 3) }, () => text(1));
    if (chance(0.1)) failure.headers = pick(headers);
    if (chance(0.04)) failure.phase = pick(['connect', 'headers', 'body', 'stream', 'other']);
    if (chance(0.02)) failure.abortCause = pick(['user', 'timeout', 'other']);
    if (chance(0.02)) failure.timeoutKind = pick(['connect', 'first_token', 'stall', '']);
    if (chance(0.01)) failure.status = '429';
    cases.push({ id: `random:${index}`, failure: failure as ProviderFailure });
  }
  return cases;
}

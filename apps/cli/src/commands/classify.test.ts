/**
 * `understudy classify` as docs/contracts.md#classify specifies it, run in-process with fake streams.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../main.js';
import { humanDuration } from './classify-output.js';

const NOW = Date.UTC(2026, 0, 1);
const OUTPUT_KEYS = ['reason', 'status', 'advancesFallback', 'rotatesProfile', 'cooldownScope', 'retryAfterMs', 'detail'];
const fixturesDir = path.resolve(import.meta.dirname, '../../../../packages/error-classifier/fixtures');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly lines: Record<string, unknown>[];
}

async function classify(argv: readonly string[], stdin: string | readonly string[]): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const chunks = typeof stdin === 'string' ? [stdin] : stdin;
  const code = await runCli(['classify', ...argv], { stdin: Readable.from(chunks), stdout, stderr, env: {} });
  const lines = argv.includes('--explain')
    ? []
    : out
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, stdout: out, stderr: err, lines };
}

const jsonl = (...rows: unknown[]): string => `${rows.map((row) => (typeof row === 'string' ? row : JSON.stringify(row))).join('\n')}\n`;

describe('understudy classify: output contract', () => {
  it('writes one line per input line with exactly the contract keys, in order', async () => {
    const run = await classify(['--now', String(NOW)], jsonl({ status: 429, headers: { 'retry-after': '20' }, body: 'Too Many Requests' }));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.lines).toHaveLength(1);
    expect(Object.keys(run.lines[0] ?? {})).toEqual(OUTPUT_KEYS);
    expect(run.lines[0]).toEqual({
      reason: 'rate_limit',
      status: 429,
      advancesFallback: true,
      rotatesProfile: true,
      cooldownScope: 'model',
      retryAfterMs: 20_000,
      detail: 'text.rate_limit',
    });
  });

  it('reports policy flags from the reason table: a refusal ends the turn and rotates nothing', async () => {
    const run = await classify([], jsonl({ status: 400, body: 'Your prompt was flagged as potentially violating our usage policy.' }));
    expect(run.lines[0]).toMatchObject({ reason: 'refusal', advancesFallback: false, rotatesProfile: false, cooldownScope: null });
  });

  it('a status stated in the text is reported when the input has none', async () => {
    const run = await classify([], jsonl({ message: 'HTTP 402: Payment Required' }, { body: 'status code 503' }, { body: 'socket hang up' }));
    expect(run.lines.map((line) => line['status'])).toEqual([402, 503, null]);
  });

  it('a line nested too deeply to read is that line\'s error; the lines after it go on', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const run = await classify([], [`{"status":429,"details":[${deep}]}`, `{"status":400,"body":${deep}}`, '{"status":429}'].join('\n'));
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ line: 1 });
    expect(String(lines[0]?.error)).toMatch(/details\[0\]. is nested too deeply/);
    expect(lines[1]).toMatchObject({ line: 2 });
    expect(lines[2]).toMatchObject({ reason: 'rate_limit' });
    expect(run.code).toBe(2);
  });

  it('ignores fields it does not know (id, expect, why)', async () => {
    const failure = { provider: 'anthropic', status: 529, body: '{"type":"error","error":{"type":"overloaded_error"}}' };
    const plain = await classify([], jsonl(failure));
    const annotated = await classify([], jsonl({ id: 'x-1', ...failure, expect: 'rate_limit', why: 'ignored' }));
    expect(annotated.lines).toEqual(plain.lines);
  });
});

describe('understudy classify: input handling', () => {
  it('prints {"error","line"} for an invalid line, goes on with the rest, and exits 2', async () => {
    const run = await classify([], jsonl({ status: 401 }, '{"status": 429,', { status: 503 }));
    expect(run.code).toBe(2);
    expect(run.lines).toHaveLength(3);
    expect(run.lines[0]?.['reason']).toBe('auth');
    expect(run.lines[1]).toEqual({ error: expect.stringContaining('invalid JSON') as unknown, line: 2 });
    expect(Object.keys(run.lines[1] ?? {})).toEqual(['error', 'line']);
    expect(run.lines[2]?.['reason']).toBe('overloaded');
  });

  it('answers a blank line in its place with {"error","line"} (one output line per input line), and exits 2', async () => {
    const run = await classify([], `\n${JSON.stringify({ status: 500 })}\n   \n\nnot json\n`);
    expect(run.code).toBe(2);
    expect(run.lines).toEqual([
      { error: expect.stringContaining('blank line') as unknown, line: 1 },
      expect.objectContaining({ reason: 'server_error' }),
      { error: expect.stringContaining('blank line') as unknown, line: 3 },
      { error: expect.stringContaining('blank line') as unknown, line: 4 },
      { error: expect.stringContaining('invalid JSON') as unknown, line: 5 },
    ]);
  });

  it('empty input: no output, exit 0', async () => {
    const run = await classify([], '');
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('the newline that ends the last line starts no line of its own: no output for it, exit 0', async () => {
    const run = await classify([], `${JSON.stringify({ status: 500 })}\n`);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([expect.objectContaining({ reason: 'server_error' })]);
  });

  it('rejects JSON that is not an object, naming what it got', async () => {
    const run = await classify([], jsonl('[1,2]', '42', 'null'));
    expect(run.lines.map((line) => line['line'])).toEqual([1, 2, 3]);
    expect(String(run.lines[0]?.['error'])).toContain('JSON object');
  });

  it('rejects a field of the wrong type, naming the field and the fix', async () => {
    const run = await classify([], jsonl({ status: 'soon' }, { headers: ['retry-after'] }, { details: 7 }));
    expect(run.code).toBe(2);
    expect(run.lines.map((line) => String(line['error']))).toEqual([
      expect.stringContaining('"status" must be a whole number from 0 to 999 or null'),
      expect.stringContaining('"headers" must be an object'),
      expect.stringContaining('"details" must be an array of strings'),
    ]);
  });

  // Breaker F10: a status is a whole HTTP status number; an overflowing one is named as what it is.
  it('rejects a status that is no HTTP status: infinite, negative, fractional', async () => {
    const run = await classify([], '{"status":1e999}\n{"status":-1}\n{"status":429.5}\n{"status":0}\n');
    expect(run.code).toBe(2);
    expect(run.lines.slice(0, 3).map((line) => String(line['error']))).toEqual([
      expect.stringContaining('got number Infinity'),
      expect.stringContaining('got number -1'),
      expect.stringContaining('got number 429.5'),
    ]);
    expect(run.lines[3]).toMatchObject({ status: 0 });
  });

  it('accepts obvious spellings: numeric-string status, numeric header values and codes, a JSON body object', async () => {
    const run = await classify(
      ['--now', String(NOW)],
      jsonl(
        { status: '429', headers: { 'retry-after': 7 } },
        { provider: 'zai', code: 1113, status: 429 },
        { status: 400, body: { error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } } },
      ),
    );
    expect(run.code).toBe(0);
    expect(run.lines[0]).toMatchObject({ reason: 'rate_limit', status: 429, retryAfterMs: 7000 });
    expect(run.lines[1]).toMatchObject({ reason: 'billing', detail: 'zhipu.1113' });
    expect(run.lines[2]).toMatchObject({ reason: 'context_overflow' });
  });

  it('reads CRLF line endings and a byte-order mark', async () => {
    const run = await classify([], `\uFEFF${JSON.stringify({ status: 401 })}\r\n${JSON.stringify({ status: 404, body: '' })}\r\n`);
    expect(run.lines.map((line) => line['reason'])).toEqual(['auth', 'no_error_details']);
  });

  it('streams lines split across arbitrary chunks, in order', async () => {
    const text = jsonl(...Array.from({ length: 50 }, (_, index) => ({ status: index % 2 === 0 ? 429 : 503 })));
    const chunks = text.match(/[\s\S]{1,7}/g) ?? [];
    const run = await classify([], chunks);
    expect(run.lines).toHaveLength(50);
    expect(run.lines.every((line, index) => line['reason'] === (index % 2 === 0 ? 'rate_limit' : 'overloaded'))).toBe(true);
  });

  it('handles a large input line by line (20 000 lines)', async () => {
    const line = `${JSON.stringify({ status: 500, body: 'x'.repeat(200) })}\n`;
    const run = await classify([], Array.from({ length: 20_000 }, () => line));
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(20_000);
    // Correctness, not speed (the bench measures that): a loaded shared machine needs more than the default 5 s.
  }, 60_000);
});

describe('understudy classify: options', () => {
  it('--provider applies to lines without a provider, not to lines with one', async () => {
    const run = await classify(['--provider', 'openrouter'], jsonl({ body: 'Provider returned error' }, { provider: 'anthropic', body: 'Provider returned error' }));
    expect(run.lines.map((line) => line['reason'])).toEqual(['timeout', 'unclassified']);
  });

  it('--now places Retry-After dates and zoned reset times', async () => {
    const run = await classify(
      ['--now', String(NOW)],
      jsonl(
        { status: 429, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:01:00 GMT' } },
        { status: 429, body: 'Your limit resets at 2026-01-01T02:00:00Z' },
        { status: 429, body: 'Your limit will reset at 2026-01-01 02:00:00' },
      ),
    );
    expect(run.lines.map((line) => line['retryAfterMs'])).toEqual([60_000, 7_200_000, null]);
  });

  it('rejects a --now that is not epoch milliseconds with exit 2 and one line on stderr', async () => {
    const run = await classify(['--now', 'yesterday'], jsonl({ status: 429 }));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^understudy: --now must be a time in epoch milliseconds.*\n$/);
  });

  it('--explain prints reason, rule, matched text, status, retry-after and policy for people', async () => {
    const run = await classify(
      ['--explain', '--now', String(NOW)],
      jsonl({ id: 'pe-001', status: 429, body: 'Rate limit reached. Please try again in 174ms.' }, '{bad', { body: 'status code 503' }),
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('line 1 (pe-001): rate_limit  (rule text.rate_limit, matched "rate limit")');
    expect(run.stdout).toContain('status 429 (given) · retry after 174 ms · cooldown: model · advances fallback · rotates profile');
    expect(run.stdout).toContain('line 2: invalid input: invalid JSON');
    expect(run.stdout).toContain('line 3: overloaded  (rule text_status.503, matched "503")');
    expect(run.stdout).toContain('status 503 (stated in the text)');
    expect(run.stdout).toContain('decided by phrase · no wrapper · deciding status 429 (given) · phrase family text.rate_limit (en)');
    expect(run.stdout).toContain('decided by status · no wrapper · deciding status 503 (stated in the text)');
  });

  it('--explain shows the wrapper unwrapped, the inner status and the phrase family that decided', async () => {
    const inner = JSON.stringify({ error: { code: 429, message: '当前分组上游负载已饱和，请稍后再试', status: 'RESOURCE_EXHAUSTED' } });
    const run = await classify(['--explain', '--now', String(NOW)], jsonl({ status: 500, body: `Error: 500 ${JSON.stringify({ error: { message: inner } })}` }));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/unwrapped prefix › [^\n]*json-string/);
    expect(run.stdout).toContain('inner status 429');
    expect(run.stdout).toContain('deciding status 429 (the inner error\'s)');
    // the innermost error's own code (RESOURCE_EXHAUSTED) decided, before the wrapper's words
    expect(run.stdout).toContain('read in the innermost error first');
  });

  it('keeps the contract line free of the trace', async () => {
    const run = await classify(['--now', String(NOW)], jsonl({ status: 500, body: 'Error: 500 {"error":{"message":"{\\"error\\":{\\"code\\":429}}"}}' }));
    expect(Object.keys(JSON.parse(run.stdout) as object)).toEqual(['reason', 'status', 'advancesFallback', 'rotatesProfile', 'cooldownScope', 'retryAfterMs', 'detail']);
  });

  it('humanDuration reads like a person would say it', () => {
    expect([humanDuration(174), humanDuration(20_000), humanDuration(90_000), humanDuration(86_400_000)]).toEqual([
      '174 ms',
      '20 s',
      '1 min 30 s',
      '24 h',
    ]);
  });
});

describe('understudy classify over the captured fixture corpus', () => {
  it('assigns the expected reason to at least 97% of provider-errors.jsonl, one output per row', async () => {
    const text = fs.readFileSync(path.join(fixturesDir, 'provider-errors.jsonl'), 'utf8');
    const rows = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { expect: string });
    const run = await classify(['--now', String(NOW)], text);
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(rows.length);
    const agreeing = run.lines.filter((line, index) => line['reason'] === rows[index]?.expect).length;
    expect(agreeing / rows.length).toBeGreaterThanOrEqual(0.97);
  });
});

/**
 * The classifier's scores on the fixture files, computed the way the fixture tests judge a row (tests and tools only:
 * reads files). `tools/score.mjs` prints them; fixtures/SCORES.md records what was printed.
 *
 * - A corpus row passes when the reason is its `expect` or one of its `accept` reasons, and, where the row states
 *   them, the status (`status`, `expectStatus`) and `expectRetryAfterMs` match.
 * - A reference vector agrees by {@link agrees} (src/test-support/reference.ts); strict equality is counted too.
 * - The provider split groups rows by {@link providerFamily} and holds back whole families (every row of them, in
 *   every set) chosen by a seeded hash, so no wording of a held-back provider can have shaped a rule.
 */
import { explainFailure } from '../classify-failure.js';
import type { ProviderFailure } from '@understudy/contracts';
import { CORPUS_FILES, seededKey } from './corpus.js';
import { FIXTURE_NOW_MS, loadJsonLines, loadKnownDisagreements, loadReferenceDisagreements } from './fixtures.js';
import type { CorpusRow } from './fixtures.js';
import { agrees } from './reference.js';
import type { ReferenceVector } from './reference.js';

/** One corpus row with the file it came from. */
export interface ScoredRow {
  readonly file: string;
  readonly row: CorpusRow;
  /** The reason the classifier gave. */
  readonly got: string;
  readonly passes: boolean;
}

/** The reviewed labels of `provider-errors.jsonl` rows (`rows` in known-disagreements.json), which its test asserts. */
const reviewedLabels = (): ReadonlyMap<string, string> => new Map(loadKnownDisagreements().map((row) => [row.id, row.label]));

/**
 * Classifies one row at {@link FIXTURE_NOW_MS} and judges it as the fixture tests do (a `provider-errors.jsonl` row
 * listed in known-disagreements.json is judged by its reviewed label).
 */
export function scoreRow(file: string, row: CorpusRow, reviewed: ReadonlyMap<string, string> = reviewedLabels()): ScoredRow {
  const result = explainFailure(row, { nowMs: FIXTURE_NOW_MS });
  const label = file === 'provider-errors.jsonl' ? reviewed.get(row.id) : undefined;
  const allowed = label !== undefined ? [label] : [row.expect, ...(row.accept ?? [])];
  let passes = allowed.includes(result.reason);
  if (typeof row.status === 'number' && result.status !== row.status) passes = false;
  if (row.expectStatus !== undefined && result.status !== row.expectStatus) passes = false;
  if (row.expectRetryAfterMs !== undefined && result.retryAfterMs !== row.expectRetryAfterMs) passes = false;
  return { file, row, got: result.reason, passes };
}

/** Every row of every corpus file (CORPUS_FILES order), scored. */
export function scoreCorpus(files: readonly string[] = CORPUS_FILES): ScoredRow[] {
  const reviewed = reviewedLabels();
  return files.flatMap((file) => loadJsonLines<CorpusRow>(file).map((row) => scoreRow(file, row, reviewed)));
}

/** Reference-vector counts: strict equality, agreement, and the listed disagreements. */
export interface ReferenceScore {
  readonly vectors: number;
  readonly strict: number;
  readonly agreeing: number;
  /** Vectors listed in known-disagreements.json. */
  readonly listed: number;
  /** Listed vectors marked `design` (a transport failure read as `timeout` by docs/policy.md#failover-reasons). */
  readonly design: number;
  /** Vectors that neither agree nor are listed (the reference test fails on them). */
  readonly unlisted: readonly { readonly id: string; readonly expect: string | null; readonly got: string }[];
}

/** Scores `fixtures/reference-vectors.jsonl`. */
export function scoreReference(): ReferenceScore {
  const vectors = loadJsonLines<ReferenceVector>('reference-vectors.jsonl');
  const disagreements = loadReferenceDisagreements();
  const listed = new Set(disagreements.map((row) => row.id));
  let strict = 0;
  let agreeing = 0;
  const unlisted: { id: string; expect: string | null; got: string }[] = [];
  for (const vector of vectors) {
    const result = explainFailure(vector.input as ProviderFailure, { nowMs: FIXTURE_NOW_MS });
    if (result.reason === (vector.expect ?? 'unclassified')) strict += 1;
    if (agrees(vector, result)) agreeing += 1;
    else if (!listed.has(vector.id)) unlisted.push({ id: vector.id, expect: vector.expect, got: result.reason });
  }
  const design = disagreements.filter((row) => row.design !== undefined).length;
  return { vectors: vectors.length, strict, agreeing, listed: listed.size, design, unlisted };
}

/**
 * Provider ids that name one provider's wording under several spellings (a product, its CLI, its cloud): the family
 * is the first entry whose prefix starts the id.
 */
const FAMILY_PREFIXES: readonly (readonly [prefix: string, family: string])[] = [
  ['google', 'google'],
  ['gemini', 'google'],
  ['vertex', 'google'],
  ['aistudio', 'google'],
  ['antigravity', 'google'],
  ['anthropic', 'anthropic'],
  ['claude', 'anthropic'],
  ['openai-compatible', 'openai-compatible'],
  ['openai', 'openai'],
  ['chatgpt', 'openai'],
  ['codex', 'openai'],
  ['azure', 'azure'],
  ['amazon-bedrock', 'aws-bedrock'],
  ['aws-bedrock', 'aws-bedrock'],
  ['bedrock', 'aws-bedrock'],
  ['qwen', 'alibaba'],
  ['dashscope', 'alibaba'],
  ['dify(tongyi)', 'alibaba'],
  ['zhipu', 'zhipu'],
  ['zai', 'zhipu'],
  ['chatglm', 'zhipu'],
  ['glm', 'zhipu'],
  ['kimi', 'moonshot'],
  ['moonshot', 'moonshot'],
  ['github', 'github'],
  ['huggingface', 'huggingface'],
  ['huggingchat', 'huggingface'],
  ['volcengine', 'volcengine'],
  ['bytedance', 'volcengine'],
  ['coze', 'volcengine'],
  ['nvidia', 'nvidia'],
  ['one-api', 'one-api'],
  ['new-api', 'one-api'],
  ['one-hub', 'one-api'],
  ['opencode', 'opencode'],
  ['cloudflare', 'cloudflare'],
  ['stepfun', 'stepfun'],
  ['litellm', 'litellm'],
  ['openrouter', 'openrouter'],
  ['xai', 'xai'],
  ['grok', 'xai'],
  ['mistral', 'mistral'],
  ['deepseek', 'deepseek'],
  ['minimax', 'minimax'],
  ['koboldai', 'koboldcpp'],
  ['koboldcpp', 'koboldcpp'],
  ['sub2api', 'sub2api'],
  ['9router', '9router'],
  ['gpustack', 'gpustack'],
  ['fastgpt', 'fastgpt'],
  ['baidu', 'baidu'],
];

/**
 * The provider family of a row's `provider` id: lower-cased, then the family of the first {@link FAMILY_PREFIXES}
 * entry that starts it, else the id up to its first `(` (a relay's own id, `fastchat(…)` → `fastchat`).
 *
 * @example providerFamily('google-gemini-cli') // 'google'
 * @example providerFamily('Groq') // 'groq'
 */
export function providerFamily(provider: string | undefined): string {
  const id = (provider ?? '').trim().toLowerCase();
  if (id === '') return '(none)';
  const entry = FAMILY_PREFIXES.find(([prefix]) => id.startsWith(prefix));
  if (entry !== undefined) return entry[1];
  const paren = id.indexOf('(');
  return paren === -1 ? id : id.slice(0, paren);
}

/** The seed of the provider split (a fixed text, so no one chooses which providers are held back). */
export const PROVIDER_SPLIT_SEED = 'provider-heldout-2026-12-04:';

/**
 * The held-back provider families: every family that appears in `rows`, ordered by sha1(seed + family), taken first to
 * last until their rows are a fifth of all rows or more.
 */
export function heldBackFamilies(rows: readonly { readonly provider?: string | undefined }[], seed: string = PROVIDER_SPLIT_SEED): ReadonlySet<string> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const family = providerFamily(row.provider);
    counts.set(family, (counts.get(family) ?? 0) + 1);
  }
  const ordered = [...counts.keys()].sort((a, b) => (seededKey(seed, a) < seededKey(seed, b) ? -1 : 1));
  const held = new Set<string>();
  let heldRows = 0;
  for (const family of ordered) {
    if (heldRows * 5 >= rows.length) break;
    held.add(family);
    heldRows += counts.get(family) ?? 0;
  }
  return held;
}

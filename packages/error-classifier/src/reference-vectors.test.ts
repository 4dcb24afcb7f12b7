/**
 * `fixtures/reference-vectors.jsonl`: every vector either agrees with understudy (see
 * `src/test-support/reference.ts` for the agreement rule) or is listed under `reference` in
 * `fixtures/known-disagreements.json` with understudy's reason and why it is kept. A listed vector that now
 * agrees, or a listed `got` that no longer matches, fails: the list stays exact. Listed vectors marked `design` are
 * transport failures docs/policy.md#failover-reasons reads as `timeout` where the reference classifies nothing.
 */
import { describe, expect, it } from 'vitest';
import { explainFailure } from './index.js';
import type { ProviderFailure } from '@understudy/contracts';
import { FIXTURE_NOW_MS, loadJsonLines, loadReferenceDisagreements } from './test-support/fixtures.js';
import { agrees } from './test-support/reference.js';
import type { ReferenceVector } from './test-support/reference.js';

const vectors = loadJsonLines<ReferenceVector>('reference-vectors.jsonl');
const listed = new Map(loadReferenceDisagreements().map((row) => [row.id, row]));

describe('reference vectors', () => {
  it('agrees with at least 94% of the vectors; each listed disagreement names a real vector and argues it', () => {
    const ids = new Set(vectors.map((vector) => vector.id));
    for (const row of listed.values()) {
      expect(ids.has(row.id), row.id).toBe(true);
      expect(row.reason.length, row.id).toBeGreaterThan(40);
    }
    expect(1 - listed.size / vectors.length).toBeGreaterThanOrEqual(0.94);
  });

  it('marks as `design` only transport failures the reference leaves unclassified, and with them agrees with 95% or more', () => {
    const design = [...listed.values()].filter((row) => row.design !== undefined);
    for (const row of design) {
      expect(row.expect, row.id).toBeNull();
      expect(row.got, row.id).toBe('timeout');
    }
    expect(1 - (listed.size - design.length) / vectors.length).toBeGreaterThanOrEqual(0.95);
  });

  it.each(vectors.map((vector) => [`${vector.id} → ${vector.expect ?? 'null'}`, vector] as const))('%s', (_name, vector) => {
    const result = explainFailure(vector.input as ProviderFailure, { nowMs: FIXTURE_NOW_MS });
    const disagreement = listed.get(vector.id);
    if (disagreement === undefined) expect(agrees(vector, result), `got ${result.reason} (${result.detail})`).toBe(true);
    else {
      expect(agrees(vector, result), `${vector.id} now agrees: remove it from known-disagreements.json`).toBe(false);
      expect(result.reason).toBe(disagreement.got);
    }
  });
});

/**
 * Loads the JSON Lines fixture corpora of this package (tests only: reads files).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ProviderFailure } from '@understudy/contracts';

/** One fixture row: a provider failure plus its expected reason and why. */
export interface FixtureRow extends ProviderFailure {
  readonly id: string;
  readonly expect: string;
  readonly why: string;
  /** Expected `status` output, when the row checks it. */
  readonly expectStatus?: number | null;
  /** Expected `retryAfterMs` output (at {@link FIXTURE_NOW_MS}), when the row checks it. */
  readonly expectRetryAfterMs?: number | null;
  /** Other reasons a reviewed row also accepts (an arguable label), when it states them. */
  readonly accept?: readonly string[];
}

/** A reviewed disagreement with a fixture label. */
export interface KnownDisagreement {
  readonly id: string;
  readonly label: string;
  readonly reason: string;
}

/** The `nowMs` every fixture row is classified at: 2026-01-01T00:00:00Z. */
export const FIXTURE_NOW_MS = Date.UTC(2026, 0, 1);

const fixturesDir = path.resolve(import.meta.dirname, '../../fixtures');

/** Rows of `fixtures/<name>` (JSON Lines; blank lines skipped). */
export function loadFixtureRows(name: string): FixtureRow[] {
  return fs
    .readFileSync(path.join(fixturesDir, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FixtureRow);
}

/** A reference vector understudy reads differently, with the argued reason. */
export interface ReferenceDisagreement {
  readonly id: string;
  readonly expect: string | null;
  readonly got: string;
  /**
   * Set when the disagreement is a reading docs/policy.md#failover-reasons fixes on purpose: `'timeout is time or
   * transport'` (a transport failure the reference leaves unclassified).
   */
  readonly design?: 'timeout is time or transport';
  readonly reason: string;
}

/** One row of `fixtures/provider-errors-3.jsonl`: a public payload with its source and split. */
export interface CorpusRow extends FixtureRow {
  readonly source: string;
  readonly shape: string;
  readonly split: 'dev' | 'heldout';
}

/** The reviewed reference-vector disagreements (`reference` in `known-disagreements.json`). */
export function loadReferenceDisagreements(): ReferenceDisagreement[] {
  const parsed = JSON.parse(fs.readFileSync(path.join(fixturesDir, 'known-disagreements.json'), 'utf8')) as {
    reference: ReferenceDisagreement[];
  };
  return parsed.reference;
}

/** Rows of a JSON Lines fixture as plain records (reference vectors and the public corpus). */
export function loadJsonLines<T>(name: string): T[] {
  return fs
    .readFileSync(path.join(fixturesDir, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The reviewed known disagreements with `provider-errors.jsonl`. */
export function loadKnownDisagreements(): KnownDisagreement[] {
  const parsed = JSON.parse(fs.readFileSync(path.join(fixturesDir, 'known-disagreements.json'), 'utf8')) as {
    rows: KnownDisagreement[];
  };
  return parsed.rows;
}

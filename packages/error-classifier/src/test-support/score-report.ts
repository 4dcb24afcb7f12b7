/**
 * The text `tools/score.mjs` prints (tests and tools only): per corpus file, the rows passing; the reference
 * agreement; and the provider split (src/test-support/scores.ts) — per held-back family only its count, so rules can
 * be changed while the held-back rows stay unseen. Misses are listed only for rows outside the held-back families
 * and outside every held-back file, and only when asked (`--misses`).
 */
import { CORPUS_FILES, PROVIDER_SPLIT_FILES } from './corpus.js';
import { heldBackFamilies, providerFamily, scoreCorpus, scoreReference } from './scores.js';
import type { ScoredRow } from './scores.js';

const percent = (passing: number, rows: number): string => (rows === 0 ? '–' : `${((100 * passing) / rows).toFixed(1)} %`);

function line(label: string, rows: readonly ScoredRow[]): string {
  const passing = rows.filter((row) => row.passes).length;
  return `| ${label} | ${rows.length} | ${passing} | ${percent(passing, rows.length)} |`;
}

/**
 * The lines of the report; `options.misses` adds the misses of the dev rows; `options.devOnly` leaves out every count of
 * held-back rows (held-back files, held-back families), for runs while rules change.
 */
export function scoreReport(options: { readonly misses: boolean; readonly devOnly?: boolean }): string[] {
  const devOnly = options.devOnly === true;
  const scored = scoreCorpus(CORPUS_FILES);
  const out: string[] = ['## Corpus files', '', '| file | rows | passing | score |', '|---|---:|---:|---:|'];
  for (const file of CORPUS_FILES) if (!devOnly || !file.includes('heldout')) out.push(line(file, scored.filter((row) => row.file === file)));
  if (!devOnly) out.push(line('all corpus rows', scored));

  const reference = scoreReference();
  out.push(
    '',
    '## Reference vectors',
    '',
    `strict equality ${reference.strict}/${reference.vectors} (${percent(reference.strict, reference.vectors)}); ` +
      `agreement ${reference.agreeing}/${reference.vectors} (${percent(reference.agreeing, reference.vectors)}); ` +
      `listed disagreements ${reference.listed}; unlisted disagreements ${reference.unlisted.length}`,
    `agreement counting the ${reference.design} transport failures read as \`timeout\` by docs/policy.md#failover-reasons: ` +
      `${reference.agreeing + reference.design}/${reference.vectors} (${percent(reference.agreeing + reference.design, reference.vectors)})`,
  );
  for (const miss of reference.unlisted) out.push(`- unlisted: ${miss.id} expect ${String(miss.expect)} got ${miss.got}`);

  // The provider split of the eighth pass is drawn over sets 1–9; later sets hold back families of their own (their
  // `-heldout` files), so their dev rows are listed whatever their family.
  const splitFiles = new Set(PROVIDER_SPLIT_FILES);
  const inSplit = scored.filter((row) => splitFiles.has(row.file));
  const held = heldBackFamilies(inSplit.map((row) => row.row));
  const heldRows = inSplit.filter((row) => held.has(providerFamily(row.row.provider)));
  const devRows = inSplit.filter((row) => !held.has(providerFamily(row.row.provider)));
  out.push('', '## Provider split (sets 1–9, whole families held back in every set)', '', '| part | rows | passing | score |', '|---|---:|---:|---:|');
  out.push(line('dev families', devRows));
  if (!devOnly) {
    out.push(line('held-back families', heldRows), '', '| held-back family | rows | passing | score |', '|---|---:|---:|---:|');
    for (const family of [...held].sort()) out.push(line(family, heldRows.filter((row) => providerFamily(row.row.provider) === family)));
  }

  if (options.misses) {
    out.push('', '## Misses of dev rows (held-back families and held-back files not shown)', '');
    const listed = [...devRows, ...scored.filter((row) => !splitFiles.has(row.file))];
    for (const row of listed) {
      if (row.passes || row.file.includes('heldout') || row.row.split === 'heldout') continue;
      out.push(`- ${row.file} ${row.row.id} (${row.row.provider ?? '?'}) expect ${row.row.expect} got ${row.got}`);
    }
  }
  return out;
}

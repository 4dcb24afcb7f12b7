/**
 * Writing and printing a {@link BenchReport}: the JSON document for tools, a markdown table for people.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BenchReport, Figure } from './figure.js';

/** Writes the report as pretty JSON, creating the folder. */
export function writeReport(file: string, report: BenchReport): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}

/** A number for people: integers with thousands separators, small values with 3 significant digits. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(3)).toString();
}

/**
 * The figures as a markdown table (`figure | value | unit | baseline | ratio`).
 *
 * @example renderMarkdownTable([{ name: 'classifier.slowest_ms', unit: 'ms', value: 1.5 }])
 */
export function renderMarkdownTable(figures: readonly Figure[]): string {
  const rows = figures.map((figure) => [
    figure.name,
    formatNumber(figure.value),
    figure.unit,
    figure.baseline === undefined ? '' : `${figure.baseline.name} ${formatNumber(figure.baseline.value)}`,
    figure.ratio === undefined ? '' : `${formatNumber(figure.ratio)}×`,
  ]);
  const lines = [
    '| figure | value | unit | baseline | ratio |',
    '|---|---:|---|---|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
  return lines.join('\n');
}

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
function formatNumber(value: number): string {
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

/** The markdown file written beside a JSON report: `latest.json` → `latest.md`. */
export function markdownPath(jsonFile: string): string {
  return jsonFile.endsWith('.json') ? `${jsonFile.slice(0, -'.json'.length)}.md` : `${jsonFile}.md`;
}

/**
 * The machine in one line, e.g. `AMD EPYC × 2 cores, 23.5 GiB, Node v20.20.2, Linux 6.8 x64, load 0.1/0.2/0.3,
 * 2026-01-01T…`.
 */
function machineLine(machine: BenchReport['machine']): string {
  return [
    `${machine.cpu} × ${machine.cores} cores`,
    `${formatNumber(machine.totalMemoryMiB / 1024)} GiB`,
    `Node ${machine.node}`,
    `${machine.os} ${machine.arch}`,
    `load ${machine.loadAverage.join('/')}`,
    machine.date,
  ].join(', ');
}

/**
 * The whole report as markdown: the figure table, the machine, skipped figures with their reasons, and notes.
 *
 * @example renderMarkdownReport({ machine, figures: [] }).startsWith('| figure |') // true
 */
export function renderMarkdownReport(report: BenchReport): string {
  const parts = [renderMarkdownTable(report.figures), `Machine: ${machineLine(report.machine)}`];
  if (report.skipped !== undefined && report.skipped.length > 0) {
    parts.push(['Skipped:', ...report.skipped.map((skip) => `- ${skip.name}: ${skip.reason}`)].join('\n'));
  }
  if (report.notes !== undefined && report.notes.length > 0) parts.push(['Notes:', ...report.notes.map((note) => `- ${note}`)].join('\n'));
  return parts.join('\n\n');
}

/** Writes {@link renderMarkdownReport} to `file`, creating the folder. */
export function writeMarkdownReport(file: string, report: BenchReport): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${renderMarkdownReport(report)}\n`);
}

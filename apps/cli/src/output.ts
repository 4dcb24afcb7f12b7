/**
 * How the store-management commands print: JSON documents for scripts (`--json`: stdout holds the JSON alone),
 * tables for people (cli-table3), colour only when stdout is a terminal (picocolors).
 */
import type { Writable } from 'node:stream';
import { isoTime as isoText } from '@understudy/contracts';
import Table from 'cli-table3';
import picocolors from 'picocolors';

/** Colour functions; identity functions when colour is off. */
export type Colors = ReturnType<typeof picocolors.createColors>;

/** True when the stream is a terminal (so colour and tables are for a person). */
function isTerminal(stream: Writable): boolean {
  return (stream as Writable & { readonly isTTY?: boolean }).isTTY === true;
}

/** Colours for a stream: on only for a terminal, and never when `NO_COLOR` is set. */
export function colorsFor(stream: Writable, env: Readonly<Record<string, string | undefined>>): Colors {
  const noColor = env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
  return picocolors.createColors(isTerminal(stream) && !noColor);
}

/** Writes one JSON document (pretty, newline-terminated) to stdout. */
export function writeJson(stream: Writable, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A table as text. Cells are strings (`''` for nothing); the header is bold when colour is on. cli-table3's own
 * colouring is switched off so a piped output carries no escape codes.
 *
 * @example renderTable(['id', 'state'], [['openai:a', 'ok']], colors)
 */
export function renderTable(head: readonly string[], rows: readonly (readonly string[])[], colors: Colors): string {
  const table = new Table({
    head: head.map((title) => colors.bold(title)),
    style: { head: [], border: [], 'padding-left': 1, 'padding-right': 1 },
  });
  for (const row of rows) table.push([...row]);
  return table.toString();
}


/** An epoch-ms time as ISO text, or `fallback` (default `''`) when absent: the one helper of `@understudy/contracts`. */
export function isoTime(epochMs: number | undefined, fallback = ''): string {
  return isoText(epochMs, fallback);
}

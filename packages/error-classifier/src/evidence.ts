/**
 * Evidence: what the rules read from one {@link ProviderFailure}, computed once per failure. Every field of the
 * failure is read defensively (callers in plain JavaScript may pass anything), every text is flattened by
 * {@link prepareText}, and the code-like tokens and the stated status are extracted once.
 */
import { normalizeProviderId } from '@understudy/contracts';
import type { AbortCause, FailurePhase, ProviderFailure } from '@understudy/contracts';
import { statedStatus } from './stated-status.js';
import { withoutGeneratedText } from './text/completion-body.js';
import { prepareText } from './text/normalize-text.js';
import { extractCodeTokens, extractFinishReasons } from './text/tokens.js';

/** At most this many `details` strings are read. @default 32 */
export const MAX_DETAILS = 32;
/** Flattened text kept over all sources of one failure, in characters. @default 139264 (136 Ki) */
export const MAX_EVIDENCE_CHARS = 2 * (64 + 4) * 1024;

/** What the rules see of one failure. */
export interface Evidence {
  /** Canonical provider id (`normalizeProviderId`), or `''` when unknown. */
  readonly provider: string;
  /** The input status when it is a number, else `null`. */
  readonly inputStatus: number | null;
  /** The status the texts state, else `null`. */
  readonly statedStatus: number | null;
  /** `inputStatus`, else `statedStatus`: the status the status rules use. */
  readonly status: number | null;
  /** Body, message and details, flattened, joined by ` | ` and lower-cased. */
  readonly text: string;
  /** The same texts before lower-casing (retry-after dates are read from these). */
  readonly texts: readonly string[];
  /** Code-like tokens of the texts plus the failure's own `code` and `errorType`, lower-cased. */
  readonly tokens: ReadonlySet<string>;
  /** Finish / stop / block reasons named in the texts. */
  readonly finishReasons: ReadonlySet<string>;
  /** The failure's own `code` and `errorType`, lower-cased (empty strings when absent). */
  readonly code: string;
  readonly errorType: string;
  /** True when some text was an HTML page. */
  readonly html: boolean;
  readonly phase: FailurePhase | null;
  readonly abortCause: AbortCause | null;
  readonly timeoutKind: string | null;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

const PHASES: ReadonlySet<string> = new Set(['connect', 'headers', 'body', 'stream']);

function headersField(value: unknown): Readonly<Record<string, string>> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value as Record<string, unknown>)) {
    if (typeof headerValue === 'string') headers[name.toLowerCase()] = headerValue;
    else if (typeof headerValue === 'number' && Number.isFinite(headerValue)) headers[name.toLowerCase()] = String(headerValue);
  }
  return headers;
}

/**
 * Reads a failure into {@link Evidence}. Never throws: fields of the wrong type are ignored.
 *
 * @example buildEvidence({ status: 429, body: 'Too Many Requests' }).status // 429
 */
export function buildEvidence(input: ProviderFailure): Evidence {
  const failure: Partial<Record<keyof ProviderFailure, unknown>> =
    input !== null && typeof input === 'object' ? (input as Partial<Record<keyof ProviderFailure, unknown>>) : {};
  const inputStatus = typeof failure.status === 'number' ? failure.status : null;
  const body = stringField(failure.body);
  // A completion (no status, or below 400) may carry the model's own words; error statuses never do.
  const rawTexts: string[] = [inputStatus === null || inputStatus < 400 ? withoutGeneratedText(body) : body, stringField(failure.message)];
  if (Array.isArray(failure.details)) {
    for (const detail of failure.details.slice(0, MAX_DETAILS)) if (typeof detail === 'string') rawTexts.push(detail);
  }
  const texts: string[] = [];
  let html = false;
  let budget = MAX_EVIDENCE_CHARS;
  for (const raw of rawTexts) {
    if (budget <= 0) break;
    const prepared = prepareText(raw);
    if (prepared.text === '') continue;
    const kept = prepared.text.length > budget ? prepared.text.slice(0, budget) : prepared.text;
    texts.push(kept);
    budget -= kept.length;
    html ||= prepared.html;
  }
  const text = texts.join(' | ').toLowerCase();
  const code = stringField(failure.code).trim().toLowerCase();
  const errorType = stringField(failure.errorType).trim().toLowerCase();
  const tokens = extractCodeTokens(text);
  if (code !== '') tokens.add(code);
  if (errorType !== '') tokens.add(errorType);
  let stated = statedStatus(text);
  if (stated === null && /^\d{3}$/.test(code)) {
    const fromCode = Number(code);
    if (fromCode >= 100 && fromCode <= 599) stated = fromCode;
  }
  const phase = typeof failure.phase === 'string' && PHASES.has(failure.phase) ? (failure.phase as FailurePhase) : null;
  const abortCause = failure.abortCause === 'user' || failure.abortCause === 'timeout' ? failure.abortCause : null;
  const provider = typeof failure.provider === 'string' ? normalizeProviderId(failure.provider) : '';
  return {
    provider,
    inputStatus,
    statedStatus: stated,
    status: inputStatus ?? stated,
    text,
    texts,
    tokens,
    finishReasons: extractFinishReasons(text),
    code,
    errorType,
    html,
    phase,
    abortCause,
    timeoutKind: typeof failure.timeoutKind === 'string' && failure.timeoutKind !== '' ? failure.timeoutKind : null,
    headers: headersField(failure.headers),
  };
}

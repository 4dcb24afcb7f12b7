/**
 * Fallback notices (the model-failover doc "User-visible fallback notices"): one when a session moves onto a fallback, one
 * when it is back on its selected model, each once per state change (the stored `fallbackNotice`
 * selected/active pair), and never shown in group or channel chats — whose state is updated all the same.
 */
import type { ChatType, FailoverReason, FallbackNoticeState, SessionEntry, SessionPatch } from '@understudy/contracts';

/**
 * The notice of a move onto a fallback: `↪️ Model Fallback: <fallback> (selected <primary>; <reason>)`, the
 * reason written for people (its identifier with spaces: `rate limit`, `model not found`).
 *
 * @example fallbackNoticeText({ active: 'anthropic/claude-x', selected: 'openai/gpt-x', reason: 'rate_limit' })
 *   // '↪️ Model Fallback: anthropic/claude-x (selected openai/gpt-x; rate limit)'
 */
export function fallbackNoticeText(input: { readonly active: string; readonly selected: string; readonly reason: FailoverReason }): string {
  return `↪️ Model Fallback: ${input.active} (selected ${input.selected}; ${input.reason.replaceAll('_', ' ')})`;
}

/**
 * The notice of the return to the selected model: `↪️ Model Fallback cleared: <primary> (was <fallback>)`.
 *
 * @example fallbackClearedNoticeText({ selected: 'openai/gpt-x', previous: 'anthropic/claude-x' })
 *   // '↪️ Model Fallback cleared: openai/gpt-x (was anthropic/claude-x)'
 */
export function fallbackClearedNoticeText(input: { readonly selected: string; readonly previous: string }): string {
  return `↪️ Model Fallback cleared: ${input.selected} (was ${input.previous})`;
}

/** What a turn's answer means for the notice state. */
export interface NoticeTransition {
  /** The notice text for a direct chat, when the state changed. */
  readonly notice?: string | undefined;
  /** The notice-state write, when the state changed. */
  readonly patch?: SessionPatch | undefined;
}

/**
 * The notice transition after `active` answered a turn whose session selected `selected` (`provider/model`
 * texts).
 *
 * - On a fallback (`active ≠ selected`) with a known `reason`: a notice and new state unless the stored pair is
 *   already `selected`/`active`.
 * - Back on the selected model with a stored fallback state (or `previousFallback`, a legacy auto override that
 *   was just cleared): a "cleared" notice and the state removed.
 *
 * @example noticeTransition({ entry: undefined, selected: 'openai/a', active: 'anthropic/b', reason: 'rate_limit', chatType: 'direct', nowMs: 0 }).notice
 *   // '↪️ Model Fallback: anthropic/b (selected openai/a; rate limit)'
 */
export function noticeTransition(input: {
  readonly entry: SessionEntry | undefined;
  readonly selected: string;
  readonly active: string;
  readonly reason: FailoverReason | undefined;
  readonly chatType: ChatType;
  readonly nowMs: number;
  readonly previousFallback?: string | undefined;
}): NoticeTransition {
  const stored: FallbackNoticeState | undefined = input.entry?.fallbackNotice;
  const visible = (text: string): string | undefined => (input.chatType === 'direct' ? text : undefined);
  if (input.active !== input.selected) {
    if (input.reason === undefined) return {};
    if (stored?.selected === input.selected && stored.active === input.active) return {};
    const state: FallbackNoticeState = { selected: input.selected, active: input.active, reason: input.reason, since: input.nowMs };
    return { notice: visible(fallbackNoticeText({ active: input.active, selected: input.selected, reason: input.reason })), patch: { fallbackNotice: state } };
  }
  const previous = stored !== undefined && stored.active !== stored.selected ? stored.active : input.previousFallback;
  if (previous === undefined || previous === input.selected) {
    return stored === undefined ? {} : { patch: { fallbackNotice: null } };
  }
  return {
    notice: visible(fallbackClearedNoticeText({ selected: input.selected, previous })),
    ...(stored === undefined ? {} : { patch: { fallbackNotice: null } }),
  };
}

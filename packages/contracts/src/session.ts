/**
 * Session entries: the per-conversation state that the `/model` command, `sessions.patch`, compaction and the
 * runner share (docs/policy.md#failover-reasons, the model-failover doc "Session overrides and live model switching", "Session stickiness").
 */
import type { FailoverReason } from './failover-reason.js';
import type { ProfileId } from './profile-id.js';

/** Where the current model selection came from (docs/policy.md#failover-reasons). */
export type SelectionSource = 'default' | 'agent' | 'auto' | 'user' | 'legacy' | 'cron' | 'heartbeat';

/** Who set a session override: the user, or (legacy, auto-fallback era) the system. */
export type OverrideSource = 'user' | 'auto';

/** The conversation type: notices are shown only in `direct` chats (the model-failover doc "User-visible fallback notices"). */
export type ChatType = 'direct' | 'group' | 'channel';

/**
 * Notice state: which selected/active pair the last notice announced, so a notice is sent once per state
 * change. Absent when the session is on its selected model.
 */
export interface FallbackNoticeState {
  /** `provider/model` the session selected. */
  readonly selected: string;
  /** `provider/model` that actually answered. */
  readonly active: string;
  readonly reason: FailoverReason;
  /** When the state was entered, epoch ms. */
  readonly since: number;
}

/** A pending live model switch, set only by explicit user changes (`/model`, `sessions.patch`). */
export interface PendingLiveSwitch {
  readonly provider: string;
  readonly model: string;
  readonly authProfile?: ProfileId | undefined;
  /** When it was requested, epoch ms. */
  readonly requestedAt: number;
}

/**
 * The mutable fields of a session entry. Field names follow the spec. Absent means "not set".
 * `modelOverride` holds the model id without provider; `providerOverride` the provider id.
 * A legacy entry has `modelOverride` without `modelOverrideSource` and is treated as a user selection.
 */
export interface SessionFields {
  readonly providerOverride?: string | undefined;
  readonly modelOverride?: string | undefined;
  readonly modelOverrideSource?: OverrideSource | undefined;
  /** Legacy auto overrides only: the `provider/model` the fallback replaced (probed every 5 min). */
  readonly modelOverrideOrigin?: string | undefined;
  readonly authProfileOverride?: ProfileId | undefined;
  readonly authProfileOverrideSource?: OverrideSource | undefined;
  /** The compaction count when the automatic auth pin was chosen; a higher count releases it. */
  readonly authProfileOverrideCompactionCount?: number | undefined;
  readonly compactionCount?: number | undefined;
  readonly chatType?: ChatType | undefined;
  readonly fallbackNotice?: FallbackNoticeState | undefined;
  readonly pendingLiveSwitch?: PendingLiveSwitch | undefined;
  /** Last probe of a legacy auto override's origin, epoch ms. */
  readonly lastOriginProbeAt?: number | undefined;
}

/** A stored session entry: its key, the fields, and a revision for compare-and-set writes. */
export interface SessionEntry extends SessionFields {
  readonly key: string;
  /** Incremented on every write; compare-and-set writes name the revision they read. */
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * A partial update of session fields. A key set to `null` clears that field; an absent key leaves it alone.
 */
export type SessionPatch = { readonly [K in keyof SessionFields]?: SessionFields[K] | null };

/**
 * The patch that removes a session's model override together with what belongs to it: the provider, the source,
 * a legacy automatic override's origin and its probe stamp. The one copy: the chain builder clears a stale
 * legacy override with it, the runner clears one whose origin answered again, and a user's `/model` and
 * `/model default` start from it (docs/policy.md#failover-reasons).
 */
export const CLEAR_MODEL_OVERRIDE_PATCH: SessionPatch = Object.freeze({
  providerOverride: null,
  modelOverride: null,
  modelOverrideSource: null,
  modelOverrideOrigin: null,
  lastOriginProbeAt: null,
});

/**
 * The patch that removes a session's auth pin, user or automatic, with the compaction count it was chosen at
 * (the model-failover doc "Session stickiness").
 */
export const CLEAR_AUTH_PIN_PATCH: SessionPatch = Object.freeze({
  authProfileOverride: null,
  authProfileOverrideSource: null,
  authProfileOverrideCompactionCount: null,
});

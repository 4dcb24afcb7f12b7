/**
 * The candidate chain of a turn: which models it may try, in order (the model-failover doc "Selection source policy",
 * "Candidate chain rules", "Session overrides and live model switching"; docs/policy.md#failover-reasons, docs/policy.md). A frozen value the
 * runner executes.
 */
import type {
  Candidate,
  CandidateOrigin,
  ModelRef,
  SelectionSource,
  SessionFields,
  SessionPatch,
} from '@understudy/contracts';
import { CLEAR_MODEL_OVERRIDE_PATCH, formatModelRef, modelRefKey, sameModelRef } from '@understudy/contracts';
import type { AgentsModelConfig } from './agents-config.js';
import { resolveModelRef } from './agents-config.js';
import type { ConfiguredSelectionKind } from './configured-selection.js';
import { configuredSelection } from './configured-selection.js';
import { CandidateChainError } from './errors.js';
import { resolveSessionSelection } from './session-selection.js';

/** Inputs of {@link resolveCandidateChain}. */
export interface CandidateChainInput {
  /** The config's `agents` section (`@understudy/config`'s parsed `agents` fits). */
  readonly agents?: AgentsModelConfig | undefined;
  /** The agent the turn runs for (`agents.entries.<id>`). */
  readonly agentId?: string | undefined;
  /**
   * The requested model (`provider/model`, an alias, or a {@link ModelRef}). Absent: the agent's configured
   * primary. A session model override takes its place (see `session`).
   */
  readonly requested?: string | ModelRef | undefined;
  /**
   * The selection source of `requested`. @default 'default' (`agent` when the agent has its own model and
   * nothing is requested)
   */
  readonly source?: SelectionSource | undefined;
  /**
   * The caller's exact fallback list (a cron job's `payload.fallbacks` too): the chain is the requested model
   * plus exactly this list; `[]` makes the turn strict (no hidden configured primary).
   */
  readonly fallbacksOverride?: readonly (string | ModelRef)[] | undefined;
  /**
   * The session's fields. Its model override, when present, is the requested model and sets the source (`user`,
   * `legacy` when the source field is absent, `auto` for legacy automatic overrides) — except for `cron` runs,
   * whose job model wins, and heartbeat runs that clear a stale auto override.
   */
  readonly session?: SessionFields | undefined;
  /** The request carries images: the configured chain is `agents.defaults.imageModel` when set. */
  readonly isImageRequest?: boolean | undefined;
}

/**
 * A session change the caller should write (compare-and-set) as a consequence of the selection.
 * - `clear_auto_override`: a heartbeat run found a direct chat's legacy auto override whose origin no longer
 *   matches the configured default; `patch` clears it.
 */
export interface SessionAction {
  readonly kind: 'clear_auto_override';
  /** The override's origin (`provider/model`), when it had one. */
  readonly origin?: string | undefined;
  readonly patch: SessionPatch;
}

/** The resolved chain and how it was chosen. */
export interface CandidateChainPlan {
  /** The candidates, requested first, deduplicated by provider/model. Frozen. */
  readonly candidates: readonly Candidate[];
  /** The first candidate's model. */
  readonly requested: ModelRef;
  /** The effective selection source (a session override replaces the input's). */
  readonly source: SelectionSource;
  /** Which configured chain fallbacks came from. */
  readonly configured: ConfiguredSelectionKind;
  /** No fallback by policy: only the requested model (or exactly an override list) is tried. */
  readonly strict: boolean;
  /** Legacy `auto` overrides: the origin to probe every `legacyOverrideProbeIntervalMs`. */
  readonly autoOverrideOrigin?: ModelRef | undefined;
  /** Session writes the caller should make. Frozen; usually empty. */
  readonly sessionActions: readonly SessionAction[];
}

/**
 * Builds the candidate chain with its provenance (the model-failover doc "Candidate chain rules", "Selection source policy"):
 * - the requested model is always first; candidates are deduplicated by provider/model;
 * - with `fallbacksOverride`: exactly requested + that list (`[]` = strict, no hidden primary);
 * - `user` and `legacy` selections are strict;
 * - an `agent` primary is strict unless the agent's model object has its own `fallbacks`;
 * - `default`, `auto`, `cron` and `heartbeat` walk the configured fallbacks (not filtered by the allowlist, tried
 *   before the configured primary even across providers), then the configured primary is appended last;
 * - image requests use `agents.defaults.imageModel` as the configured chain;
 * - a heartbeat run clears a direct chat's legacy auto override whose origin is not the configured default
 *   primary (returned in `sessionActions`; the chain ignores that override).
 *
 * @throws {CandidateChainError} `invalid_model_ref` naming the field of a bad reference; `missing_model` when
 *   nothing is requested and no primary is configured.
 * @example resolveCandidateChain({ agents: { defaults: { model: { primary: 'openai/a', fallbacks: ['anthropic/b'] } } } })
 *   .candidates // [openai/a requested, anthropic/b configured_fallback]
 */
export function resolveCandidateChain(input: CandidateChainInput): CandidateChainPlan {
  const agents = input.agents;
  const isImageRequest = input.isImageRequest === true;
  const configured = configuredSelection(agents, input.agentId, isImageRequest);
  const sessionActions: SessionAction[] = [];

  let session = resolveSessionSelection(input.session, agents, input.agentId);
  if (session !== undefined && input.source === 'cron') session = undefined;
  if (session?.source === 'auto' && input.source === 'heartbeat' && (input.session?.chatType ?? 'direct') === 'direct') {
    const storedOrigin = input.session?.modelOverrideOrigin?.trim();
    const textDefault = configuredSelection(agents, input.agentId, false).primary;
    const origin =
      storedOrigin === undefined || storedOrigin === ''
        ? undefined
        : resolveModelRef(storedOrigin, { agents, field: 'session.modelOverrideOrigin' });
    if (origin === undefined || textDefault === undefined || !sameModelRef(origin, textDefault)) {
      sessionActions.push(
        Object.freeze({
          kind: 'clear_auto_override' as const,
          ...(origin === undefined ? {} : { origin: formatModelRef(origin) }),
          patch: CLEAR_MODEL_OVERRIDE_PATCH,
        }),
      );
      session = undefined;
    }
  }

  let requested: ModelRef;
  let source: SelectionSource;
  if (session !== undefined) {
    requested = session.requested;
    source = session.source;
  } else if (input.requested !== undefined) {
    requested = resolveModelRef(input.requested, { agents, field: 'requested' });
    source = input.source ?? 'default';
  } else {
    if (configured.primary === undefined) {
      throw new CandidateChainError(
        'missing_model',
        `${configured.field}.primary`,
        `No model requested and none configured: set ${configured.kind === 'agent' ? configured.field : 'agents.defaults.model'}.primary (e.g. "openai/gpt-4o") or request a provider/model`,
      );
    }
    requested = configured.primary;
    source = input.source ?? (configured.kind === 'agent' ? 'agent' : 'default');
  }

  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const push = (ref: ModelRef, origin: CandidateOrigin): void => {
    const key = modelRefKey(ref);
    if (seen.has(key)) return;
    seen.add(key);
    candidates.push(Object.freeze({ provider: ref.provider, model: ref.model, origin }));
  };
  push(requested, 'requested');

  let strict: boolean;
  if (input.fallbacksOverride !== undefined) {
    input.fallbacksOverride.forEach((entry, index) =>
      push(resolveModelRef(entry, { agents, field: `fallbacksOverride[${index}]` }), 'override_fallback'),
    );
    strict = input.fallbacksOverride.length === 0;
  } else if (
    source === 'user' ||
    source === 'legacy' ||
    ((source === 'agent' || source === 'default') && configured.kind === 'agent' && configured.fallbacks === undefined)
  ) {
    strict = true;
  } else {
    strict = false;
    for (const fallback of configured.fallbacks ?? []) push(fallback, 'configured_fallback');
    if (configured.primary !== undefined) push(configured.primary, 'configured_primary');
  }

  return Object.freeze({
    candidates: Object.freeze(candidates),
    requested: Object.freeze({ provider: requested.provider, model: requested.model }),
    source,
    configured: configured.kind,
    strict,
    ...(session?.source === 'auto' && session.origin !== undefined ? { autoOverrideOrigin: session.origin } : {}),
    sessionActions: Object.freeze(sessionActions),
  });
}

/**
 * The candidate chain alone (see {@link resolveCandidateChain} for the rules and the provenance).
 *
 * @throws {CandidateChainError} as {@link resolveCandidateChain}.
 * @example buildCandidateChain({ requested: 'anthropic/claude-x', source: 'user' }) // [anthropic/claude-x requested]
 */
export function buildCandidateChain(input: CandidateChainInput): readonly Candidate[] {
  return resolveCandidateChain(input).candidates;
}

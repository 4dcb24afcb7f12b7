export { FAILOVER_REASONS, isFailoverReason } from './failover-reason.js';
export type { CooldownScope, FailoverReason, FailureClassification } from './failover-reason.js';
export type { AbortCause, FailurePhase, ProviderFailure } from './provider-failure.js';
export { TIMEOUT_CODES, isTimeoutCode } from './provider-failure.js';
export { errorCode } from './error-code.js';
export { DEFAULT_SDK_RETRY_MAX_WAIT_MS } from './sdk-retry-cap.js';
export { formatModelRef, modelRefKey, normalizeProviderId, parseModelRef, sameModelRef } from './model-ref.js';
export type { ModelRef } from './model-ref.js';
export {
  DEFAULT_PROFILE_NAME,
  INLINE_PROFILE_NAME,
  formatProfileId,
  inlineProfileId,
  isInlineProfileId,
  normalizeProfileId,
  parseProfileId,
  providerOfProfileId,
  qualifyProfileId,
  splitModelAndProfile,
} from './profile-id.js';
export type { ProfileId } from './profile-id.js';
export { Secret } from './secret.js';
export { redactUrl, redactUrlsInText } from './redact-url.js';
export { UnderstudyError } from './understudy-error.js';
export { formatDurationMs, isoTime } from './time-text.js';
export { PROVIDER_APIS } from './provider-api.js';
export type { ProviderApi } from './provider-api.js';
export { credentialFacts } from './credential.js';
export type {
  ApiKeyCredential,
  AuthProfileView,
  Credential,
  CredentialFacts,
  CredentialType,
  OAuthCredential,
  ResolvedProfile,
  TokenCredential,
} from './credential.js';
export type { ProfileUsageStats, UsageStatsMap } from './usage-stats.js';
export { CLEAR_AUTH_PIN_PATCH, CLEAR_MODEL_OVERRIDE_PATCH } from './session.js';
export type {
  ChatType,
  FallbackNoticeState,
  OverrideSource,
  PendingLiveSwitch,
  SelectionSource,
  SessionEntry,
  SessionFields,
  SessionPatch,
} from './session.js';
export type { Candidate, CandidateOrigin } from './candidate.js';
export { silentLogger } from './ports.js';
export type {
  AbortSignalLike,
  AttemptCallOptions,
  AttemptFunction,
  AttemptResult,
  AuthStorePort,
  Clock,
  FormatRepair,
  Logger,
  ProviderAuthState,
  RandomSource,
  SessionWriteResult,
  UsageStatsTransition,
} from './ports.js';

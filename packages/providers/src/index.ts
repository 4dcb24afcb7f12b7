/**
 * `@understudy/providers`: provider clients over undici for the `openai-completions`, `anthropic-messages` and
 * `google-generative-ai` wire formats, one internal chat shape, failures as the contracts' `ProviderFailure`.
 */
export { PROVIDER_APIS, isContentDelta } from './chat-types.js';
export type {
  ChatAssistantMessage,
  ChatContent,
  ChatContentPart,
  ChatImageSource,
  ChatMessage,
  ChatReasoning,
  ChatRequest,
  ChatResponseFormat,
  ChatResult,
  ChatStreamDelta,
  ChatSystemMessage,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
  ChatToolMessage,
  ChatUsage,
  ChatUserMessage,
  FinishReason,
  ModelCapabilities,
  NativeRequest,
  ProviderApi,
  WireApi,
} from './chat-types.js';
export { createProviderClient } from './client.js';
export type {
  ProviderCallOptions,
  ProviderClient,
  ProviderClientOptions,
  ProviderTimeouts,
  ResolvedProviderTimeouts,
} from './client-options.js';
export { collectChatStream } from './chat-stream.js';
export type { ChatStream } from './chat-stream.js';
export { callOptions, completeAttempt, streamAttempt } from './attempt.js';
export type { AttemptOptions, CandidateRequest, ClientResolver } from './attempt.js';
export { ProviderCallError, ProviderOptionsError } from './provider-call-error.js';
export type { ProviderErrorCode } from './provider-call-error.js';
export { ANTHROPIC_VERSION, authHeaders } from './auth-headers.js';
export { OAuthRefresher } from './oauth-refresher.js';
export type { OAuthCredentialSink, OAuthCredentialStore, OAuthRefreshOptions, RefreshOutcome } from './oauth-refresher.js';
export { MAX_FAILURE_BODY_BYTES } from './failure.js';
export type { ProviderPoolOptions } from './http.js';
export type { TimeoutKind } from './call-control.js';
export { DeviceLoginError, emailFromIdToken, loginWithDeviceCode } from './oauth-device-login.js';
export type { DeviceAuthorizationPrompt, DeviceLoginOptions } from './oauth-device-login.js';
export { sanitizeToolCallIds } from './tool-call-ids.js';

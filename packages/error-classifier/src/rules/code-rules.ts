/**
 * Error codes and types: structured values a provider, an SDK or the transport put on the error (`type`,
 * `code`, gRPC-style `status`, AWS exception names, Node/undici error codes, finish reasons).
 *
 * Two strengths:
 * - **decisive** codes name the cause outright (`insufficient_quota`, `overloaded_error`, `RESOURCE_EXHAUSTED`,
 *   `ThrottlingException`, `ECONNRESET`). They are read before any prose, so a provider type beats a client's
 *   wording around it (the model-failover doc: a `rate_limit_error` whose message says "overloaded" stays a rate limit).
 * - **broad** codes only name a family (`authentication_error`, `invalid_request_error`, SDK classes such as
 *   `APIConnectionError`). They are read after the text families and after the input status, because providers
 *   put more specific causes under them (billing text under `permission_error`, an overload under
 *   `invalid_request_error`, an IAM denial wrapped as `APIConnectionError`). Wrapper codes — the ones a proxy
 *   or SDK puts on its own envelope (`upstream_error`, `bad_gateway`, a stream-error exception) — are broad too:
 *   the wrapped provider error names the cause. `api_error` is in neither table: providers and relays put every
 *   kind of failure under it (a tool that is not supported, a missing model, a balance), so only its text decides
 *   (docs/policy.md, "How the classifier reads a failure"). Gemini's `MALFORMED_FUNCTION_CALL` is no finish reason
 *   of failure here: the model wrote a bad tool call, and the same request can succeed when sent again.
 */
import type { FailoverReason } from '@understudy/contracts';
import { hasDefiniteResponse } from '../evidence.js';
import type { Evidence } from '../evidence.js';
import type { Verdict } from './rule.js';

type CodeTable = Readonly<Record<string, readonly [rule: string, reason: FailoverReason]>>;

/** Decisive codes (lower-cased). */
const DECISIVE: CodeTable = {
  // rate limits, quota windows (seed: ThrottlingException, resource exhausted, concurrency limits)
  rate_limit_exceeded: ['openai.rate_limit_exceeded', 'rate_limit'],
  rate_limit_error: ['anthropic.rate_limit_error', 'rate_limit'],
  rate_limit_reached_error: ['moonshot.rate_limit_reached_error', 'rate_limit'],
  ratelimitexceeded: ['google.rate_limit_exceeded', 'rate_limit'],
  userratelimitexceeded: ['google.rate_limit_exceeded', 'rate_limit'],
  resource_exhausted: ['gemini.resource_exhausted', 'rate_limit'],
  throttlingexception: ['bedrock.throttling_exception', 'rate_limit'],
  toomanyrequestsexception: ['aws.too_many_requests', 'rate_limit'],
  servicequotaexceededexception: ['aws.service_quota_exceeded', 'rate_limit'],
  too_many_requests: ['code.too_many_requests', 'rate_limit'],
  usage_limit_reached: ['codex.usage_limit_reached', 'rate_limit'],
  usage_limit_exceeded: ['code.usage_limit_exceeded', 'rate_limit'],
  concurrency_limit_exceeded: ['code.concurrency_limit', 'rate_limit'],
  request_quota_exceeded: ['cerebras.request_quota_exceeded', 'rate_limit'],
  too_many_requests_error: ['cerebras.too_many_requests', 'rate_limit'],
  rate_limited: ['mistral.rate_limited', 'rate_limit'],
  // duck.ai's limits on an anonymous session or address (`ERR_CONVERSATION_LIMIT`, under a 429; `ERR_BN_LIMIT`, under a 418)
  err_conversation_limit: ['duckduckgo.limit', 'rate_limit'],
  err_bn_limit: ['duckduckgo.limit', 'rate_limit'],
  // Tencent Cloud API 3.0 (Hunyuan): the common request-rate limit and the engine's own frequency limit
  requestlimitexceeded: ['tencent.request_limit_exceeded', 'rate_limit'],
  'failedoperation.engineserverlimitexceeded': ['tencent.engine_server_limit_exceeded', 'rate_limit'],
  // Tencent's billable resource used up (计费资源已耗尽)
  'resourceinsufficient.chargeresourceexhaust': ['tencent.charge_resource_exhaust', 'billing'],
  // capacity (docs/policy.md#failover-reasons: overloaded_error, at capacity, ModelNotReadyException)
  overloaded_error: ['anthropic.overloaded_error', 'overloaded'],
  engine_overloaded_error: ['moonshot.engine_overloaded_error', 'overloaded'],
  server_overloaded: ['code.server_overloaded', 'overloaded'],
  modelnotreadyexception: ['bedrock.model_not_ready', 'overloaded'],
  model_not_ready: ['code.model_not_ready', 'overloaded'],
  unavailable: ['grpc.unavailable', 'overloaded'],
  capacity_exceeded: ['code.capacity_exceeded', 'overloaded'],
  // the provider's own failure
  internal: ['grpc.internal', 'server_error'],
  internalserverexception: ['bedrock.internal_server_exception', 'server_error'],
  serviceunavailableexception: ['bedrock.service_unavailable_exception', 'server_error'],
  modelerrorexception: ['bedrock.model_error_exception', 'server_error'],
  // time and transport
  deadline_exceeded: ['grpc.deadline_exceeded', 'timeout'],
  request_timeout: ['code.request_timeout', 'timeout'],
  gateway_timeout: ['code.gateway_timeout', 'timeout'],
  modeltimeoutexception: ['bedrock.model_timeout', 'timeout'],
  econnreset: ['transport.econnreset', 'timeout'],
  econnrefused: ['transport.econnrefused', 'timeout'],
  econnaborted: ['transport.econnaborted', 'timeout'],
  etimedout: ['transport.etimedout', 'timeout'],
  enetreset: ['transport.enetreset', 'timeout'],
  ehostdown: ['transport.ehostdown', 'timeout'],
  stream_read_error: ['transport.stream_read_error', 'timeout'],
  esockettimedout: ['transport.esockettimedout', 'timeout'],
  epipe: ['transport.epipe', 'timeout'],
  enotfound: ['transport.enotfound', 'timeout'],
  eai_again: ['transport.eai_again', 'timeout'],
  ehostunreach: ['transport.ehostunreach', 'timeout'],
  enetunreach: ['transport.enetunreach', 'timeout'],
  enetdown: ['transport.enetdown', 'timeout'],
  err_stream_premature_close: ['transport.premature_close', 'timeout'],
  err_socket_connection_timeout: ['transport.connect_timeout', 'timeout'],
  err_tls_handshake_timeout: ['transport.tls_handshake_timeout', 'timeout'],
  und_err_aborted: ['undici.aborted', 'abort'],
  // TLS certificates (Node/OpenSSL codes, Python ssl)
  cert_has_expired: ['tls.cert_has_expired', 'tls_certificate'],
  cert_not_yet_valid: ['tls.cert_not_yet_valid', 'tls_certificate'],
  depth_zero_self_signed_cert: ['tls.self_signed', 'tls_certificate'],
  self_signed_cert_in_chain: ['tls.self_signed_in_chain', 'tls_certificate'],
  unable_to_verify_leaf_signature: ['tls.unable_to_verify_leaf', 'tls_certificate'],
  unable_to_get_issuer_cert: ['tls.unable_to_get_issuer', 'tls_certificate'],
  unable_to_get_issuer_cert_locally: ['tls.unable_to_get_issuer', 'tls_certificate'],
  cert_signature_failure: ['tls.cert_signature_failure', 'tls_certificate'],
  cert_untrusted: ['tls.cert_untrusted', 'tls_certificate'],
  cert_rejected: ['tls.cert_rejected', 'tls_certificate'],
  err_tls_cert_altname_invalid: ['tls.altname_invalid', 'tls_certificate'],
  certificate_verify_failed: ['tls.certificate_verify_failed', 'tls_certificate'],
  // billing and credits
  insufficient_quota: ['openai.insufficient_quota', 'billing'],
  exceeded_current_quota_error: ['moonshot.exceeded_current_quota', 'billing'],
  billing_hard_limit_reached: ['openai.billing_hard_limit', 'billing'],
  billing_not_active: ['openai.billing_not_active', 'billing'],
  insufficient_balance: ['code.insufficient_balance', 'billing'],
  credit_balance_exhausted: ['openai.credit_balance_exhausted', 'billing'],
  insufficient_balance_error: ['code.insufficient_balance', 'billing'],
  // OpenCode Zen / Go plan error classes: the free or subscription allowance is used up.
  freeusagelimiterror: ['opencode.usage_limit', 'billing'],
  gousagelimiterror: ['opencode.usage_limit', 'billing'],
  insufficient_credits: ['code.insufficient_credits', 'billing'],
  insufficient_credit: ['code.insufficient_credits', 'billing'],
  insufficient_funds: ['code.insufficient_funds', 'billing'],
  payment_required: ['code.payment_required', 'billing'],
  billing_disabled: ['google.billing_disabled', 'billing'],
  arrearage: ['dashscope.arrearage', 'billing'],
  // permanent auth
  account_deactivated: ['openai.account_deactivated', 'auth_permanent'],
  // Google ErrorInfo reason: the API key or project (the "consumer") was suspended by Google
  consumer_suspended: ['google.consumer_suspended', 'auth_permanent'],
  invalid_api_key: ['openai.invalid_api_key', 'auth'],
  organization_deactivated: ['code.organization_deactivated', 'auth_permanent'],
  account_disabled: ['code.account_disabled', 'auth_permanent'],
  account_suspended: ['code.account_suspended', 'auth_permanent'],
  api_key_revoked: ['code.api_key_revoked', 'auth_permanent'],
  invalid_grant: ['oauth.invalid_grant', 'auth_permanent'],
  // ElevenLabs' abuse detector switched the account's free tier off: only the provider or a paid plan lifts it
  detected_unusual_activity: ['elevenlabs.detected_unusual_activity', 'auth_permanent'],
  // LMDeploy's response type for an input over the engine's length
  input_length_error: ['lmdeploy.input_length_error', 'context_overflow'],
  // Gemini's finish reason for a generated image its filter withheld, named as a code in a client's message
  image_safety: ['gemini.image_safety', 'refusal'],
  // the OpenAI SDK's parse helper when the completion stopped on its content filter
  contentfilterfinishreasonerror: ['openai.content_filter_finish_reason', 'refusal'],
  refresh_token_reused: ['oauth.refresh_token_reused', 'auth_permanent'],
  refresh_token_expired: ['oauth.refresh_token_expired', 'auth_permanent'],
  refresh_token_invalidated: ['oauth.refresh_token_invalidated', 'auth_permanent'],
  // missing models
  model_not_found: ['openai.model_not_found', 'model_not_found'],
  deploymentnotfound: ['azure.deployment_not_found', 'model_not_found'],
  deployment_not_found: ['azure.deployment_not_found', 'model_not_found'],
  unknown_model: ['code.unknown_model', 'model_not_found'],
  model_not_available: ['code.model_not_available', 'model_not_found'],
  model_decommissioned: ['groq.model_decommissioned', 'model_not_found'],
  model_is_deactivated: ['groq.model_is_deactivated', 'model_not_found'],
  invalid_model: ['perplexity.invalid_model', 'model_not_found'],
  model_not_supported: ['code.model_not_supported', 'model_not_found'],
  // context window
  context_length_exceeded: ['openai.context_length_exceeded', 'context_overflow'],
  model_context_window_exceeded: ['code.context_window_exceeded', 'context_overflow'],
  contextwindowexceedederror: ['litellm.context_window_exceeded', 'context_overflow'],
  prompt_too_long: ['code.prompt_too_long', 'context_overflow'],
  context_window_exceeded: ['code.context_window_exceeded', 'context_overflow'],
  exceed_context_size_error: ['llamacpp.exceed_context_size', 'context_overflow'],
  // refusals and content policy
  content_filter: ['code.content_filter', 'refusal'],
  content_policy_violation: ['code.content_policy_violation', 'refusal'],
  contentpolicyviolationerror: ['litellm.content_policy_violation', 'refusal'],
  data_inspection_failed: ['dashscope.data_inspection_failed', 'refusal'],
  responsible_ai_policy_violation: ['azure.responsible_ai_policy', 'refusal'],
  responsibleaipolicyviolation: ['azure.responsible_ai_policy', 'refusal'],
  // sessions
  previous_response_not_found: ['openai.previous_response_not_found', 'session_expired'],
  session_expired: ['code.session_expired', 'session_expired'],
  session_not_found: ['code.session_not_found', 'session_expired'],
  conversation_not_found: ['code.conversation_not_found', 'session_expired'],
  // context overflow named outright (Qianfan ModelBuilder, beside the family type invalid_request_error)
  tokens_too_long: ['qianfan.tokens_too_long', 'context_overflow'],
  characters_too_long: ['qianfan.characters_too_long', 'context_overflow'],
  // format
  // a model's bad tool call, not the request's fault (as Gemini's MALFORMED_FUNCTION_CALL): the same request can succeed again
  tool_use_failed: ['groq.tool_use_failed', 'server_error'],
  // explicit aborts
  apiuseraborterror: ['sdk.user_abort', 'abort'],
};

/** Broad codes (lower-cased): read after the text families and the input status. */
const BROAD: CodeTable = {
  authentication_error: ['anthropic.authentication_error', 'auth'],
  permission_error: ['anthropic.permission_error', 'auth'],
  api_key_invalid: ['google.api_key_invalid', 'auth'],
  api_key_invalid_error: ['google.api_key_invalid', 'auth'],
  invalid_api_key_error: ['code.invalid_api_key', 'auth'],
  incorrect_api_key_error: ['moonshot.incorrect_api_key', 'auth'],
  invalid_authentication_error: ['moonshot.invalid_authentication', 'auth'],
  unauthenticated: ['grpc.unauthenticated', 'auth'],
  permission_denied: ['grpc.permission_denied', 'auth'],
  unauthorized: ['code.unauthorized', 'auth'],
  accessdeniedexception: ['bedrock.access_denied', 'auth'],
  unrecognizedclientexception: ['aws.unrecognized_client', 'auth'],
  invalidsignatureexception: ['aws.invalid_signature', 'auth'],
  expiredtokenexception: ['aws.expired_token', 'auth'],
  authenticationerror: ['sdk.authentication_error', 'auth'],
  permissiondeniederror: ['sdk.permission_denied', 'auth'],
  not_found_error: ['anthropic.not_found_error', 'model_not_found'],
  not_found: ['grpc.not_found', 'model_not_found'],
  resourcenotfoundexception: ['aws.resource_not_found', 'model_not_found'],
  notfounderror: ['sdk.not_found', 'model_not_found'],
  invalid_request_error: ['code.invalid_request_error', 'format'],
  invalid_request: ['gemini.invalid_request', 'format'],
  invalid_argument: ['grpc.invalid_argument', 'format'],
  failed_precondition: ['grpc.failed_precondition', 'format'],
  validationexception: ['aws.validation', 'format'],
  badrequesterror: ['sdk.bad_request', 'format'],
  bad_request_error: ['code.bad_request_error', 'format'],
  unprocessableentityerror: ['sdk.unprocessable_entity', 'format'],
  request_too_large: ['anthropic.request_too_large', 'context_overflow'],
  string_above_max_length: ['openai.string_above_max_length', 'context_overflow'],
  upstream_error: ['code.upstream_error', 'server_error'],
  bad_gateway: ['code.bad_gateway', 'server_error'],
  cf_bad_gateway: ['openai.cf_bad_gateway', 'server_error'],
  modelstreamerrorexception: ['bedrock.model_stream_error', 'server_error'],
  unsupported_parameter: ['openai.unsupported_parameter', 'format'],
  unsupported_value: ['openai.unsupported_value', 'format'],
  server_error: ['openai.server_error', 'server_error'],
  internal_server_error: ['code.internal_server_error', 'server_error'],
  internalservererror: ['sdk.internal_server_error', 'server_error'],
  serviceunavailableerror: ['sdk.service_unavailable', 'overloaded'],
  unavailable: ['grpc.unavailable', 'overloaded'],
  // a quota named without saying which: a window or an allowance of credits, so billing words beside it decide first
  quota_exceeded: ['code.quota_exceeded', 'rate_limit'],
  ratelimiterror: ['sdk.rate_limit', 'rate_limit'],
  toomanyrequestserror: ['sdk.too_many_requests', 'rate_limit'],
  apitimeouterror: ['sdk.timeout', 'timeout'],
  apiconnectiontimeouterror: ['sdk.connection_timeout', 'timeout'],
  apiconnectionerror: ['sdk.connection_error', 'timeout'],
  timeouterror: ['sdk.timeout', 'timeout'],
  connectionerror: ['sdk.connection_error', 'timeout'],
  aborterror: ['dom.abort_error', 'abort'],
  cancelled: ['grpc.cancelled', 'abort'],
  // JVM and Python SDK exception classes named after the HTTP status they map (langchain4j, openai-java,
  // anthropic-java, cohere): the class is all such a stack trace may carry
  ratelimitexception: ['sdk.rate_limit', 'rate_limit'],
  authenticationexception: ['sdk.authentication_error', 'auth'],
  unauthorizedexception: ['sdk.unauthorized', 'auth'],
  unauthorizederror: ['sdk.unauthorized', 'auth'],
  permissiondeniedexception: ['sdk.permission_denied', 'auth'],
  forbiddenerror: ['sdk.forbidden', 'auth'],
  paymentrequirederror: ['sdk.payment_required', 'billing'],
  notfoundexception: ['sdk.not_found', 'model_not_found'],
  modelnotfoundexception: ['sdk.model_not_found', 'model_not_found'],
  badrequestexception: ['sdk.bad_request', 'format'],
  invalidrequestexception: ['sdk.invalid_request', 'format'],
  unprocessableentityexception: ['sdk.unprocessable_entity', 'format'],
  contentfilteredexception: ['sdk.content_filtered', 'refusal'],
  gatewaytimeouterror: ['sdk.gateway_timeout', 'timeout'],
};

/** Finish / stop / block reasons (the model-failover doc: provider-completed `error` is a server error; transport-shaped ones are timeouts). */
const FINISH: CodeTable = {
  error: ['finish_reason.error', 'server_error'],
  abort: ['finish_reason.abort', 'timeout'],
  aborted: ['finish_reason.abort', 'timeout'],
  network_error: ['finish_reason.network_error', 'timeout'],
  malformed_response: ['finish_reason.malformed_response', 'timeout'],
  refusal: ['finish_reason.refusal', 'refusal'],
  content_filter: ['finish_reason.content_filter', 'refusal'],
  // Cohere's generation stopped by its toxicity filter
  error_toxic: ['finish_reason.error_toxic', 'refusal'],
  // Bedrock Titan's `completionReason: "CONTENT_FILTERED"`
  content_filtered: ['finish_reason.content_filter', 'refusal'],
  safety: ['finish_reason.safety', 'refusal'],
  recitation: ['finish_reason.recitation', 'refusal'],
  prohibited_content: ['finish_reason.prohibited_content', 'refusal'],
  blocklist: ['finish_reason.blocklist', 'refusal'],
  spii: ['finish_reason.spii', 'refusal'],
  image_safety: ['finish_reason.image_safety', 'refusal'],
  image_prohibited_content: ['finish_reason.prohibited_content', 'refusal'],
  image_recitation: ['finish_reason.recitation', 'refusal'],
  // Vertex AI's Model Armor screening stopped the answer; GigaChat ends a generation it censored with "blacklist"
  model_armor: ['finish_reason.model_armor', 'refusal'],
  blacklist: ['finish_reason.blacklist', 'refusal'],
  // Zhipu ends a generation it filtered with finish_reason "sensitive"
  sensitive: ['finish_reason.sensitive', 'refusal'],
  model_context_window_exceeded: ['finish_reason.context_window_exceeded', 'context_overflow'],
  context_window_exceeded: ['finish_reason.context_window_exceeded', 'context_overflow'],
};

/** When several decisive codes appear, the reason earliest here wins (the most specific cause first). */
const PRECEDENCE: readonly FailoverReason[] = [
  'refusal',
  'context_overflow',
  'session_expired',
  'billing',
  'auth_permanent',
  'tls_certificate',
  'model_not_found',
  'overloaded',
  'rate_limit',
  'server_error',
  'timeout',
  'format',
  'auth',
  'abort',
];

function rank(reason: FailoverReason): number {
  const index = PRECEDENCE.indexOf(reason);
  return index === -1 ? PRECEDENCE.length : index;
}

/** A token start (or end) that names a family of codes: the affix, the rule id and the reason. */
type Affix = readonly [string, string, FailoverReason];

function lookup(table: CodeTable, tokens: Iterable<string>, prefixes: readonly Affix[], suffixes: readonly Affix[] = []): Verdict | null {
  let best: Verdict | null = null;
  for (const token of tokens) {
    let entry = Object.hasOwn(table, token) ? table[token] : undefined;
    if (entry === undefined) {
      const affix = prefixes.find(([start]) => token.startsWith(start)) ?? suffixes.find(([end]) => token.endsWith(end));
      if (affix !== undefined) entry = [affix[1], affix[2]];
    }
    if (entry === undefined) continue;
    const [rule, reason] = entry;
    if (best === null || rank(reason) < rank(best.reason)) best = { reason, rule, matched: token };
  }
  return best;
}

const DECISIVE_PREFIXES: readonly Affix[] = [
  ['und_err_', 'undici.transport', 'timeout'],
  // Tencent Cloud's common authentication failures (`AuthFailure.SignatureExpire`, `AuthFailure.SecretIdNotFound` …)
  ['authfailure.', 'tencent.auth_failure', 'auth'],
  ['err_tls_cert', 'tls.certificate', 'tls_certificate'],
  ['err_ssl_', 'tls.ssl', 'tls_certificate'],
];

/**
 * SDK exception classes with a vendor or layer prefix (`GatewayInternalServerError`, `MistralRateLimitError`) are
 * the status-named class they end with; read, like every broad code, after the text and the status.
 */
const BROAD_SUFFIXES: readonly Affix[] = [
  ['internalservererror', 'sdk.internal_server_error', 'server_error'],
  ['serviceunavailableerror', 'sdk.service_unavailable', 'overloaded'],
  ['ratelimiterror', 'sdk.rate_limit', 'rate_limit'],
  ['authenticationerror', 'sdk.authentication_error', 'auth'],
];

/**
 * The decisive code among the evidence tokens, or `null`.
 *
 * @example decisiveCode(buildEvidence({ code: 'ECONNRESET' }))?.reason // 'timeout'
 */
export function decisiveCode(evidence: Evidence): Verdict | null {
  // A client that could not parse the provider's answer says so in its own code (`MALFORMED_RESPONSE`): the body it
  // passes on is a cut answer, whose words are the model's — transport-shaped, like the finish reason of that name.
  if (evidence.code === 'malformed_response') return { reason: 'timeout', rule: 'transport.malformed_response', matched: evidence.code };
  const verdict = lookup(DECISIVE, evidence.tokens, DECISIVE_PREFIXES);
  // A window code under a 402 (Gemini's RESOURCE_EXHAUSTED for depleted prepaid credits, sent as 402 since the
  // prepay change) names the family, not the cause: the payment status and the text decide (docs/policy.md).
  if (verdict?.reason === 'rate_limit' && evidence.status === 402) return null;
  // A time or transport code read from the prose (`REQUEST_TIMEOUT` in a settings hint) beside a definite response
  // status is no event; the failure's own `code` still decides.
  if (verdict?.reason === 'timeout' && verdict.matched !== evidence.code && verdict.matched !== evidence.errorType && hasDefiniteResponse(evidence)) return null;
  // OpenAI's `model_not_found` code under a 401/403 ("Project … does not have access to model …") is a model this
  // credential may not use: the access words and the status decide (docs/policy.md: a model not allowed stays auth)
  if (verdict?.reason === 'model_not_found' && (evidence.status === 401 || evidence.status === 403)) return null;
  // gRPC's generic Unavailable read from a printed chain ("rpc error: code = Unavailable desc = …") is the transport
  // between a runtime and its backend; what the text says of the backend (a model that could not load) decides first,
  // and the code is read again with the broad codes (the failure's own `code` still decides here).
  if (verdict?.rule === 'grpc.unavailable' && verdict.matched !== evidence.code && verdict.matched !== evidence.errorType) return null;
  return verdict;
}

/**
 * The decisive code among the innermost error's own codes (with the failure's `code` and `errorType`) when a wrapper
 * was peeled to reach it, or `null`: the provider's type beats the wrapper's class name around it (a LiteLLM
 * `ContentPolicyViolationError` around Azure's tool-call validation error).
 */
export function decisiveWrappedCode(evidence: Evidence): Verdict | null {
  if (evidence.wrapped === null) return null;
  const verdict = lookup(DECISIVE, evidence.wrapped.codes, DECISIVE_PREFIXES);
  if (verdict?.reason === 'rate_limit' && evidence.status === 402) return null;
  return verdict;
}

/** The finish / stop / block reason that names a failure, or `null` (`stop`, `end_turn` … are not failures). */
export function finishReasonCode(evidence: Evidence): Verdict | null {
  return lookup(FINISH, evidence.finishReasons, []);
}

/** The broad code among the evidence tokens, or `null`. */
export function broadCode(evidence: Evidence): Verdict | null {
  return lookup(BROAD, evidence.tokens, [], BROAD_SUFFIXES);
}

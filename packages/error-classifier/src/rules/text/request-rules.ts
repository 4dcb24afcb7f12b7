/**
 * Text families about the request itself: refusals, context overflow, expired sessions, missing models and
 * malformed requests.
 *
 * Seed 002, "Which errors advance fallback":
 * - a final provider refusal (content policy, safety block) ends the turn;
 * - context overflow ("prompt is too long", "maximum context length", "input token count exceeds the maximum
 *   number of tokens", `n_keep >= n_ctx`) ends the turn too (compaction's business), unlike a provider's
 *   tokens-per-minute ceiling, which the rate-limit family reads first;
 * - a 404 is `model_not_found` unless its body names a more specific cause (session expiry, format, context …),
 *   so these families run before the status rules.
 *
 * Patterns are lower case with bounded quantifiers only.
 */
import type { TextRule } from '../rule.js';
import { family } from '../rule.js';

/** Content policy and safety blocks. */
export const REFUSAL_RULES: readonly TextRule[] = family('text.refusal', 'refusal', [
  /flagged as (?:potentially )?(?:violating|inappropriate|unsafe|harmful)/,
  /violat[a-z]{0,6} .{0,40}?(?:usage|content|safety|acceptable use|use|moderation) polic/,
  /content (?:management |moderation |safety |filtering )?polic(?:y|ies)/,
  /(?:response|prompt|output|content|request|input|completion) (?:was |has been )?(?:filtered|blocked) (?:due to|by|because)/,
  /blocked (?:due to|because of|for) (?:safety|recitation|prohibited|content|policy|other)/,
  /candidate was blocked|(?<![a-z])recitation(?![a-z])/,
  /safety (?:filter|system|settings|classifier|reasons)/,
  /(?:inappropriate|unsafe|harmful|sensitive|prohibited|objectionable) content/,
  /content exists risk|data ?inspection ?failed|datainspectionfailed/,
  /responsible ai (?:practices|policy|policies)/,
  /(?:flagged|rejected|blocked) by (?:our |the )?(?:moderation|content filter|safety)|moderation (?:failed|blocked|flagged)/,
  /unable to (?:respond|comply|assist) (?:to |with )?this request/,
  /内容(?:安全|审核|违规|不合规)|敏感(?:词|内容|信息)|不当内容|(?:输入|输出)(?:内容)?(?:可能)?(?:包含|存在)(?:不当|违规|敏感)|涉(?:政|黄|暴)/,
]);

/** The prompt does not fit the model's context window (or a provider's hard request-size cap). */
export const CONTEXT_OVERFLOW_RULES: readonly TextRule[] = family('text.context_overflow', 'context_overflow', [
  /context[ _-]?length[ _-]?exceeded|context length (?:of only|is only)/,
  /maximum context (?:length|window|size)|max(?:imum)? context length/,
  /context (?:window|size|length|limit) (?:is |was |has been )?(?:exceeded|full|too small|overflow)/,
  /exceeds? (?:the )?(?:model'?s )?(?:maximum |max |available )?context/,
  /context.{0,12}overflow|overflows? (?:the )?context/,
  /prompt (?:is )?too long|input (?:is )?too long|message(?:s)? (?:is |are )?too long|request (?:is )?too long/,
  /(?:input|prompt|request|message)s?(?: token count| tokens?)?(?: \(\d{1,12}\))? exceeds? (?:the )?(?:maximum|max|limit|allowed)/,
  /exceeds? the maximum number of (?:input )?tokens/,
  /exceed(?:s|ed)? (?:the )?(?:model(?:'s)? )?(?:token|context) limit|model token limit|range of input length should be/,
  /reduce the length of the (?:messages|prompt|input)/,
  /(?:max_tokens|max_completion_tokens|max_new_tokens)'? (?:or '[a-z_]{1,30}' )?is too large/,
  /n_keep.{0,24}n_ctx|cannot truncate prompt/,
  /expected maxlength: \d{1,12}, actual: \d{1,12}/,
  /member must have length less than or equal to/,
  /request (?:exceeds|is larger than|is bigger than) the maximum (?:allowed )?(?:size|length)/,
  /too many (?:input )?tokens in (?:the )?(?:prompt|input|request)/,
  /上下文(?:长度)?(?:超|过长|超出|超过|溢出)|超(?:出|过)(?:了)?(?:模型)?(?:的)?(?:最大)?(?:上下文|长度限制|token)|输入(?:内容)?(?:过长|太长)|长度超(?:过|出)(?:限制|最大)/,
]);

/** The provider no longer knows the conversation (session, thread or previous response). */
export const SESSION_EXPIRED_RULES: readonly TextRule[] = family('text.session_expired', 'session_expired', [
  /session (?:has |is |was )?(?:expired|timed out|not found|does not exist|no longer (?:exists|valid)|invalid)/,
  /(?:invalid|unknown|expired) session|no (?:such|active) session|session[_ ]id (?:is )?(?:invalid|not found|expired)/,
  /previous response.{0,120}?not found|previous_response_id/,
  /conversation (?:has )?(?:expired|not found|does not exist)|thread (?:not found|does not exist)/,
  /会话(?:已)?(?:过期|失效|不存在)/,
]);

/** The request shape is wrong, or the model/endpoint cannot take it (capabilities). Terminal for this payload. */
export const FORMAT_RULES: readonly TextRule[] = family('text.format', 'format', [
  /does not support (?:tools|tool use|tool calling|tool_choice|function calling|functions|images?|image input|vision|streaming|system (?:prompts?|messages?)|multimodal|audio|json mode|response_format|structured outputs?|reasoning|thinking)/,
  /(?:tools?|tool use|function calling|vision|images?|image input|streaming) (?:is |are )?not supported/,
  /no endpoints found that support/,
  /use (?:the )?\/?[a-z/._-]{1,40} (?:api|endpoint) instead|not a chat model|only supported (?:in|by|via|on) (?:the )?v1/,
  /invalid url \((?:get|post|put|patch|delete) /,
  /tool_use_id|tool_call_id|tool_use. blocks?|tool_result. blocks?|must have a corresponding/,
  /param(?:eter)?s? (?:is |are )?(?:incorrect|invalid|malformed|missing)|(?:invalid|malformed|unsupported|unknown|unrecognized) (?:parameter|argument|field|property|value|schema|payload|json|request body)/,
  /must contain at least one|must not be empty|cannot be empty|must be non-empty/,
  /unrecognized request arguments? supplied|unknown (?:request )?(?:parameter|argument|field)s?:/,
  /messages?\.\d{1,4}\.|messages?\[\d{1,4}\]/,
  /missing required|required (?:field|parameter|property)|extra inputs are not permitted|validation error/,
  /roles must alternate|must alternate between|first message must|function response turn|function call turn/,
  /reasoning_content .{0,60}?must be passed back|thinking (?:block|mode).{0,40}?must/,
  /invalid '[a-z0-9_.[\]]{1,80}'|invalid (?:value|type) for/,
  /参数(?:错误|无效|不合法|不正确|格式)|请求格式(?:错误|不正确)/,
]);

/** The model (or deployment) does not exist or is not offered to this account. */
export const MODEL_NOT_FOUND_RULES: readonly TextRule[] = family('text.model_not_found', 'model_not_found', [
  /model(?:[: ]{1,2}(?:[`'"][^`'"]{1,100}[`'"]|[a-z0-9._:/@-]{1,100}))? (?:was |is )?(?:not found|does not exist|doesn't exist|not exist)/,
  /models\/[a-z0-9._-]{1,80} is not found/,
  /(?:unknown|invalid|unsupported|nonexistent|non-existent) model|no such model/,
  /model (?:id|identifier|name) (?:is |was )?(?:invalid|not valid|unknown|not recogni[sz]ed)/,
  /model (?:has been |was |is )?(?:deprecated|decommissioned|retired|discontinued|sunset)|model is no longer (?:available|supported)/,
  /deployment (?:for this resource )?(?:does not exist|not found)|deploymentnotfound/,
  /no endpoints (?:found|available)/,
  /模型(?:不存在|未找到|已下线|已停用)|找不到模型|无可用渠道/,
]);

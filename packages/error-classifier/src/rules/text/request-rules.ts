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
import type { Evidence } from '../../evidence.js';
import type { TextRule } from '../rule.js';
import { family } from '../rule.js';

/** An account, organisation, key, project or resource that has been disabled, suspended, banned, deactivated or blocked: a ban, not a refusal. */
const BAN_STATEMENT = /(?:account|organi[sz]ation|org|workspace|api key|key|project|team|resource) (?:(?:has been|was|is) )?(?:permanently |temporarily )?(?:disabled|suspended|banned|deactivated|terminated|blocked)/;

/**
 * A policy word beside a ban ("Your organization has been disabled for violating our Usage Policy") is the ban, not a
 * refusal of this request. (Wrappers put 500s around moderation blocks, so a 5xx does not rule a refusal out.)
 */
function refusalApplies(evidence: Evidence): boolean {
  return !BAN_STATEMENT.test(evidence.text);
}

/** What is said to be too long ("prompt is too long", "Input (or history) is too long", "message tokens were too long", "The text you provided is too long"). */
const TOO_LONG = String.raw`(?:prompt|input|request|message|context|history|text)s?(?: \((?:or |and )?[a-z ]{1,20}\))?(?: you (?:provided|sent|entered|submitted|supplied))?(?: tokens?)?(?: length)? (?:is |are |was |were )?too long`;

/** Content policy and safety blocks. */
export const REFUSAL_RULES: readonly TextRule[] = family('text.refusal', 'refusal', {
  en: [
    /flagged as (?:potentially )?(?:violating|inappropriate|unsafe|harmful)/,
    /violat[a-z]{0,6} .{0,40}?(?:usage|content|safety|acceptable use|(?<!fair )use|moderation) polic/,
    /(?:prohibited|blocked|rejected|refused) due to (?:a )?violation of (?:the )?(?:provider(?:'s)? |our |its )?terms of (?:service|use)/,
    /content (?:management |moderation |safety |filtering )?polic(?:y|ies)/,
    /content blocked(?! by)|content blocked by (?:the |our |a )?(?:safety|content|moderation|policy|guardrail)|violat[a-z]{0,6} (?:[a-z]{1,20} ){0,3}content moderation|(?<![a-z])blockedpromptexception|<blockedreason\.(?!block_reason_unspecified)[a-z_]{2,40}/,
    /violates? (?:our |the |its )?(?:guardrails|content guidelines|usage guidelines|safety guidelines)/,
    // a client stating the model's refusal itself ("Claude Code refused to respond to this prompt")
    /(?:model|assistant|claude(?: code)?|gpt|gemini) refused to (?:respond to|answer|complete) (?:this|the|your) (?:prompt|request|message)/,
    // guardrails, jailbreak filters, risk detectors (Volcengine InputTextRiskDetection), Gemini's prohibited-content reasons
    /guardrails? intervened|guardrail_intervened|blocked by (?:the |a )?guardrails?|jailbreak (?:filter|detected|attempt)|(?:input|output)(?:text|image)?riskdetection|(?<![a-z])(?:image_)?prohibited_content|flagged for (?:possible |potential )?(?:a )?(?:policy|usage|content|safety) violation|(?:chat|conversation|request|prompt|message) (?:was |has been )?flagged for (?:possible |potential )?(?:[a-z]{1,20} )?risk/,
    /safeguards? (?:flagged|blocked)|withheld by (?:the )?(?:provider's )?content filter|(?:claude|the model|the assistant) refused (?:this|the|your) request|blocked,? as it (?:seems to |appears to |may |might )?violates?|violat[a-z]{0,6} .{0,40}?(?:usage|content|safety) guidelines|(?<![a-z])raifilteredreason(?![a-z])/,
    /(?:response|prompt|output|content|request|input|completion|message) (?:was |has been |is being )?(?:filtered|blocked) (?:due to|by(?! (?:a |an |the |your |our |corporate |company |the company )?(?:[a-z]{1,20} )?(?:gateway|proxy|firewall|waf|cdn|network|administrator|admin|zscaler|netskope|server|host|cloudflare|isp|security (?:service|solution|checkpoint)))|because|for reason)/,
    /blocked (?:due to|because of|for|for reason:?) ["']?(?:safety|recitation|prohibited|content|policy|other)/,
    /(?:may )?contains? (?:severe |serious )?violation information|guardrail[a-z_ -]{0,30} (?:checks? )?(?:failed|violated|triggered)|violation of [^ ]{1,80}guardrail[^ ]{0,40} detected|(?:content|request|prompt|message|input|response) (?:was |has been )?flagged for (?:possible |potential )?[a-z -]{1,30} risk|(?:response|suggestion|output|completion) matched public code|(?:was|been) blocked\. please rephrase (?:your|the) prompt|candidate was blocked|(?:caused by|due to) a blocked prompt|(?<![a-z])block_reason: ?(?:blockreason\.)?(?!(?:block_reason_unspecified|block_reason|unspecified|none|null|false)(?![a-z_]))[a-z_]{2,40}(?![a-z_.])|(?<![a-z])recitation(?![a-z])|blocked by safety settings|block_?reason=<?blockedreason\.(?!block_reason_unspecified)/,
    /safety (?:filter|system|settings|classifier|reasons)(?! (?:is |was )?(?:temporarily |currently )?(?:unavailable|down|not available))|safety polic(?:y|ies) (?:blocked|flagged|rejected)|(?<![a-z])provider\.filtered(?![a-z])/,
    /(?:inappropr?iate|unsafe|harmful|sensitive|prohibited|objectionable) content|detected sensitive content|sensitivecontentdetected|sensitive words?(?![a-z])|sensitive_words?_detected|sensitive chat messages?(?![a-z])/,
    /content exists risk|data ?inspection ?failed|datainspectionfailed|new_sensitive/,
    /responsible ai (?:practices|policy|policies)|responsibleaipolicyviolation/,
    /(?<!not |never )(?:flagged|rejected|blocked) by (?:our |the )?(?:moderation|content moderation|content filter|safety)|(?<![a-z])moderation (?:failed|blocked|flagged)/,
    // a guard's verdict in its own words (Guardrails AI's toxic sentences, a moderation model's flagged categories,
    // Midjourney's community standards and banned words, Stability's prompt filter)
    /(?<!no )(?:sentences?|text|response|output|content)s? (?:in (?:your|the) (?:response|output) )?(?:were|was) found to be (?:toxic|unsafe|harmful)|violates? (?:the |our )?polic(?:y|ies) against (?:generating |creating |producing )?(?:[a-z-]{1,20} )?content|that's beyond my current scope\. let(?:'|’)s talk about something else|[`'"] was flagged for (?:harassment|hate|violence|sexual|self[-_ ]harm)|(?:prompt|content|request|image|message) (?:might be|may be|is|was) against (?:our )?community (?:standards|guidelines)|(?:word|term|phrase) ["'][^"']{1,60}["'] is banned|invalid prompts? detected/,
    // safety measures that flagged the message (Anthropic's cyber-topic screen), a relay's "Prompt is sensitive"
    /safety measures (?:that )?(?:flagged|blocked)|(?:prompt|input) (?:is|was) (?:flagged as )?sensitive(?! to)/,
    /requires moderation and (?:your )?(?:input|prompt|content|request) (?:was |has been )?flagged|(?:your )?(?:input|prompt) (?:was |has been )?flagged (?:by|for|as)(?! not)/,
    /(?:model|assistant) (?:cannot|can't|can not|is unable to) answer (?:this|that|your) (?:question|request)|unable to (?:respond|comply|assist) (?:to |with )?this request|considered high risk|(?:can't|cannot|can not|won't) (?:assist|help|comply) with (?:that|this|your)(?: request)?(?![a-z])/,
    // the model declined in so many words, or a refusal stop reason written out in a log line
    /(?:model|assistant|(?<![a-z])ai|llm) (?:has )?(?:refused|declined) to (?:respond|answer|comply|continue)|stop_?reason[:=] ?["']?refusal(?![a-z])/,
    // Gemini's SPII finish reason written out: the answer held sensitive personal data and was stopped
    /flagged for (?:containing )?sensitive personally identifiable information/,
    // the model's own words when it declines a task ("I apologize, but I do not feel comfortable providing a translation")
    /(?<![a-z])i (?:do not|don't|do not really) feel comfortable (?:providing|translating|writing|generating|creating|producing|helping|assisting|engaging|continuing|responding|answering|sharing|describing)/,
    // usage guidelines named as what the output may violate (Cohere's "blocked output"), a guardrail that failed the call
    /(?:did not|didn't|failed to) pass (?:the )?(?:safety|content|security) (?:review|check|moderation)|potential violation of (?:our |the )?usage (?:guidelines|polic(?:y|ies))|(?<![a-z])blocked output(?![a-z])|guardrail (?:failed|blocked|denied)|(?<!no )nsfw (?:content )?(?:(?:was |has been )?detected|flagged|blocked)|violated (?:the |a )?guardrails?(?![a-z])/,
  ],
  ja: [/不適切な(?:内容|コンテンツ)|安全(?:性)?(?:ポリシー|フィルター)(?:により|によって)|(?:回答|応答|レスポンス|プロンプト|出力|コンテンツ|生成内容)(?:は|が)[^。]{0,30}(?:フィルター|フィルタ)(?:リング|処理)?され/],
  ko: [/(?:응답|답변|프롬프트|콘텐츠)(?:을|를|이|가)? ?(?:[^.]{0,30} )?필터링(?:했습니다|되었습니다|됐습니다)|(?:안전|콘텐츠) ?(?:정책|필터)(?:에 의해|으로 인해|에 따라)[^.]{0,30}(?:차단|거부)|(?:유해|부적절)한 (?:콘텐츠|내용)/],
  zh: [/(?:请求|内容|输入|输出|问题|提问)(?:中)?(?:可能)?(?:包含|存在|含有)(?:不安全|不当|违规|敏感)|不安全(?:的)?内容|未通过(?:安全|内容)?审核|内容(?:安全|审核|违规|不合规)|敏感(?:词|内容|信息)|不当内容|(?:输入|输出)(?:内容)?(?:可能)?(?:包含|存在)(?:不当|违规|敏感)|涉(?:政|黄|暴)/],
}, refusalApplies);

/** The prompt does not fit the model's context window (or a provider's hard request-size cap). */
export const CONTEXT_OVERFLOW_RULES: readonly TextRule[] = family('text.context_overflow', 'context_overflow', {
  en: [
    /context[ _-]?(?:length|window)[ _-]?exceeded|context length (?:of only|is only)/,
    /maximum context (?:length|window|size)|max(?:imum)? context length|configured context size|available context size/,
    /context (?:window|size|length|limit) (?:is |was |has been )?(?:exceeded|full|overflow)|context (?:window|size|length) (?:of )?(?:\d{1,9} tokens? )?exceeds|context (?:window|size|length) of \d{1,9}(?: tokens)? (?:was |has been )?exceeded|(?:context |input |prompt )token limit (?:exceeded|reached)|(?:input|prompt) tokens? exceeds? (?:the )?(?:configured |set )?limit/,
    /(?:prompt|input|request|messages?) (?:is|has|contains|uses) \d{1,12} tokens.{0,40}(?:context|limit|maximum|max)/,
    /exceeds? (?:the )?(?:model(?:'?s)? )?(?:maximum |max |available )?context|out of room in (?:the )?(?:model(?:'s)? )?context/,
    /context.{0,12}overflow(?! (?:bugs?|issues?|errors|messages|problems?))|overflows? (?:the )?context/,
    // (said before or after the fact — "prompt is too long", "The message was too long (198%)" — but not under a
    // condition, nor "too long ago" or "too long-running")
    new RegExp(String.raw`${TOO_LONG}(?![- ](?:ago|running))(?<!(?:if|unless|in case|when|whether) (?:the |your )?${TOO_LONG})|input prompt \(\d{1,9} tokens\) is too long|submit something shorter`),
    // vLLM's "The prompt (total length 25938) is too long to fit into the model (context length 4096)"; a conversation that
    // no longer fits the model's context; a prompt's token count set against what the model supports
    /(?:this |the |your )?request (?:has )?exceeded (?:your |the )?(?:max(?:imum)? )?token limit|too long to fit (?:into|in) the model|(?:no longer|does not|doesn't) fits? (?:in|into) (?:the )?model'?s? context|(?:prompt|input|request) contains \d{1,9}k? tokens,? (?:but |while |and |whereas )?(?:the )?(?:model|maximum|max|limit)/,
    // a token ceiling stated as the limit (Xunfei's "input token limit is 97280", Cohere's "tokens in the prompt cannot exceed")
    /(?<!model's )input token limit is \d|tokens in the prompt cannot exceed|maximum prompt length is \d{1,9} but the request contains|number of tokens in the prompt \(\d{1,9}\) is greater than/,
    // a provider's hard cap on the request's size, which a conversation's accumulated attachments reach ("Request too large (max 32MB)")
    /request (?:is )?too large \(max|maximum content size (?:limit )?(?:\(\d{1,15}\) )?exceeded|(?:request )?payload (?:is )?too large|input is too large to process|too many input tokens|max allowed tokens per (?:submitted )?batch|too many tokens in (?:the |a )?batch|exceed(?:s|ed)? (?:the )?session max(?:imum)? length|run out of tokens\.? session|(?:file|document|upload|attachment|request body|body) could not be [a-z]{3,12} because it is too large/,
    /must be (?:less|smaller|lower) than (?:the )?(?:model(?:'s)? )?(?:maximum )?context (?:length|window|size)|max(?:imum)? input (?:characters|tokens|length) is/,
    /(?:input|prompt|request|message|total)s?(?: token count| length| tokens?)?(?: of)?(?: \(\d{1,12}(?: tokens)?\))?(?: \d{1,12})?(?: tokens)? exceeds? (?:the )?(?:model(?:'s)? )?(?:maximum|max|limit|allowed)/,
    /(?:input|prompt|request|message)s?(?: \(\d{1,12} tokens\))? (?:is |are )?longer than (?:the )?(?:model.{0,3}s )?(?:maximum )?context (?:length|window|size)/,
    /exceeds? the maximum number of (?:input )?tokens|(?:prompt|input) has \d{1,12} tokens/,
    // an input that does not fit the window (Voyage), a length ceiling printed in parentheses (ONNX Runtime GenAI), a
    // character ceiling stated beside the size given (Hugging Face TEI), more data than a step can hold (Copilot Studio)
    /(?:does not|doesn't|will not|won't) fit (?:into|in|within) (?:the |the model's |its )?context(?: window| length)?|(?:input(?:_ids)?|prompt)[^|]{0,80}? exceeds max(?:imum)? length \(\d{2,8}\)|`?inputs?`? must have less than \d{2,9} (?:characters|tokens)\. given: \d|too much data to handle/,
    /exceed(?:s|ed)? (?:the )?(?:model(?:'s)? )?(?:token|context) limit|model token limit|range of input length should be/,
    /reduce the length of the (?:messages|prompt|input)|shorten (?:your |the )?(?:prompt|input|message|conversation)/,
    /must (?:be )?less than (?:the )?max(?:imum)? (?:input|context|prompt|sequence) length|maximum supported sequence length|requires a sequence length of \d|length \(\d{1,9}\) exceeds dimension size \(\d{1,9}\)|max(?:imum)? input length (?:exceeded|reached)|input length (?:exceeded|too long)|conversation (?:is |has (?:grown|become) )?too long|too many tokens:? (?:\d{1,9} ?> ?\d{1,9}|size limit exceeded)|(?:size |token )?limit exceeded by \d{1,9} tokens|requested \d{1,9} tokens?,? (?:but )?(?:the )?(?:max|maximum|limit)(?:imum)?(?: is)? \d|maximum context (?:is|of) \d/,
    /(?:total (?:number of )?tokens|prompt tokens|input tokens)(?: \([a-z ]{1,40}\))? (?:cannot|can't|must not|may not) exceed \d/,
    /max_tokens must be at least 1, got -\d/,
    /n_keep.{0,24}n_ctx|cannot truncate prompt|exceeds? (?:the )?n_ctx|max_seq_len/,
    // vLLM: "The decoder prompt (length 10127) is longer than the maximum model length of 8192"
    /longer than (?:the )?max(?:imum)? model length|(?:prompt|input)(?: \(length \d{1,12}\))? (?:is )?longer than (?:the )?max(?:imum)? (?:model |context |sequence )?length/,
    /tokens \+ .{0,3}max_new_tokens.{0,3} must be|inputs.{0,3} must have less than \d{1,9} tokens/,
    /expected maxlength: \d{1,12}, actual: \d{1,12}/,
    /member must have length less than or equal to \d{5,12}(?!\d)/,
    /request (?:size )?(?:exceeds|is larger than|is bigger than) (?:the )?(?:model(?:'s)? )?(?:maximum (?:allowed )?(?:size|length)|context)/,
    /too many (?:input )?tokens in (?:the )?(?:prompt|input|request)|load the model with a larger context length/,
    // the model's own length ceiling named as such ("model max length exceeded", "exceeds the model's max sequence length")
    // the stated ceiling of the question or prompt itself (Baidu ERNIE 336007 "the max length of current question is N")
    /max(?:imum)? length of (?:the )?(?:current )?(?:question|prompt|input|message|conversation)s? is \d/,
    /(?:model|sequence|context)(?:'s)? max(?:imum)? (?:sequence |input |token |context )?length (?:exceeded|reached)|exceeds? (?:the )?model(?:'s)? max(?:imum)? (?:sequence |input |token |context )?length/,
    // token arithmetic against a bound ("input tokens (35000) plus prefix length (0) must be < 4096", IBM watsonx)
    /(?:input|prompt) tokens? \(\d{1,9}\).{0,40}must be (?:<|<=|less than|smaller than|at most) ?\d|(?:input|prompt) tokens? \(\d{1,9}\) (?:has |have )?exceeded|exceeded max_(?:prompt|input)_tokens/,
  ],
  ja: [
    /コンテキスト(?:長|の長さ|ウィンドウ)?(?:を|が)?(?:超え|超過)|入力(?:が|は)?長すぎ|(?:チャット|会話|メッセージ)?の?長さ(?:の)?制限を(?:超え|超過)/,
    /(?:入力|プロンプト)?トークン(?:数)?(?:が|は)?.{0,12}(?:上限|最大(?:値|長)?)(?:を|に)?(?:超え|超過)/,
  ],
  zh: [/(?:附件|文件|请求)大小超过|(?:prompt|提示词?|输入)(?: )?超长|上下文(?:长度)?(?:超|过长|太长|超出|超过|溢出)|超(?:出|过)(?:了)?(?:模型)?(?:的)?(?:最大)?(?:上下文|长度限制|token)|输入(?:内容)?(?:过长|太长)|长度超(?:过|出)(?:限制|最大)|压缩上下文|token ?(?:数量|数)?(?:超过|超出)(?:了)?(?:上限|限制|最大)|字数(?:太多|过多)|精简输入/],
  ko: [/(?:컨텍스트|문맥|context) ?(?:길이|창|윈도우|한도)?(?:를|을|가|이)? ?(?:초과|넘었)|(?:컨텍스트|문맥) ?(?:길이 ?)?(?:한도|제한)(?:에서|에 걸려|로 인해|때문에) ?(?:잘렸|중단|끊겼)|(?:입력|프롬프트|메시지)(?:이|가)? (?:너무 길|최대 길이를 초과)|최대 (?:토큰|컨텍스트) (?:수|길이)를 초과/],
  ru: [/(?<!не )превыша[а-яё]{1,4} (?:[а-яё]{1,14} ){0,2}контекст|контекст[а-яё]{0,3} (?:[а-яё]{1,14} )?(?:превышен|переполнен)|слишком длинн[а-яё]{1,3} (?:запрос|сообщение|контекст|промпт)/],
});

/**
 * Token arithmetic that shows the prompt and the answer budget over the model's maximum ("prompt tokens (9471) +
 * max-sampled tokens (512) exceeds max (9216)"): read before the capacity and rate-limit words a UI banner may put
 * around it ("NETWORK ERROR DUE TO HIGH TRAFFIC … (error_code: 50004, …)"), since the sum is the cause.
 */
export const STATED_OVERFLOW_RULES: readonly TextRule[] = family('text.context_overflow', 'context_overflow', [
  /(?:prompt|input) tokens \(\d{1,9}\) \+ [a-z_ -]{0,30}tokens \(\d{1,9}\) exceeds? (?:the )?max/,
  // a tool's result too large for the model's context ("MCP tool "list" response (171718 tokens) exceeds maximum allowed tokens")
  /(?:response|result|output) \([0-9,]{1,12} (?:tokens|characters)\) exceeds (?:the )?maximum allowed tokens/,
]);

/**
 * A conversation the provider no longer knows comes with a success, a 400/404 or no status; under a 401/403, or beside
 * "log in again", an expired session is a login to renew (`auth`), not a lost conversation.
 */
function sessionApplies(evidence: Evidence): boolean {
  if (evidence.status === 401 || evidence.status === 403) return false;
  return !/(?:log|sign) ?in again|re-?log ?in|re-?authenticate/.test(evidence.text);
}

/** The provider no longer knows the conversation (session, thread or previous response). */
export const SESSION_EXPIRED_RULES: readonly TextRule[] = family('text.session_expired', 'session_expired', {
  en: [
    // not a credential's session ("OAuth session expired" is a login to renew: auth)
    /(?<!(?:oauth|login|auth|sign-in) )session (?:has |is |was )?(?:expired|timed out|not found|does not exist|not exists?|no longer (?:exists|valid)|invalid)/,
    /(?:invalid|unknown|expired) session|no (?:such|active) session|no session(?:, [a-z]{1,12}){0,3}(?:,? or [a-z]{1,12})? matched|session[_ ]id (?:is )?(?:invalid|not found|expired)/,
    /previous response.{0,120}?not found|previous_response_not_found|previous_response_id.{0,80}?not found/,
    // a conversation or session the server no longer knows ("conversation_id conv_9f2 is unknown or has been deleted", "session
    // abc123 does not exist on the server", "Session has ended. Create a new session"), a stored response since purged
    /(?:conversation|session|thread)(?:_id| id)? [^ ]{1,80} is unknown or (?:has been |was )?deleted|session [^ ]{1,80} (?:does not|doesn't) exist on the server|session has ended\.? (?:please )?(?:create|start) a new session|(?:response|resp_[a-z0-9]{1,40}) is no longer stored/,
    // an item of an earlier response the provider did not keep (`store: false`)
    /(?:conversation|thread|session) (?:was |has been )?deleted|(?:conversation|thread|session) (?:is )?no longer (?:available|exists|valid)|response_id (?:was )?not found|(?<![a-z])run not found|items are not persisted|(?:conversation|thread|session|history(?: node| entry)?|previous response|item) with id ['"]?[^'" ]{0,80}['"]? (?:was )?(?:not found|does not exist|not exists|no longer exists)/,
    /(?:conversation|thread)s?(?: ['"]?[a-z0-9_-]{1,64}['"]?)? (?:has )?(?:expired|not found|does not exist|doesn't exist|not exists|no longer exists)|no (?:conversation|thread) found/,
    // a quoted id in any alphabet ("Conversation '51D|BingProd|…' doesn't exist or has expired"), Bing's InvalidSession
    /(?:conversation|thread|session)s?:? '[^']{1,160}' (?:doesn't|does not|no longer) exists?|session:? '[^']{1,160}' (?:has )?(?:expired|not found|invalid)|(?:doesn't|does not) exist or has expired|(?<![a-z])invalidsession(?![a-z])/,
    // a provider-side context cache that is gone (Vertex AI's "Not found: cache content metadata …")
    /not found: cached? ?content|cached? ?content (?:[a-z0-9/_.-]{1,120} )?(?:is |has )?(?:not found|expired|does not exist)/,
    // a provider-side session that ran out of its allotted time (OpenAI Realtime's 30-minute cap)
    /session (?:has )?(?:hit|reached|exceeded) (?:the |its )?max(?:imum)? (?:duration|length|lifetime)/,
    // a provider-side execution container (code interpreter) that outlived its session
    /container (?:[a-z0-9_-]{1,64} )?(?:is |has )?expired/,
    // an uploaded file or attachment the provider has let go ("file_uuid '…' is unknown or expired")
    /(?:file|attachment|upload)(?:_uuid|_id| id)?:? ['"]?[^'" ]{1,80}['"]? is unknown or expired|no such file object|file [^ ]{1,80} not found on container/,
    // reasoning items of an earlier response whose sealed content this session cannot open (OpenAI `invalid_encrypted_content`)
    /encrypted content [^|]{0,160}?could not be (?:verified|decrypted)|(?<![a-z])invalid_encrypted_content(?![a-z])/,
  ],
  zh: [/会话(?:已)?(?:过期|失效|不存在)/],
}, sessionApplies);

/**
 * Not under a 401 or 403: there the provider refused the credential, and the status decides (`auth`) over words about
 * the request's shape, a format or a region.
 */
function notACredentialRefusal(evidence: Evidence): boolean {
  return evidence.status !== 401 && evidence.status !== 403;
}

/** The request shape is wrong, or the model/endpoint cannot take it (capabilities). Terminal for this payload. */
export const FORMAT_RULES: readonly TextRule[] = [
  ...family('text.format', 'format', {
    en: [
      // a value outside its range, a request parameter named by its path as invalid ("Params body.conversation_id invalid")
      // an endpoint the API does not offer or a model it does not serve on the endpoint called (OpenAI's "This is a chat
      // model and not supported in the v1/completions endpoint"), a URL retired, a route a gateway does not have, an
      // address refused as private (SSRF)
      // an output ceiling asked over the model's, a request only streaming can carry (Anthropic's ten-minute rule)
      /max_tokens \(\d{1,9}\) exceeds|streaming is required for operations|does not support (?:the )?[^ ]{1,60} endpoint|not supported (?:in|on|by) the (?:\/?v1\/)?(?:chat\/)?completions endpoint|invalid image (?:file|format|data)|already has an active (?:response|run)/,
      // Mistral's tool-call id rule; a structured-output schema the API refused
      /tool call id was [^ ]{1,80} but must be|response_format(?:\.[a-z_]{1,40}){0,3}['"\x60]? is invalid/,
      /invalid file format|file format error|(?<![a-z])params? [a-z0-9_.]{1,80}\.[a-z0-9_]{1,60} invalid(?![a-z])/,
      // two settings that exclude each other ("Thinking may not be enabled when tool_choice forces tool use"), a required field left empty
      /(?:may|can|must) not be (?:enabled|used|set|specified|combined) (?:when|with|together)|(?:field|parameter|property) (?:in|of) [^|]{1,80}? (?:is|was) empty(?![a-z])/,
      /does not support (?:tools|tool use|tool calling|tool_choice|function calling|functions|images?|image input|vision|streaming|system (?:prompts?|messages?)|multimodal|audio|json mode|response_format|structured outputs?|reasoning|thinking|assistant message prefill|insert|suffix|fill-in-the-middle|fim|embeddings?|completion|generate|chat)(?![a-z_])/,
      /(?:tools?|tool use|function calling|vision|images?|image input|streaming) (?:is |are )?not supported/,
      // a text-only model sent images ("The model is not a VLM (Vision Language Model). Please use text-only prompts.")
      /model (?:is not|isn't) an? (?:vlm|vision(?: language)? model|multimodal model)(?![a-z])|please use text-only (?:prompts|input|messages)/,
      // a kind of input or training the model does not take, a request option a provider has switched off
      /unsupported (?:input )?modalit(?:y|ies)|modalit(?:y|ies) (?:is |are )?not supported|does not support fine-?tuning|(?:not|isn't) (?:available|supported) for fine-?tuning/,
      /(?:response_format|tool_choice|json_schema|json_object|logprobs|parallel_tool_calls)(?: type)?[`'"]? (?:is |are )?(?:unavailable|not available|unsupported)/,
      // a Rust (axum) server that could not read the request body into its type
      /failed to deserialize the json body into the target type/,
      /no endpoints found that support|requested agent harness .{1,80}? does not support/,
      /use (?:the )?\/?[a-z/._-]{1,40} (?:api|endpoint) instead|not a chat model|only supported (?:in|by|via|on) (?:the )?v1/,
      /invalid url ?\((?:get|post|put|patch|delete) /,
      // schema and value checks in the words validators print
      /at least one (?:message|item|input|content block) is required|is a required property|does not match pattern|(?:expected [`'"]?[a-z_]{1,30}[`'"]? to be|must be) one of(?![a-z])/,
      /must be (?:between -?[0-9.]{1,8} and|a positive (?:integer|number)|greater than (?:or equal to )?-?[0-9.]{1,8}(?![0-9.]{0,8} ?tokens))/,
      /does not support (?:the )?['"`]?[a-z_]{2,30}['"`]? (?:parameter|field|option|feature)|unsupported (?:image|content|file|media|mime) (?:type|format)|(?:image|file|content|media|audio) (?:type|format) (?:is )?not supported/,
      /(?:parameter|field|argument) is deprecated\.? (?:please )?use|reduce the number of (?:images|files|tools|documents|messages)|must be a response to a prece{1,2}ding message with ['"]?tool_calls/,
      /too many (?:stop sequences|tools|functions|images|files|documents)|(?:is|are) only supported (?:by|for|on) (?:certain|some|specific|newer) models/,
      /malformed (?:input )?request|please reformat your input|must be at least \d{1,6} (?:tokens?|characters?) long|(?:elements?|messages?|items?) in [a-z_]{1,20} must have an? (?:message|content|role)/,
      /tool_use_id|tool_call_id|tool_use. blocks?|tool_result. blocks?|must have a corresponding/,
      // (an OS error's "[Errno 22] Invalid argument", "OSError(22, 'Invalid argument')" or "EINVAL: invalid argument" is the
      // machine's EINVAL, not a request the provider refused)
      /param(?:eter)?s? (?:is |are )?(?:incorrect|invalid|malformed|missing|illegal)|(?:invalid(?<!(?:(?:\[errno \d{1,4}\]|errno[ =:]{0,2}\d{1,4}:?|einval:) |oserror\(\d{1,4}, ['"])invalid)|malformed|(?<!json: )unsupported|unknown|unrecognized) (?:parameter|argument|field|property|value|schema|payload|json(?! response)|request body|request format|options?(?![a-z]))/,
      /invalid (?:params?|parameters?)(?![a-z])|invalid message role|must contain at least one|must not be empty|cannot be empty|(?:can't|cannot|must not|may not) be blank|must (?:be|have) non-empty|must end with a user message|should match pattern/,
      /unrecognized request arguments? supplied|unknown (?:request )?(?:parameter|argument|field)s?:/,
      // a value the API's own validator names out of bounds (Volcengine Ark), an attachment that is no base64
      /(?:response|output) exceeded the \d{1,9} output token maximum|supports at most \d{1,4} (?:images?|files?|attachments?|documents?|videos?|audio)(?![a-z])|must contain the word ['"]?json|unsupported api schema|provider [`'"]?[a-z0-9._-]{1,60}[`'"]? is (?:currently )?not supported|specified in the request (?:is|are) not valid|integer (?:above|below) (?:the )?(?:maximum|minimum) value|uploaded an unsupported image|unsupported image (?:format|type|file)|invalid base64/,
      /messages?\.\d{1,4}[.:]|messages?\[\d{1,4}\]/,
      /missing required|required (?:field|parameter|property)|(?<![a-z])[a-z_.]{1,40}: field required(?![a-z])|extra inputs are not permitted|validation error|(?<![a-z])input should be (?:a valid|an? |greater|less)|value is not a valid (?:list|dict|integer|string|float|enumeration|boolean)|["']detail["']: ?\[\{["'](?:type|loc)["']: ?["'[]|["']loc["']: ?[[(]["']body["']|additional propert(?:y|ies) (?:is |are )?not allowed/,
      /roles must alternate|must alternate between|should alternate with|first message (?:must|should) be|function response turn|function call turn|(?:length|number|count) of (?:the )?messages must be (?:an )?(?:odd|even)/,
      /reasoning_content .{0,60}?must be passed back|thinking (?:block|mode).{0,40}?must/,
      // a Responses API input item sent without the item it must travel with (a reasoning item and what follows it)
      /was provided without its required (?:following |preceding |'[a-z_]{1,30}' )?item/,
      // a tool call sent back without the thought signature Gemini issued with it
      /missing (?:a |the )?thought_?signature|thought_?signature (?:is )?(?:missing|required)/,
      /invalid '[a-z0-9_.[\]]{1,80}'|invalid (?:value|type) for|is not supported with this model|maximum allowed number of output tokens|maximum tokens you requested exceed|supports at most \d{1,9} (?:completion|output) tokens|(?:max_tokens|max_completion_tokens|max_new_tokens)'? (?:or '[a-z_]{1,30}' )?is too large/,
      /(?:must|need to) specify a (?:valid )?model|no model (?:was )?specified/,
      /invalid (?:temperature|top_p|top_k|frequency_penalty|presence_penalty|repetition_penalty|seed|logprobs)(?![a-z_])|only [0-9.]{1,6} is allowed for this model/,
      /not supported [a-z_]{2,40}, (?:please )?use [a-z_]{2,40}|type mismatch of ['"/]|oneof at ['"][^'"]{0,60}['"] not met/,
      // a value outside the range the API states, or more items per call than it takes (Qianfan, one-api relays)
      /parameter check failed|(?<![a-z])[a-z_]{2,40} range is \[\d|max(?:imum)? number of (?:documents|inputs|texts|images|items|files) is \d|at most \d{1,6} (?:requests|inputs|texts|items|documents) can be in (?:one|a single) batch|max(?:imum)? batch size is \d/,
      /unknown request url|unrecognized request url|unexpected endpoint or method/,
      // a server that could not decode the request body into its own types (Go's encoding/json, serde); a relay that could
      // not decode the upstream's error or response (`Error.Response.Error.Code`) lost the cause instead
      /cannot unmarshal (?:array|object|string|number|bool) into go (?:struct field|value of type) (?![a-z]{0,60}(?:error|response)\.)|failed to (?:parse|decode|deserialize) (?:the )?request(?: body)?/,
      // a model served on another API of the same provider (Responses vs Chat Completions)
      /(?:model|endpoint) is not supported (?:by|on|in|with) the [a-z ]{1,30} api|no tool call found for (?:function call )?output/,
      // an organisation that must complete a verification step before it may use (or stream) the model
      /must be verified to (?:use|stream|access)/,
      // a value over or under a stated bound, in OpenAI's validator wording ("14 is greater than the maximum of 1 - 'top_p'")
      /is (?:greater|more) than the maximum of -?\d|is less than the minimum of -?\d/,
      // a gateway that could not read the request's shape (Azure APIM's token estimation), prompt caching a model does not take
      /(?:not allowed|unable) to generate embeddings (?:from|with) this model|(?:unable|failed) to parse and estimate tokens|(?:request )?did not allow prompt caching|prompt caching (?:is )?not (?:supported|allowed)/,
      // Bedrock relaying a model's validation errors, and its "Remove X and try again" remedies; options a model does not take
      /the model returned the following errors:|(?<![a-z])remove (?:the )?(?:invalid )?[a-z0-9_./ -]{1,60} and try again|is deprecated for this model|(?<!(?:region|country|territory|location) )(?:is|are) not supported for this model|this model (?:doesn't|does not) support|property '[^']{1,60}' is not supported/,
      // an input too small or short to use (a Realtime audio buffer), a string over the length a validator allows, a file type refused
      /(?:audio|recording) (?:file |clip )?(?:is )?too (?:short|small)(?![a-z])|buffer too small\.? expected at least|should have at most \d{1,9} (?:characters|items)|(?<!certificate (?:has )?(?:an )?)invalid (?:file )?extension|supported (?:file )?formats?:|valid (?!model)[a-z_]{2,40} must be provided|could not parse the json body/,
      /the value '[^']{1,80}' is not supported for '[a-z0-9_.[\]]{1,60}'/,
      // a body whose declared type does not match it; a chat template the server could not apply to the messages
      /unsupported protocol scheme|invalid [a-z_]{2,40} value, the valid range|valid range of [a-z_]{2,40} is \[|request method '[a-z]{3,7}' (?:is )?not supported|content-type header does not match|(?:issue|error|problem) with the model's prompt template|(?:failed to|error|unable to) (?:apply|render)(?:ing)? (?:the )?(?:chat |prompt )?template/,
      // an input that cannot be empty, an attachment over a size cap or not decodable, an API path or feature that is gone
      /(?:can not|can't) be empty|(?:fail(?:ed)?|unable) to (?:decode|process|read) (?:the )?image|api endpoint .{1,60}? does not exist|(?:feature|search|endpoint|api|tool)s? (?:is|are|has been) deprecated\.? (?:please )?(?:switch|migrate|use|move)/,
    ],
    zh: [
      /参数(?:错误|无效|不合法|不正确|格式|非法|有误)|请求格式(?:错误|不正确|有误)/,
      // a validation of the request's parameters that failed ("参数校验失败")
      /参数校验(?:失败|不通过)/,
      // two parameters that exclude each other, a call method the model does not take (Zhipu 1215, 1212)
      /不能同时(?:设置|使用|指定|传入)|不支持[^，。,；]{0,30}调用方式/,
    ],
    ja: [/パラメータ(?:が|は)?(?:不正|無効)|リクエスト(?:の)?形式(?:が|は)?(?:不正|正しくありません)/],
  }),
  // a provider that does not serve the caller's location: another provider may; under a 401 or 403 the provider
  // refused the credential for it, and the status decides (auth)
  // an address, a route or a retired URL named by the provider's gateway: a request to send elsewhere, under a client
  // status or none (under a 5xx it is a hint of the gateway's); a request field's bound ("max_output_tokens must be
  // positive"), which under a 5xx names what the server failed on
  ...family('text.format', 'format', [
    /https?:\/\/[^ ]{1,100} is no longer supported|no route matched|ssrf_blocked|blocked by ssrf|invalid url(?![a-z])|value out of range(?! for type)/,
    /(?<![a-z])(?!(?:balance|credits?|funds|amount|account|wallet)(?![a-z_]))[a-z_]{2,40} must be (?:a )?(?:positive|non-negative|nonnegative|greater than (?:or equal to )?0)(?![a-z0-9])/,
  ], (evidence) => notACredentialRefusal(evidence) && (evidence.status === null || (evidence.status >= 400 && evidence.status < 500))),
  ...family('text.format', 'format', [/must follow .{1,80} format/], notACredentialRefusal),
  // a field of a Google request named by its path ("* GenerateContentRequest.tools[0].function_declarations[3]…: …"),
  // without a status or under a client status (a 500 that names the field it failed on is the server's failure)
  ...family('text.format', 'format', [
    /(?:^|[ *])(?:stream)?(?:generatecontent|counttokens|embedcontent|batchembedcontents)request\.(?!model[: ])[a-z_]{2,40}(?:\[\d{1,4}\])?[.:[ ]/,
  ], (evidence) => evidence.status === null || (evidence.status >= 400 && evidence.status < 500)),
  // an API or one of its versions switched off ("The Realtime Beta API is no longer supported", Cohere's "Generate API was
  // removed on September 15 2025"), a route a server does
  // not have (Gradio's "This app has no endpoint /api/…"), a request field the API demands by name (not a credential),
  // gRPC's UNIMPLEMENTED in Google's words, Qdrant's "Wrong input:", a guardrail id — under a 401 or 403 the status decides
  ...family('text.format', 'format', [
    /(?:api|endpoint|api version|version of (?:the|this) api) (?:is |has been )?no longer (?:supported|available)(?! (?:in|while|during|for now))|(?<![a-z])api (?:was|has been) (?:removed|retired|shut down|discontinued)(?! from (?:your|the) (?:account|organi[sz]ation|project))|app has no (?:such )?endpoint(?!s)|must (?:submit|provide|include|supply|pass) (?:a |an |the )?["'`](?!(?:authorization|api[_-]?key|x-api-key|token|bearer)["'`])[a-z_.]{2,40}["'`]/,
    /(?<![a-z])wrong input: |operation is not implemented,? or supported,? or enabled|guardrail (?:identifier|id|version) (?:is )?invalid/,
    // a tool's argument schema a model cannot take; a client without MCP sampling; an input the server could not parse
    // (KoboldCpp)
    /array (?:type|schema) (?:must have|missing) items|may not include more than \d{1,6} tools|schema for (?:the )?tool [^ ]{1,120} is incompatible with|sampling not supported|(?:does not|doesn't) support sampling|error parsing (?:the )?(?:input|request)(?![a-z])/,
    // a model the called API or its version does not take ("… cannot be used with the Assistants API in v1")
    /model (?:[`'"][^`'"]{1,100}[`'"] |[a-z0-9._:/@-]{1,100} )?cannot be used with (?:the |this )?[a-z0-9 ._-]{1,40} api(?![a-z])/,
  ], notACredentialRefusal),
  ...family('text.format', 'format', [
    /user location is not supported|(?:not (?:currently )?available|unavailable) in your (?:country|region|location)|(?:doesn't|does not|don't|do not) serve your (?:region|country|location)/,
  ], notACredentialRefusal),
];

/**
 * A relay's hint to check the request's parameters ("校验失败,请检查参数是否正确"): a remedy, not a cause, so it decides
 * only when no family named one — read after the auth families, and not under a 401 or 403, where the credential was
 * refused ("API Key 校验失败，请检查参数是否正确" is auth; "模型不存在，请检查参数是否正确" a missing model).
 */
export const FORMAT_HINT_RULES: readonly TextRule[] = family('text.format', 'format', { zh: [/请检查参数是否(?:正确|合法|有误)/] }, notACredentialRefusal);

/** The model (or deployment) does not exist or is not offered to this account. */
export const MODEL_NOT_FOUND_RULES: readonly TextRule[] = [
  ...family('text.model_not_found', 'model_not_found', {
    en: [
      /model(?: id)?(?:[: ]{1,2}(?:[`'"[][^`'"\]]{1,100}[`'"\]]|[a-z0-9._:/@$-]{1,100}))?(?: or endpoint [a-z0-9._:/@-]{1,100})?(?: (?:that |which )?you (?:provided|specified|requested|passed|selected))? (?:was |is )?(?:not found|does not exist|doesn't exist|not exist|could not be found)/,
      /models\/[a-z0-9._-]{1,80} is not found|not found the model/,
      /unknown provider=[^,]{1,40}, model=|no (?:chat |completion |embedding )?models? (?:was |were )?found|(?:unknown|invalid|unsupported|nonexistent|non-existent) model|no such model|model ?code:? (?:does not exist|not found|is invalid)|allowed now, your model/,
      /(?:incorrect|wrong) model (?:id|identifier|name)(?![a-z])|model (?:id|identifier|name)(?: you (?:provided|specified|supplied|passed))? (?:is |was )?(?:invalid|not valid|isn't valid|unknown|not recogni[sz]ed|unrecogni[sz]ed)|is not a valid model(?: id| name| identifier)?(?![a-z])/,
      /model (?:[`'"][^`'"]{1,100}[`'"] |[a-z0-9._:/@-]{1,100} )?(?:has been |was |is )?(?:deprecated|decommissioned|retired|discontinued|sunset|deactivated)|model (?:[a-z0-9._:/@-]{1,100} )?is no longer (?:available|supported|offered)/,
      // a model past its end of life ("This model version has reached the end of its life", CLOVA's "model fade out")
      /(?:model|version) (?:[a-z0-9._:/@-]{1,100} )?(?:has )?(?:reached|passed|is past) (?:the |its )?end of (?:its )?life|model (?:has )?fade[ds]? out/,
      /deployment (?:for (?:this|the) resource )?(?:does not exist|not found)|deploymentnotfound|no deployments? (?:matched|found|exists?)/,
      /(?:serverless|dedicated|inference|model) endpoint (?:was )?not found|no assistant found with id|endpoint [a-z0-9._:/@-]{1,100} of account [a-z0-9*]{1,20} not found/,
      /is not available\.? ?(?:the )?available models|not in the list of (?:supported|available) models|no model named|(?:^|: |\. )(?:the )?model (?:is )?not supported(?! (?:with|in|by|on|for))|(?:^|: |\. )model [a-z0-9._:/@-]{1,100} (?:is )?not supported(?= ?$|[.;])/,
      /unable to access (?:non-serverless |serverless )?model|(?:dedicated )?endpoint for [a-z0-9._:/@-]{1,100} is not running|(?<!if (?:the |your )?)endpoint is (?:paused|stopped)(?![a-z])|model_not_available/,
      /no endpoints (?:found|available)|no accounts with a plan supporting model/,
      // a model no provider of the stack serves (Llama Stack), a relay without a price for it (new-api), a model never pulled (Ollama)
      /not served by any (?:of the )?providers?|ratio or price not set|\/manifests\/[^ ]{1,200}: no such file or directory/,
      /model [`'"][^`'"]{1,100}[`'"] is not available(?= ?$|[.,;:)\]])|(?<![a-z])bot (?!(?:token|user|account|key|id|secret|credentials?) )[a-z0-9._-]{1,60} (?:was )?not found|targeted an endpoint that does not exist|invalidendpoint(?:ormodel)?\.notfound|could not resolve the (?:foundation )?model/,
      /requested model(?: \([^()]{1,100}\)| [`'"][^`'"]{1,100}[`'"])? is not (?:supported|available)(?![a-z])|model [`'"][^`'"]{1,100}[`'"] is not supported(?= ?$|[.,;:)\]]| (?:for|in|on|by|when|with)(?![a-z]))|(?:the )?[`'"][^`'"]{1,100}[`'"] model is not supported(?= ?$|[.,;:)\]]| (?:for|in|on|by|when|with)(?![a-z]))/,
      /(?:selected|requested) model(?: \([^()]{1,100}\))?\.? it may not exist/,
      // the old name of a model in OpenAI's and Stability's APIs ("The specified engine (ID stable-diffusion-v1) was not
      // found", "No such engine"), and a model the account's plan or organisation does not include (Copilot)
      /(?:specified|requested) engine(?: \(id [^()]{1,100}\)| [`'"][^`'"]{1,100}[`'"])? (?:was |is )?(?:not found|does not exist)|engine with id [`'"]?[a-z0-9._:/@-]{1,100}[`'"]? (?:was |is )?(?:not found|does not exist)|no such engine/,
      /(?:the |this |that |requested |selected )?model(?: [`'"][^`'"]{1,100}[`'"]| [a-z0-9._:/@-]{1,100})? (?:is not|isn't) available (?:for|to|on|with|in) (?:your|this) (?:account|plan|subscription|organi[sz]ation|tier|api key|key|team)/,
      // a model file the runtime's version cannot load (Ollama: "this model may be incompatible with your version of Ollama")
      /model (?:may be |is )?incompatible with (?:your|this) version of/,
      /not allowed to use publisher model|try pulling it first|not allowed to sample from (?:this|the) model/,
      // Ollama pulling a name the registry does not have; a model a server or endpoint does not serve; a model no lookup finds
      /pull model manifest: file does not exist|is not (?:available|served) (?:on|by|from|at) (?:this|the) (?:server|endpoint|host|instance|deployment)|(?:cannot|can't|could not|couldn't|unable to) find (?:the )?model(?![a-z])|(?<![a-z])modelnotfound(?:error|exception)?(?![a-z])/,
      /model (?:is |was )?(?:not loaded|unloaded)|model with key ['"`][^'"`]{1,120}['"`] (?:is |was )?not loaded|no models? (?:is |are )?(?:currently )?loaded|(?:please )?load a model (?:and|first|before)/,
      /on-demand throughput (?:isn't|is not) supported|(?:doesn't|does not) support on-demand throughput|inference profile that contains this model/,
      // a gateway with no route for the model asked for (Envoy AI Gateway); a Bedrock resource id that does not exist
      /model (?:specified |requested )?(?:in your request )?is not configured|failed to retrieve resource because it (?:doesn't|does not) exist/,
      // the models an API takes listed beside the one passed; a model version switched off by its host (Replicate)
      /(?:access to (?:the |llm |these )?)?models? (?:has|have) been removed|supported (?:api )?model names? (?:are|is|include)[^.]{1,200}but you (?:passed|requested|used)|(?:model |this )version is (?:currently )?disabled|model [^ ]{1,80} version [^ ]{1,40} is (?:currently )?disabled/,
    ],
    zh: [/模型(?: ?[a-z0-9._:/@-]{1,80} ?)?(?:不存在|未找到|已下线|已停用)|倍率或价格未配置|模型名(?:字|称)?(?:错误|不正确|无效)|找不到模型|无可用渠道|(?:模型|api|接口)[ a-z0-9_${}.-]{1,60}已(?:下线|停用|废弃)/],
    ja: [/モデル(?:が|は)?(?:見つかりません|存在しません)/],
    ko: [/모델(?:을|를)? 찾을 수 없|(?:모델|model)(?:이|가)? 존재하지 않|존재하지 않는 모델|지원(?:되지|하지) 않는 모델/],
    ru: [/модель:? ['"«]?[a-z0-9._:/@-]{1,80}['"»]? не (?:существует|найдена)|модель не найдена(?<!если [^.|]{0,40}модель не найдена)/],
  }),
  // a model version that does not resolve (Replicate's "The specified version does not exist", whatever hedge follows
  // it); a service or model switched off for a scheduled retirement or deprecation brownout before it goes (GitHub
  // Models' 410) — said of the request, not in a server's own failure (under a 5xx the provider failed)
  ...family('text.model_not_found', 'model_not_found', [
    /(?:specified|requested|model) version (?:[a-z0-9._:/@-]{1,100} )?(?:does not exist|doesn't exist|was not found|not found)|unavailable (?:as part of|during|due to|for) (?:a |an |the |this )?(?:scheduled |planned )?(?:retirement|deprecation|sunset) brownout/,
  ], (evidence) => evidence.status === null || evidence.status < 500),
];

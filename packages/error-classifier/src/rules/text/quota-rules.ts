/**
 * Text families about money and throughput: billing, periodic usage windows, rate limits and capacity.
 *
 * Seed 002, "Billing disables" and "What lands in the rate-limit / timeout bucket":
 * - running out of credit is billing whatever the status (400, 401, 403, 429 …);
 * - a periodic usage window or a workspace spend limit (daily / weekly / monthly, "resets tomorrow") is a rate
 *   limit even under 402: it clears by itself;
 * - the rate-limit bucket is wider than 429: concurrency limits, throttling, "resource exhausted",
 *   tokens-per-minute ceilings (also when the provider calls them "request too large");
 * - capacity ("overloaded", "at capacity", "high demand", a model not ready yet) is overloaded.
 *
 * Patterns are lower case with bounded quantifiers only.
 */
import type { Evidence } from '../../evidence.js';
import type { TextRule } from '../rule.js';
import { family, firstTextMatch } from '../rule.js';

/** A reset or retry hint: the limit clears by itself (the model-failover doc: a window, not a billing failure). */
const RESET_HINT = /(?:resets?|renews?|regain access) (?:at|in|on|every|tomorrow)|try again (?:later|in|at|tomorrow)|allowance to renew|retry in \d/;

/** True when the text says when the limit clears. */
export function hasResetHint(evidence: Evidence): boolean {
  return RESET_HINT.test(evidence.text);
}

/**
 * Quota wording in Chinese (配额, a quota window that resets), unlike 余额 (the account balance), 欠费 (arrears)
 * and 额度 (the prepaid allowance of a relay token, which never refills by itself), which are billing.
 */
export const QUOTA_WINDOW_RULES: readonly TextRule[] = family('text.quota_window', 'rate_limit', {
  zh: [/配额(?:已)?(?:用尽|用完|耗尽|不足|超限|已满)|超(?:过|出)(?:了)?配额(?:限制)?/],
});

/** Usage windows that state when they clear: rate limits, even when the words mention credits or a plan. */
export const RESETTING_WINDOW_RULES: readonly TextRule[] = family(
  'text.usage_window',
  'rate_limit',
  [
    /(?:usage|spend(?:ing)?) (?:limit|quota|cap)s? (?:has been |have been |was )?(?:reached|exceeded|exhausted|hit)/,
    /(?:you've|you have) (?:hit|reached) your (?:[a-z0-9-]{1,12} ){0,3}(?:limit|quota)s?/,
    /usage limit reached/,
  ],
  hasResetHint,
);

/** Explicit lack of money or credit. Precise on purpose: "add 10 credits to unlock" is a free-tier window. */
export const BILLING_RULES: readonly TextRule[] = family('text.billing', 'billing', {
  en: [
    /insufficient (?:[a-z]{1,12} )?(?:or [a-z]{1,12} )?(?:account )?(?:credits?|balance|funds)|(?:paid |account |credit )?balance is (?:insufficient|not enough)|(?:your )?credits? (?:is|are) (?:insufficient|not enough)|requires paid balance|not[ _]enough[ _](?:balance|credits?|funds)/,
    // an organisation's monthly budget that only a raise in billing lifts, an overdue invoice that pauses access, an empty wallet
    /(?:reached|exceeded|hit) (?:its|your|the) monthly budget|monthly budget (?:has been |was |is )?(?:reached|exceeded|exhausted)|(?:invoice (?:is )?overdue|overdue invoice)|until the outstanding (?:amount|balance|invoice) is (?:settled|paid)|wallet(?: balance)? (?:is )?(?:zero|0|empty|insufficient|not enough)|empty wallet/,
    /account (?:is )?not active,? please (?:check|update) (?:your )?billing/,
    /credit limit (?:exceeded|reached)|insufficient (?:tokens|token balance) in your account|credit balance (?:is )?(?:too low|insufficient|exhausted|depleted)|balance (?:is )?too low|(?:you have|you've|account has) (?:run|ran) out of tokens/,
    /subscription (?:'[^']{1,80}' )?(?:is )?(?:inactive|not active|suspended|disabled)(?! (?:feature|option|setting))|readonlydisabledsubscription|billing account (?:not found|is missing)|no billing account/,
    /(?:premium|paid) (?:user|membership|subscription|plan) (?:is )?required/,
    // a balance that must be above zero before requests are taken
    /(?:credit |account |wallet )?balance must be (?:positive|greater than (?:zero|0)|above (?:zero|0))/,
    /(?:out of|no remaining|run out of|ran out of) (?:extra usage|(?:usage |prepaid |api |account )?credits?|budget)|no credits? (?:remaining|left)|add credits to continue/,
    /(?:used|exhausted|consumed|spent|depleted) (?:up )?(?:all )?(?:of )?(?:your |its |the |their )?(?:(?:available|monthly|included|prepaid|pre-paid|trial|remaining|account|api) ){0,2}credits?(?![a-z])/,
    /(?:purchase|buy|buying|purchasing) (?:more )?credits|add more credits|requires? more credits|can only afford|(?:have|keep) a positive balance/,
    /exceeded (?:your |the )?(?:[a-z]{1,12} ){0,2}included credits|used (?:up )?all (?:of )?your (?:[a-z0-9{},]{1,20} ){0,3}(?:tokens|credits)(?![a-z])/,
    /(?:doesn't|does not|don't|do not) have (?:any |enough )?(?:credits|balance|funds)|never purchased credits|(?<![a-z])not[ _-]enough[ _-]credits(?![a-z])|credits? (?:cannot|can't|do not|don't|does not|will not|won't) cover/,
    /credits? (?:have been |has been |are |is )?(?:exhausted|depleted|used up)|all (?:[a-z]{1,20} ){0,3}credits? (?:in (?:this|the|your) [a-z]{1,20} )?(?:have|has) been consumed|(?:missing|insufficient|no) [a-z ]{0,40}credit capacity|credit usage exceeds (?:the |its |your )?allocation(?=\.?$)/,
    /no (?:available |remaining )?(?:account )?balance/,
    /extra usage is required|draw from your extra usage/,
    // credits counted out (ElevenLabs: "You have 0 credits remaining, while 91 credits are required"); an account locked until a top-up
    /(?<![0-9])0 credits (?:remaining|left)|\d{1,9} credits are required|locked\. reason: ?top_?up/,
    // AI Horde's kudos, its credit: a request larger than the free allowance needs them in hand
    /needs? to (?:already )?have (?:the )?required kudos|requires [0-9.]{1,12} kudos/,
    /billing (?:hard )?limit (?:has been )?(?:reached|exceeded)/,
    // a gateway's spend budget on a key or deployment (LiteLLM budget_exceeded); a budget that resets reads as a window first
    // (a token, thinking or context budget is no money)
    /(?<!(?:token|thinking|reasoning|context|output|time) )(?:max )?budget (?:limit )?(?:has been )?exceeded|exceeded (?:the )?budget(?! of)|crossed budget|budget_exceeded|exceededbudget/,
    /maximum allowed (?:[a-z]{1,12} ){0,2}spend(?:ing)? limit|make a payment to resume/,
    /requires billing to be enabled|enable billing|billing (?:is |has been )?(?:not enabled|disabled|inactive|not active)/,
    // a plan that does not include the model (MiniMax 2061 "your current token plan not support model")
    /(?:current |token |your |subscription )plan (?:does )?not support(?:s|ed)? (?:the |this )?model/,
    /payment (?:method )?(?:failed|declined|was declined|was unsuccessful)|payment method required|card (?:was )?declined|plans (?:&|and) billing/,
    /(?:overdue|past[ -]due|unpaid|outstanding) (?:account|payment|balance|invoices?|bills?)|(?:past|previous) invoices|(?:failure|failed) to pay/,
    /payment instrument|invalid_payment_instrument|(?:complete|add|update) your payment (?:information|details)|on a paid basis|without a billing account(?: linked| attached)?|link a billing account/,
    /account (?:is |has )?(?:been )?overdue|overdue-payment|in arrears|suspended due to insufficient|accountoverdue|account_overdue/,
    /resource (?:pack|package)s?(?: allowance)? (?:has been |have been |is |are |was )?(?:exhausted|used up|depleted|insufficient)|(?:no|insufficient) (?:available )?resource (?:pack|package)|pkgexhausted/,
    /account is in good standing/,
    // a relay's prepaid allowance (one-api / new-api "quota"): a token's or user's quota that cannot cover the pre-charge
    /(?:user|token|account|remain(?:ing)?) quota (?:is )?not (?:enough|sufficient)|quota (?:is )?not enough|insufficient[ _]user[ _]quota|pre-?consumed? ?quota(?: failed| \[| is)|preconsumequota failed|need quota: ?[＄$]/,
    /(?:free |trial |promotional |prepaid )?credits? (?:have |has )?expired|(?:account )?balance is negative|negative (?:account )?balance|(?:free )?trials? (?:has |have )?(?:been )?(?:temporarily )?(?:ended|expired|paused)|subscription (?:has )?(?:expired|lapsed|been canceled|been cancelled)/,
    /(?:isn't|is not|not) available (?:for|to|on) (?:personal|individual|free) (?:accounts?|plans?|tiers?|users?)|not (?:available|included) (?:in|on|with) your (?:current )?(?:plan|subscription)|plan does not (?:yet )?include|not on (?:your |the )?plan/,
    /model service has been paused|reached the set inference limit/,
  ],
  ja: [/残高(?:が)?不足|クレジット(?:が)?不足/],
  ko: [/(?:크레딧|잔액|잔고|포인트)(?:이|가)? 부족|(?:크레딧|잔액|포인트)(?:이|가|을|를)? (?:모두 )?소진|결제 (?:정보|수단)(?:를|을)? 확인|결제가 필요/],
  zh: [/余额不足|无可用额度|余额已用|计费资源(?:已)?(?:耗尽|用尽|不足)|余额为|账户余额|欠费|账户已欠|资源包|付费余额|额度(?:已)?(?:不足|用尽|用完|耗尽)|预扣费|剩余额度/],
  ru: [/недостаточно (?:средств|баланса|кредитов)(?<!если [^.|]{0,40}недостаточно (?:средств|баланса|кредитов))|пополните (?:баланс|счёт|счет)|баланс[а-яё]{0,3} (?:исчерпан|недостаточ)/],
});

/** OpenAI's wording of its own billing state, or a relay passing on OpenAI's text (the text names OpenAI). */
function isOpenAIContext(evidence: Evidence): boolean {
  return /^(?:openai|azure|chatgpt|codex)/.test(evidence.provider) || evidence.text.includes('openai');
}

/**
 * "You exceeded your current quota, please check your plan and billing details" is OpenAI's `insufficient_quota`
 * text (out of credit), and billing there; Google and DashScope send the same words for a per-minute or per-day
 * window (their provider rules read it first). With another provider, or none, the words alone are a quota window:
 * `rate_limit`, the lane that costs little when wrong (a short cooldown and a retry), where `billing` would disable
 * the profile for hours. A code (`insufficient_quota`) or other billing words still decide billing.
 */
export const OPENAI_QUOTA_RULES: readonly TextRule[] = family('text.billing', 'billing', [/exceeded your current quota|quota exceeded\.? (?:please )?check your plan and billing details/], isOpenAIContext);

/** Periodic usage windows and spend limits: rate limits that reset by themselves (seed: "402 … looks retryable"). */
export const USAGE_WINDOW_RULES: readonly TextRule[] = family('text.usage_window', 'rate_limit', {
  en: [
    /(?:daily|weekly|monthly|hourly|5[- ]hour|five[- ]hour|5h) (?:usage |spend(?:ing)? |request |token |free )?(?:limit|quota|cap|allowance|allocation)/,
    /(?<!(?:whether|if|once|when) (?:the |your )?)usage (?:limit|quota|cap)s? (?:for (?:the |your |this )?(?:(?!(?:not|was|has|have|been) )[a-z]{1,20} ){1,3})?(?:has been |have been |was )?(?:reached|exceeded|exhausted|hit)/,
    /(?:reached|exceeded|exhausted|hit) (?:your |the |its |their )?(?:specified )?(?:[a-z]{1,12} ){0,2}(?:usage|spend(?:ing)?) (?:limit|quota|cap)s?/,
    /(?:organization|organisation|workspace|team|org|project|account) (?:monthly |daily |weekly )?(?:spend(?:ing)?|usage|budget) limit/,
    /spend(?:ing)? limit (?:has been |was )?(?:reached|exceeded|exhausted|hit)/,
    /(?:limit|quota|usage|allowance) (?:will )?resets? (?:at|in|on|tomorrow|every)|regain access on/,
    /resets? tomorrow|try again tomorrow/,
    /(?:you've|you have) (?:hit|reached) (?:your|the) (?:[a-z]{1,12} ){0,3}(?:limit|quota)/,
    /free (?:usage|tier|quota|plan)(?: limit)? (?:exceeded|exhausted|reached|used up)|usage (?:has been |is )?capped for (?:today|the day|this (?:week|month))/,
    // an account's limit exceeded, as a bot words it ("Your OpenAI account's limit has been exceeded")
    /account'?s? (?:usage )?limit (?:has been |was )?exceeded/,
    /exceeded your (?:[a-z]{1,12} ){0,2}(?:allowance|request quota)|exhausted your (?:[a-z]{1,12} ){0,2}quota|allowance to renew/,
    /(?:limit|quota) exceeded for (?:this|the current) billing period/,
    /free-models-per-(?:day|min)|requests? per (?:day|week|month)/,
    // a plan's message allowance used up until a stated time ("You're out of Codex messages … or wait until May 30")
    /(?:you're|you are|you've run|you have run) out of (?:[a-z]{1,20} )?messages/,
  ],
  zh: [/(?:每日|每天|每周|每月|\d{1,2} ?小时|五小时)(?:的)?(?:使用|调用|请求)?(?:次数|额度|限额|配额|上限|限制)|请明天再试|(?:次数|额度|用量|使用量)(?:已)?达(?:到)?上限/],
  ja: [/(?:\d{1,3} ?時間|毎日|1日|週間?|月間?)の(?:使用|利用)?(?:制限|上限)に達し|制限に達しました.{0,20}リセット/],
});

/** Rate limits: requests, tokens or concurrency over a short window. */
export const RATE_LIMIT_RULES: readonly TextRule[] = family('text.rate_limit', 'rate_limit', {
  en: [
    // (not a header's name: `x-ratelimit-remaining-requests`, `ratelimitbysize-limit` printed in a dump say nothing of a limit hit)
    // (nor a usage report's field: openai-kotlin's trailing `rate_limit_usage` chunk)
    // (nor a setting's key, `rate_limit_per_minute: 60`, nor the name a Python KeyError could not find)
    /(?<!keyerror: ['"])rate[ _-]?limit(?![a-z]{0,12}-(?:limit|remaining|reset|requests|tokens|query|input|output))(?!_usage)(?!(?:_(?:per_[a-z]{1,10}|rpm|tpm|requests|tokens|window|seconds?|ms|max|count|size))?["']?\s?[:=]\s?["']?\d)/,
    /too many (?:current requests|requests|concurrent|connections|calls|messages|parallel requests|simultaneous requests)|request frequency (?:has been |is )?(?:limited|restricted|too high)|(?<![a-z])rate (?:exceeded|limited)(?![a-z])|(?:max(?:imum)? )?number of requests (?:allowed )?(?:per|in) (?:a |an |the )?(?:second|minute|hour|day)|too many tokens,? please wait|please wait before trying again/,
    /(?:tokens|requests) per (?:min|minute|second|sec|hour|day)/,
    // a concurrency cap in words, a chat app's "sending messages too fast", a call frequency that is too high
    /exceeded the max(?:imum)? number of (?:parallel|concurrent|simultaneous) requests|(?:sending|sent|making) (?:messages|requests) too (?:fast|quickly)|(?:api )?call frequency (?:is )?too high/,
    // Workers' subrequest cap per invocation, ChatGPT web's one message at a time
    /too many subrequests|only one message at a time/,
    /(?<![\d.$])\d{1,6} per (?:\d{1,5} )?(?:second|minute|hour|day)s?(?![a-z])/,
    /\((?:tpm|rpm|tpd|rpd|rph|itpm|otpm)\)|(?<![a-z])(?:tpm|rpm|tpd|rpd|rph|itpm|otpm) (?:rate )?limit/,
    /throttl/,
    /resources? (?:has been |have been |is |are )?exhausted/,
    // (not the operating system's EDQUOT, "disk quota exceeded", nor a storage quota)
    /(?<!disk |storage )quota (?:exceeded|exhausted|limit|limitation)|exceeded (?:the |your )?(?:current )?quota|quota_exceeded/,
    /concurren(?:cy|t requests?) (?:limit|exceeded|reached|cap)|max (?:organization )?concurrency|max (?:organization )?(?:rpm|tpm|rpd|tpd|tps|qps)(?![a-z])/,
    // LiteLLM's router when every deployment of the model group is cooling down ("Try again in 1 seconds")
    /no deployments available for (?:the )?selected model|get_available_deployment for model: [^,|]{1,120}, no deployments? available/,
    // a batch queue over its enqueued tokens, a fair use limit, a relay's pool with no account left with quota
    /enqueued token limit|(?:number of )?enqueued tokens (?:has |have )?(?:surpassed|exceeded|reached)|fair use (?:policy|limit)|no accounts? available with quota/,
    /(?<![a-z])qps(?![a-z])|(?:request|call)s? limit (?:reached|exceeded)|(?:request|call|qps)limitexceeded|(?<![a-z])quotalimit(?:exceeded)?(?![a-z])/,
    /requests? too quickly|requesting [a-z]{1,20} too quickly|(?:maximum )?number of concurrent requests|limit (?:reached|exceeded)\.? try again in \d/,
    /slow down|request rate increased too quickly|(?:your )?request rate is too high|(?:been )?put (?:in|into) (?:a )?timeout for \d|you(?:'re| are) using (?:the |your )?[a-z ]{1,30}? excessively|reduce the frequency of (?:your )?requests|exceeded your current requests? list|accounts? (?:are )?(?:currently )?limited|model_cooldown/,
    /(?:unexpected|last|upstream|returned|received|got) (?:http )?status(?: code)?:? 429(?!\d)/,
  ],
  zh: [/请求(?:速度)?过快|超过限频|触发(?:了)?限频|(?:api ?)?(?:请求|调用)(?:过多|量过大)|(?:访问|请求|调用)频率|频率上限|请求(?:过于|太)?频繁|(?:发言|提问|操作)(?:过于|太)频繁|访问(?:过于|太)频繁|限流|流量(?:受限|超限)|流控超限|频率(?:超限|限制|过高)|速率限制|并发(?:数)?(?:超|过|限)|调用次数超|请求次数超|达到(?:速率|频率)/],
  ja: [/レート制限|リクエストが多すぎ/],
  ko: [/(?:요청 )?속도(?:가|를)? 제한(?:되|됐|됩|하)|속도 제한|요청(?:이|을)? 너무 많|(?:요청|호출|사용량) 한도(?:를|에)? (?:초과|도달)|사용 한도(?:를|에)? (?:초과|도달)|할당량(?:을|이)? (?:초과|소진)/],
  ru: [/слишком много запросов|превышен[а-яё]{0,2} (?:лимит|предел) (?:запросов|скорости|частоты)|лимит запросов (?:превышен|исчерпан)/],
});

/**
 * What keeps "… is unavailable" from naming a capacity failure: the thing is unavailable in a place or on a plan (a
 * region refusal or a plan gate, read by their own families), not for now.
 */
const NOT_IN_REGION_OR_PLAN = String.raw`(?! (?:in|on|for|to) (?:your|this) (?:region|country|location|plan|account|tier))`;

/**
 * Capacity wording ("Server Unavailable Error", "service unavailable") inside a failure whose deciding status is
 * a client error other than 408/409/429 is a wrapper's label, not the cause: a Dify "[models] Server Unavailable
 * Error … status code: 400, message: … Range of input length" is the request, so the capacity family steps aside.
 */
function notUnderClientError(evidence: Evidence): boolean {
  const status = evidence.status;
  return status === null || status < 400 || status >= 500 || status === 408 || status === 409 || status === 429;
}

/**
 * Capacity (docs/policy.md#failover-reasons: 503 "service unavailable", overloaded_error, "at capacity", high demand, not
 * ready). The bare word "overloaded" under a 429 ("429 Too Many Requests: model overloaded") is the provider
 * throttling this caller, a rate limit, and so is "load saturated" (负载已饱和, a relay's words for an upstream 429);
 * concrete capacity facts (not ready, capacity exceeded) and provider types
 * (`engine_overloaded_error`) still say capacity.
 */
export const OVERLOADED_RULES: readonly TextRule[] = [
  // overload offered as a guess ("took too long, possibly due to server overload") is not the stated fact
  ...family('text.overloaded', 'overloaded', [/(?<!(?:possibly|probably|likely|maybe|perhaps) (?:due to|caused by) (?:a )?(?:server |system )?)(?<!(?:may|might|could) indicate (?:that )?(?:the )?(?:origin |server |service |upstream )?(?:is |was )?)overload(?<!if [^.|]{0,80}overload)(?<!either the server is overload)/], (evidence) => evidence.status !== 429),
  ...family('text.overloaded', 'overloaded', { zh: [/负载(?:过高|较高|已满|已饱和)/] }, (evidence) => evidence.status !== 429 && notUnderClientError(evidence)),
  // a hosted function in a degraded state is capacity whatever status the host put on it (NVIDIA NIM sends it as a 400)
  ...family('text.overloaded', 'overloaded', [/degraded function cannot be invoked|function [^ ]{1,80} is (?:in a )?degraded/]),
  // no backend left to take the request, whatever status the router put on it (Envoy's 503 "no healthy upstream"; a
  // router that tried every pod and answered 404)
  ...family('text.overloaded', 'overloaded', [/no healthy upstream|request to all (?:pods|replicas|backends|upstreams|workers|instances) failed/]),
  ...family('text.overloaded', 'overloaded', {
  en: [
    /(?:model|server|service|endpoint) being (?:very |too )?busy|(?:under|undergoing|(?:is|are) (?:currently |temporarily )?down for) (?:scheduled )?maintenance(?<!if [^.|]{0,60}maintenance)(?<!will be under (?:scheduled )?maintenance)|at (?:maximum|max|full) capacity(?<!not at (?:maximum|max|full) capacity)|upstream (?:is |was )?(?:temporarily |currently )?unavailable(?<!if (?:the )?upstream (?:is |was )?(?:temporarily |currently )?unavailable)|failure to get a peer from the ring-balancer|grpc_status ?[:=] ?14(?![0-9])|at capacity|over capacity|capacity (?:temporarily )?(?:exceeded|constraints?|limits? (?:reached|exceeded)|is full)|(?:no|insufficient) (?:available )?capacity/,
    /(?<!network error due to )(?:high|heavy|unusually high|increased|elevated) (?:volume of )?(?:demand|load|traffic|requests)/,
    /receiving more requests than (?:they|we|it|our (?:servers|systems)) can handle/,
    // a server that says it is too hot to take the request
    /(?:servers?|systems?|gpus?) (?:are|is) (?:running )?(?:too hot|overheat(?:ed|ing))/,
    // a server shedding load: a full queue, backpressure, a hosted function in a degraded state (NVIDIA NIM)
    /(?:request|requests) (?:was |were )?dropped due to backpressure|(?<![a-z])backpressure|queue (?:is )?full(?! for (?:ip|user|key|client|account|this))|max_queued_requests|no (?:free |idle )?slots? (?:is |are )?available/,
    // (a service "unavailable in your region" is a region refusal: request-rules)
    /service (?:is )?(?:temporarily |currently )?unavailable(?! in your (?:region|country|location|area))|temporarily unavailable|(?:temporarily )?unable to handle the request|services? (?:aren't|are not|isn't|is not) available right now/,
    /not ready for inference|model (?:[a-z0-9._:/@-]{1,100} )?(?:is (?:currently |still )?|currently |still )(?:loading|warming up)|model (?:loading|warming up)/,
    // (a condition, "if the model is busy …", is no report of one)
    new RegExp(String.raw`(?:model|llm|endpoint|engine|server|servers|service|system|provider|model provider) (?:is |are )?(?:currently |temporarily )?(?:too )?(?:busy|unavailable)(?<!if (?:the )?(?:model|llm|endpoint|engine|server|servers|service|system|provider|model provider) (?:is |are )?(?:currently |temporarily )?(?:too )?(?:busy|unavailable))${NOT_IN_REGION_OR_PLAN}`),
    // a serving domain or node that is down (a GaiaNet domain with no node behind it), a named model that is unavailable for now
    // (not a domain name taken at a registrar, nor a model unavailable in a region or on a plan)
    new RegExp(String.raw`(?<!if (?:the |this |a )?)(?:(?<![a-z.])(?:domain|node)|model [\x60'"][^\x60'"]{1,80}[\x60'"]) (?:is |are )?(?:currently |temporarily )?unavailable(?: now)?(?![a-z])(?! (?:for (?:purchase|registration|sale|transfer)|to register)|,? choose|[^.|]{0,20}nxdomain)${NOT_IN_REGION_OR_PLAN}`),
  ],
  ko: [/과부하|(?:서버|서비스|모델)(?:가|이)? (?:혼잡|바쁩|현재 바쁩)|일시적으로 (?:사용|이용)할 수 없|수요가 많/],
  zh: [/服务(?:器)?(?:繁忙|忙|过载|不可用|暂不可用|暂时不可用)|暂时无法提供服务|系统繁忙|访问量过大|当前.{0,12}(?:繁忙|拥挤)|资源紧张|算力不足|(?:服务)?容量不足/],
  ru: [/(?:сервер|сервис|модель)[а-яё]{0,2} (?:временно |сейчас )?(?:перегружен|недоступен)(?! в (?:вашем |этом )?(?:регионе|стране))(?<!возможн[а-яё]{1,4} причин[а-яё]{0,3}:? [^|]{0,100}(?:перегружен|недоступен))|высокая нагрузка на (?:сервер|сервис|модел|платформ)/],
  }, notUnderClientError),
];

/**
 * "Payment Required" (the 402 reason phrase) as the only cause named: billing. Read after the window and rate
 * families, so "402 Payment Required: Monthly spend limit reached" stays a window and "… rate limit exceeded" a
 * rate limit.
 */
export const PAYMENT_REQUIRED_RULES: readonly TextRule[] = family('text.billing', 'billing', [
  /payment (?:is )?required/,
  // an upgrade to a paid plan as the only way named (read after the windows, so "… rate limit … upgrade to Pro for more"
  // stays a rate limit), and a provider's gate on free trials
  /(?:please )?upgrade to (?:pro|plus|premium|a paid (?:plan|tier|account|subscription))(?![a-z])|free trial accounts?/,
  /add a payment method(?! to (?:your account )?to increase)/,
]);

/** A remedy that costs money — upgrade the plan, top up, become a premium user, 请充值 — without a cause beside it. */
const BILLING_REMEDIES = {
  en: [
    // an API gated to a paid tier ("you need to be a premium user to use MariTalk via API")
    /(?:need to|must) be a (?:premium|paid|pro) (?:user|member|subscriber)/,
    /(?:please )?(?:recharge|top up) (?:your )?(?:account|balance|credits)|please (?:recharge|top up)|top up to continue|top up your|upgrade your plan(?! or)/,
  ],
  zh: [/请充值/],
};

/**
 * {@link BILLING_REMEDIES}, read with the billing family unless rate-limit words stand beside the remedy: then they
 * report the cause and the remedy only the way out ("Too many requests. Upgrade your plan for higher limits" is the rate
 * limit). A long usage window beside it ("Monthly token quota exceeded. Please upgrade your plan") stays billing: waiting
 * it out is no way out.
 */
export const BILLING_REMEDY_RULES: readonly TextRule[] = family(
  'text.billing',
  'billing',
  BILLING_REMEDIES,
  (evidence) => firstTextMatch(RATE_LIMIT_RULES, evidence) === null || firstTextMatch(USAGE_WINDOW_RULES, evidence) !== null,
);

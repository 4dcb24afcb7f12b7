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
import type { TextRule } from '../rule.js';
import { family } from '../rule.js';

/** Explicit lack of money or credit. Precise on purpose: "add 10 credits to unlock" is a free-tier window. */
export const BILLING_RULES: readonly TextRule[] = family('text.billing', 'billing', [
  /insufficient (?:account )?(?:credits?|balance|funds)/,
  /credit balance (?:is )?(?:too low|insufficient|exhausted|depleted)/,
  /(?:out of|no remaining|run out of|ran out of) credits?/,
  /(?:used|exhausted|consumed|spent) (?:up )?(?:all )?(?:of )?(?:your |its |the |their )?(?:available )?credits?/,
  /(?:purchase|buy) (?:more )?credits/,
  /add more credits/,
  /(?:doesn't|does not|don't|do not) have (?:any |enough )?credits/,
  /credits? (?:have been |has been |are |is )?(?:exhausted|depleted|used up)/,
  /requires more credits|can only afford/,
  /exceeded your current quota/,
  /billing (?:hard )?limit (?:has been )?(?:reached|exceeded)/,
  /requires billing to be enabled|enable billing|billing (?:is |has been )?(?:not enabled|disabled|inactive|not active)/,
  /payment (?:is )?required|payment method (?:failed|declined|required)|card (?:was )?declined/,
  /(?:overdue|past[ -]due|unpaid) (?:account|payment|balance|invoice|bill)/,
  /account (?:is |has )?(?:been )?overdue|overdue-payment|in arrears/,
  /account is in good standing/,
  /(?:please )?(?:recharge|top up) (?:your )?(?:account|balance|credits)/,
  /please recharge/,
  /(?:free )?trial (?:has )?(?:ended|expired)|subscription (?:has )?(?:expired|lapsed|been canceled|been cancelled)/,
  /余额不足|额度不足|欠费|余额已用|请充值|账户余额|资源包|余额为|账户已欠|额度已用尽|额度用尽/,
]);

/** Periodic usage windows and spend limits: rate limits that reset by themselves (seed: "402 … looks retryable"). */
export const USAGE_WINDOW_RULES: readonly TextRule[] = family('text.usage_window', 'rate_limit', [
  /(?:daily|weekly|monthly|hourly|5[- ]hour|five[- ]hour|5h) (?:usage |spend(?:ing)? |request |token |free )?(?:limit|quota|cap|allowance|allocation)/,
  /usage (?:limit|quota|cap) (?:has been |was )?(?:reached|exceeded|exhausted|hit)/,
  /(?:reached|exceeded|exhausted|hit) (?:your |the |its |their )?(?:usage|spend(?:ing)?) (?:limit|quota|cap)/,
  /(?:organization|organisation|workspace|team|org|project|account) (?:monthly |daily |weekly )?(?:spend(?:ing)?|usage|budget) limit/,
  /spend(?:ing)? limit (?:has been |was )?(?:reached|exceeded|exhausted|hit)/,
  /(?:limit|quota|usage|allowance) (?:will )?resets? (?:at|in|on|tomorrow|every)/,
  /resets? tomorrow|try again tomorrow/,
  /(?:you've|you have) hit your (?:[a-z]{1,12} )?limit/,
  /free-models-per-(?:day|min)|requests? per (?:day|week|month)/,
  /(?:每日|每天|每周|每月|5小时|五小时)(?:的)?(?:使用|调用|请求)?(?:次数|额度|限额|配额|上限)/,
]);

/** Rate limits: requests, tokens or concurrency over a short window. */
export const RATE_LIMIT_RULES: readonly TextRule[] = family('text.rate_limit', 'rate_limit', [
  /rate[ _-]?limit/,
  /too many (?:requests|tokens|concurrent|connections|calls)/,
  /(?:tokens|requests) per (?:min|minute|second|sec|hour|day)/,
  /\((?:tpm|rpm|tpd|rpd|itpm|otpm)\)|(?<![a-z])(?:tpm|rpm|tpd|rpd|itpm|otpm) (?:rate )?limit/,
  /throttl/,
  /resources? (?:has been |have been |is |are )?exhausted/,
  /quota (?:exceeded|exhausted|limit|limitation)|exceeded (?:the |your )?quota/,
  /concurren(?:cy|t requests?) (?:limit|exceeded|reached|cap)|max (?:organization )?concurrency/,
  /(?<![a-z])qps(?![a-z])|(?:request|call)s? limit (?:reached|exceeded)/,
  /slow down/,
  /请求(?:过于|太)?频繁|限流|频率(?:超限|限制|过高)|速率限制|并发(?:数)?(?:超|过|限)|调用次数超|请求次数超|达到(?:速率|频率)/,
  /レート制限|リクエストが多すぎ/,
]);

/** Capacity (docs/policy.md#failover-reasons: 503 "service unavailable", overloaded_error, "at capacity", high demand, not ready). */
export const OVERLOADED_RULES: readonly TextRule[] = family('text.overloaded', 'overloaded', [
  /overload/,
  /at capacity|over capacity|capacity (?:temporarily )?(?:exceeded|constraints?|limits? (?:reached|exceeded)|is full)|(?:no|insufficient) (?:available )?capacity/,
  /(?:high|heavy|unusually high|increased|elevated) (?:demand|load|traffic)/,
  /service (?:is )?(?:temporarily |currently )?unavailable|temporarily unavailable/,
  /not ready for inference|model is not ready|model (?:is )?(?:loading|warming up|still loading)/,
  /(?:model|engine|server|servers|service|system) (?:is |are )?(?:currently |temporarily )?(?:busy|unavailable)/,
  /服务(?:器)?(?:繁忙|过载|不可用|暂不可用)|系统繁忙|负载(?:过高|较高|已满|已饱和)|访问量过大|当前.{0,12}(?:繁忙|拥挤)|资源紧张|算力不足/,
]);

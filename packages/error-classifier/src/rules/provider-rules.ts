/**
 * Rules that belong to one provider, and provider documentation anchors that name a cause outright.
 *
 * Seed 002: "provider-specific matchers stay scoped to the provider that owns them" — only an `openrouter`
 * provider context turns a bare "Provider returned error" into a (timeout-shaped) transient failure, and only
 * OpenRouter's 403 "Key limit exceeded" is billing. Other rules here read provider facts that generic wording
 * would get wrong: DashScope reuses OpenAI's `insufficient_quota` text for token-rate limits (its doc anchor
 * `#token-limit` says so), Google's free-tier quota text says "check your plan and billing details" for a
 * per-minute window, OpenRouter's per-key monthly limit reads like a context overflow, and Zhipu/Z.AI numeric
 * codes carry the cause.
 */
import type { FailoverReason } from '@understudy/contracts';
import type { Evidence } from '../evidence.js';
import type { TextRule, Verdict } from './rule.js';
import { family, firstTextMatch } from './rule.js';

const isOpenRouter = (evidence: Evidence): boolean => evidence.provider === 'openrouter';

const isGoogle = (evidence: Evidence): boolean =>
  evidence.provider.startsWith('google') || evidence.provider.includes('vertex') || evidence.provider.includes('gemini');

const isAlibaba = (evidence: Evidence): boolean =>
  evidence.provider.includes('qwen') || evidence.provider.includes('dashscope') || evidence.provider.includes('bailian') || evidence.provider.includes('alibaba');

const isZhipu = (evidence: Evidence): boolean =>
  evidence.provider === 'zai' ||
  evidence.provider.startsWith('zai-') ||
  evidence.provider.includes('zhipu') ||
  evidence.provider.includes('bigmodel') ||
  evidence.provider === 'glm';

/** Read before the decisive codes: they overrule what a generic code would say. */
export const LEADING_PROVIDER_RULES: readonly TextRule[] = [
  ...family('dashscope.token_limit', 'rate_limit', [/error-code#token-limit|#token-limit(?![a-z-])/]),
  ...family('dashscope.overdue_payment', 'billing', [/#overdue-payment(?![a-z-])/]),
  ...family('dashscope.inappropriate_content', 'refusal', [/#inappropriate-content(?![a-z-])/]),
  ...family('openrouter.key_limit_exceeded', 'billing', [/key limit exceeded/], (evidence) => isOpenRouter(evidence) && (evidence.status === 403 || evidence.status === null)),
  ...family('text.key_spend_limit', 'rate_limit', [
    /(?:create|use) a (?:new )?key with a higher (?:[a-z]{1,10} ){0,2}limit/,
  ]),
  ...family('google.quota_window', 'rate_limit', [/exceeded your current quota|gemini-api\/docs\/rate-limits/], isGoogle),
  ...family('dashscope.allocated_quota', 'rate_limit', [/allocated quota exceeded|increase your quota limit/], isAlibaba),
  ...family('google.quota_window', 'rate_limit', [/ai\.google\.dev\/gemini-api\/docs\/rate-limits/]),
];

/** Statuses that name a cause of their own: a bare OpenRouter wrapper under them is that cause, not a timeout (a 404: the routed model is missing). */
const STATUS_CAUSES: ReadonlySet<number> = new Set([401, 402, 403, 404, 429]);

/** A 4xx other than a timeout's (408) or a closed request's (499): the request itself was refused. */
function isClientError(status: number | null): boolean {
  return status !== null && status >= 400 && status < 500 && status !== 408 && status !== 499;
}

/** Read after every text family, before the status rules. */
export const TRAILING_PROVIDER_RULES: readonly TextRule[] = family(
  'openrouter.provider_returned_error',
  'timeout',
  [/provider returned error/],
  // A status the wrapper or the inner error states (a 429) decides instead: only a bare wrapper is timeout-shaped. The
  // routed provider's own client error passed on in `metadata.raw` (Google's 400 INVALID_ARGUMENT) is that error.
  (evidence) => isOpenRouter(evidence) && !STATUS_CAUSES.has(evidence.status ?? 0) && !isClientError(evidence.innerStatus),
);

/** Zhipu / Z.AI business codes (the numeric `code` values of docs.bigmodel.cn's error-code table). */
const ZHIPU_CODES: Readonly<Record<string, FailoverReason>> = {
  '1000': 'auth',
  '1001': 'auth',
  '1002': 'auth',
  '1003': 'auth',
  '1004': 'auth',
  '1005': 'auth',
  '1110': 'auth_permanent',
  '1111': 'auth_permanent',
  '1112': 'auth_permanent',
  '1113': 'billing',
  '1121': 'auth_permanent',
  '1210': 'format',
  '1211': 'model_not_found',
  '1212': 'format',
  '1213': 'format',
  '1214': 'format',
  '1215': 'format',
  '1220': 'auth',
  '1221': 'model_not_found',
  '1222': 'model_not_found',
  '1230': 'server_error',
  '1234': 'timeout',
  '1261': 'context_overflow',
  '1301': 'refusal',
  '1302': 'rate_limit',
  '1303': 'rate_limit',
  '1304': 'rate_limit',
  '1305': 'overloaded',
  '1308': 'rate_limit',
  '1309': 'billing',
  '1310': 'rate_limit',
  '1311': 'billing',
  '1312': 'overloaded',
};

const ZHIPU_CODE = /["']?code["']?\s?[:=]\s?["']?(1\d{3})(?!\d)/;

function zhipuCode(evidence: Evidence): Verdict | null {
  if (!isZhipu(evidence)) return null;
  const code = ZHIPU_CODE.exec(evidence.text)?.[1] ?? (/^1\d{3}$/.test(evidence.code) ? evidence.code : undefined);
  if (code === undefined) return null;
  const reason = ZHIPU_CODES[code];
  if (reason === undefined) return null;
  // 1113 is documented with two messages: the balance one (billing) and "invalid api endpoint or credentials".
  if (code === '1113' && /credentials/.test(evidence.text)) return { reason: 'auth', rule: 'zhipu.1113.credentials', matched: code };
  // Capacity under a 429 (1305 "temporarily overloaded" sent as 429) is this caller being throttled, as with the
  // bare word "overloaded" under a 429 in the capacity family (rules/text/quota-rules.ts).
  if (reason === 'overloaded' && evidence.status === 429) return { reason: 'rate_limit', rule: `zhipu.${code}.under_429`, matched: code };
  return { reason, rule: `zhipu.${code}`, matched: code };
}

/**
 * The provider-scoped or anchor rule that decides before any code, or `null`.
 *
 * @example leadingProviderRule(buildEvidence({ provider: 'zai', body: '{"error":{"code":"1113"}}' }))?.reason // 'billing'
 */
export function leadingProviderRule(evidence: Evidence): Verdict | null {
  return firstTextMatch(LEADING_PROVIDER_RULES, evidence) ?? zhipuCode(evidence);
}

/** The provider-scoped rule read after the text families (OpenRouter's bare wrapper), or `null`. */
export function trailingProviderRule(evidence: Evidence): Verdict | null {
  return firstTextMatch(TRAILING_PROVIDER_RULES, evidence);
}

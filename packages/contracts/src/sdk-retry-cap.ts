/**
 * The default SDK retry cap (the model-failover doc "SDK retry-after caps"), in the lowest package so that the
 * environment parse (runtime), the runner, the retry-delay rule (cooldown-scheduler) and the gateway's
 * `x-should-retry` header share one number.
 */

/**
 * The longest Retry-After waited out before a same-profile retry when nothing else is configured, ms: 60 000
 * (60 s, the cap of the Stainless-generated SDKs, openai and @anthropic-ai/sdk).
 * `UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS` overrides it.
 */
export const DEFAULT_SDK_RETRY_MAX_WAIT_MS = 60_000;

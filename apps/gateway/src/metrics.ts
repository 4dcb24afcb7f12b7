/**
 * Prometheus metrics (`GET /metrics`, prom-client, a registry of our own): requests, attempts by reason,
 * fallbacks (by reason, and by from/to/reason), active cooldowns (read from the stores at scrape time, by lane
 * and by reason), probe outcomes, the cooldown and disable windows opened and how long profiles took to recover,
 * and latency histograms — total, upstream and the gateway's own overhead (total minus time spent waiting on
 * providers). docs/operations.md#observability lists them with the questions they answer.
 *
 * Labels are bounded: provider ids, failover reasons, lanes and `provider/model` refs the config names (a model a
 * caller made up counts as `<provider>/other`); never a session key, profile secret or raw caller string.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One active cooldown or disable window, as the gauge counts it. */
export interface ActiveWindow {
  readonly agent: string;
  readonly provider: string;
  readonly lane: 'cooldown' | 'disable';
  /** The failover reason that opened the window (`unknown` when the stats do not say). */
  readonly reason: string;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Cooldown and disable windows: 30 s steps up to the one-day disable cap. */
const WINDOW_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1_200, 3_600, 7_200, 21_600, 86_400];
/** Recovery: from seconds (a short rate limit) to a day (a billing disable). */
const RECOVERY_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1_800, 3_600, 7_200, 21_600, 86_400];
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** The gateway's metrics. */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'status'>;
  readonly attempts: Counter<'provider' | 'kind' | 'reason'>;
  readonly fallbacks: Counter<'reason'>;
  /** Fallbacks by the selected model (`from`), the model that answered (`to`) and the reason the selected one failed. */
  readonly fallbackTransitions: Counter<'from' | 'to' | 'reason'>;
  /** Probes of cooling or disabled profiles, by provider and outcome (`success`, `failure`). */
  readonly probes: Counter<'provider' | 'outcome'>;
  /** Each cooldown or disable window a turn opened, its length in seconds, by provider, lane and reason. */
  readonly cooldownWindowSeconds: Histogram<'provider' | 'lane' | 'reason'>;
  /** Seconds from a profile's first window of an outage to its first success afterwards, by provider and reason. */
  readonly recoverySeconds: Histogram<'provider' | 'reason'>;
  /** Stream events skipped because their data was not valid JSON, by provider. */
  readonly skippedStreamEvents: Counter<'provider'>;
  /** Streams that broke after output and were continued (`continued`) or not (`not_continued`) on another candidate. */
  readonly continuations: Counter<'outcome'>;
  readonly inFlight: Gauge;
  readonly requestSeconds: Histogram<'route'>;
  readonly upstreamSeconds: Histogram<'provider'>;
  readonly overheadSeconds: Histogram<'route'>;

  constructor(options: {
    readonly activeWindows: () => Promise<readonly ActiveWindow[]>;
    /** 1 while the state store answers, 0 while the shared PostgreSQL state is unreachable. @default always 1 */
    readonly stateStoreUp?: (() => Promise<{ readonly backend: string; readonly up: boolean }>) | undefined;
    readonly defaultMetrics?: boolean;
  }) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'understudy_requests_total',
      help: 'HTTP requests by route and status.',
      labelNames: ['route', 'status'],
      registers,
    });
    this.attempts = new Counter({
      name: 'understudy_attempts_total',
      help: 'Provider attempts by provider, kind (call, probe, skip) and reason (ok for a success).',
      labelNames: ['provider', 'kind', 'reason'],
      registers,
    });
    this.fallbacks = new Counter({
      name: 'understudy_fallbacks_total',
      help: 'Turns answered by a fallback candidate, by the reason the selected model failed.',
      labelNames: ['reason'],
      registers,
    });
    this.fallbackTransitions = new Counter({
      name: 'understudy_fallback_transitions_total',
      help: 'Turns answered by a fallback, by the selected model (from), the model that answered (to) and the reason the selected model failed; models the config does not name count as <provider>/other.',
      labelNames: ['from', 'to', 'reason'],
      registers,
    });
    this.probes = new Counter({
      name: 'understudy_probes_total',
      help: 'Requests that probed a cooling-down or disabled profile, by provider and outcome (success, failure).',
      labelNames: ['provider', 'outcome'],
      registers,
    });
    this.cooldownWindowSeconds = new Histogram({
      name: 'understudy_cooldown_window_seconds',
      help: 'Length of each cooldown or disable window opened on an auth profile, seconds, by provider, lane and reason (the sum is the cooling time scheduled).',
      labelNames: ['provider', 'lane', 'reason'],
      buckets: WINDOW_BUCKETS,
      registers,
    });
    this.recoverySeconds = new Histogram({
      name: 'understudy_recovery_seconds',
      help: "Seconds from an auth profile's first cooldown or disable window of an outage to its first success afterwards, by provider and the reason that opened the outage.",
      labelNames: ['provider', 'reason'],
      buckets: RECOVERY_BUCKETS,
      registers,
    });
    this.skippedStreamEvents = new Counter({
      name: 'understudy_stream_events_skipped_total',
      help: 'Upstream stream events skipped because their data was not valid JSON (the stream went on).',
      labelNames: ['provider'],
      registers,
    });
    this.continuations = new Counter({
      name: 'understudy_stream_continuations_total',
      help: 'Streams that broke after output, by whether another candidate continued the answer (continued, not_continued).',
      labelNames: ['outcome'],
      registers,
    });
    this.inFlight = new Gauge({ name: 'understudy_requests_in_flight', help: 'Requests being served.', registers });
    const stateStoreUp = options.stateStoreUp ?? (() => Promise.resolve({ backend: 'sqlite', up: true }));
    new Gauge({
      name: 'understudy_state_store_up',
      help: 'Whether the state store answers (0: the shared PostgreSQL state is unreachable and requests are served from the last known state), by backend.',
      labelNames: ['backend'],
      registers,
      async collect() {
        this.reset();
        const health = await stateStoreUp();
        this.set({ backend: health.backend }, health.up ? 1 : 0);
      },
    });
    // One read of the stores per scrape: the two gauges are collected together and share the read in flight.
    let windowsRead: Promise<readonly ActiveWindow[]> | undefined;
    const activeWindows = (): Promise<readonly ActiveWindow[]> =>
      (windowsRead ??= options.activeWindows().finally(() => {
        windowsRead = undefined;
      }));
    new Gauge({
      name: 'understudy_active_cooldowns',
      help: 'Auth profiles in an active cooldown or disable window, by agent, provider and lane.',
      labelNames: ['agent', 'provider', 'lane'],
      registers,
      async collect() {
        this.reset();
        for (const window of await activeWindows()) this.inc({ agent: window.agent, provider: window.provider, lane: window.lane });
      },
    });
    new Gauge({
      name: 'understudy_cooldowns_by_reason',
      help: 'Auth profiles in an active cooldown or disable window, by provider, lane and the reason that opened it (all agents).',
      labelNames: ['provider', 'lane', 'reason'],
      registers,
      async collect() {
        this.reset();
        for (const window of await activeWindows()) this.inc({ provider: window.provider, lane: window.lane, reason: window.reason });
      },
    });
    this.requestSeconds = new Histogram({
      name: 'understudy_request_duration_seconds',
      help: 'Whole request time (to the last byte), by route.',
      labelNames: ['route'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.upstreamSeconds = new Histogram({
      name: 'understudy_upstream_duration_seconds',
      help: 'Time waiting on a provider per attempt (to the answer, or to the first token when streaming).',
      labelNames: ['provider'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.overheadSeconds = new Histogram({
      name: 'understudy_gateway_overhead_seconds',
      help: "The gateway's own time per request: total minus upstream time.",
      labelNames: ['route'],
      buckets: OVERHEAD_BUCKETS,
      registers,
    });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'understudy_' });
  }

  /** `understudy_requests_total` of one route and status, made once per label set (see {@link ChildCache}). */
  readonly requestsOf = new ChildCache((route: string, status: string) => this.requests.labels(route, status));
  /** `understudy_request_duration_seconds` of one route. */
  readonly requestSecondsOf = new ChildCache((route: string) => this.requestSeconds.labels(route));
  /** `understudy_gateway_overhead_seconds` of one route. */
  readonly overheadSecondsOf = new ChildCache((route: string) => this.overheadSeconds.labels(route));
  /** `understudy_upstream_duration_seconds` of one provider. */
  readonly upstreamSecondsOf = new ChildCache((provider: string) => this.upstreamSeconds.labels(provider));
  /** `understudy_attempts_total` of one provider, kind and reason. */
  readonly attemptsOf = new ChildCache((provider: string, kind: string, reason: string) => this.attempts.labels(provider, kind, reason));

  /** The Prometheus text exposition. */
  async render(): Promise<{ readonly contentType: string; readonly text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** Label sets a {@link ChildCache} keeps before it starts again (label values are routes, statuses, providers and reasons: a few dozen). */
const MAX_CHILDREN = 1000;

/**
 * A metric's child per label set, made once with `make` (prom-client's `labels(…)`) and kept: `inc(labels)` and
 * `observe(labels, v)` check the label names and hash the label object on every call, a child does that once.
 * A child keeps counting into the same series after {@link ChildCache} forgets it, so starting again loses nothing.
 */
export class ChildCache<Values extends string[], Child> {
  readonly #make: (...values: Values) => Child;
  readonly #children = new Map<string, Child>();

  constructor(make: (...values: Values) => Child) {
    this.#make = make;
  }

  /** The child of these label values (in the metric's `labelNames` order). */
  of(...values: Values): Child {
    const key = values.length === 1 ? (values[0] as string) : values.join('\u0000');
    let child = this.#children.get(key);
    if (child === undefined) {
      child = this.#make(...values);
      if (this.#children.size >= MAX_CHILDREN) this.#children.clear();
      this.#children.set(key, child);
    }
    return child;
  }
}

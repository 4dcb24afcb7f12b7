/**
 * `@understudy/fallback-runner/testing`: in-memory ports for tests of the runner and of code built on it
 * — a store, a manual clock whose `sleep` advances time at once, and a seeded random source.
 */
export { FakeClock, seededRandom } from './fake-clock.js';
export { MemoryAuthStore } from './memory-store.js';
export type { MemoryStoreCalls } from './memory-store.js';

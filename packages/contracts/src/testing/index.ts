/**
 * `@understudy/contracts/testing`: the behaviour cases every `AuthStorePort` implementation runs (the in-memory
 * test store, SQLite, PostgreSQL), framework-free.
 */
export { STORE_CONFORMANCE_CASES } from './store-conformance.js';
export type { StoreConformanceCase, StoreHarness } from './store-conformance.js';

/**
 * `@understudy/candidate-chain`: the ordered candidate models of a turn from its model selection, selection
 * source, config and session (the model-failover doc "Selection source policy", "Candidate chain rules"). Pure.
 */
export { buildCandidateChain, resolveCandidateChain } from './build-chain.js';
export type { CandidateChainInput, CandidateChainPlan, SessionAction } from './build-chain.js';
export { resolveSessionSelection } from './session-selection.js';
export type { SessionSelection } from './session-selection.js';
export { configuredSelection } from './configured-selection.js';
export type { ConfiguredSelection, ConfiguredSelectionKind } from './configured-selection.js';
export { aliasIndex, lookupModelRef, resolveModelRef, resolveModelSelection } from './agents-config.js';
export type { AgentsModelConfig, ModelEntryConfig, ModelSelectionConfig, ResolvedModelSelection } from './agents-config.js';
export { CandidateChainError } from './errors.js';
export type { CandidateChainErrorCode } from './errors.js';

/**
 * Per-candidate request shaping from the model metadata (docs/configuration.md#model-metadata,
 * docs/wire-mapping.md#cross-format): each candidate's request carries what its model accepts (reasoning model,
 * temperature ceiling), which the wire formats use to shape the body; a candidate that cannot serve the request
 * at all (images to a model known to take text only) is skipped with the reason instead of failing.
 */
import type { UnderstudyConfig } from '@understudy/config';
import { lookupModelMetadata } from '@understudy/config';
import type { Candidate } from '@understudy/contracts';
import type { ChatRequest, ModelCapabilities } from '@understudy/providers';

/** What the target model accepts, from its metadata (unknown figures left out: the request is sent unchanged). */
function modelCapabilities(config: UnderstudyConfig, candidate: Candidate): ModelCapabilities {
  const metadata = lookupModelMetadata(config, candidate);
  return {
    ...(metadata.reasoning === undefined ? {} : { reasoning: metadata.reasoning }),
    ...(metadata.maxTemperature === undefined ? {} : { maxTemperature: metadata.maxTemperature }),
  };
}

/** The request for each candidate: the turn's request with the candidate's model id and capabilities. */
export function candidateRequest(config: UnderstudyConfig, chat: Omit<ChatRequest, 'model'>): (candidate: Candidate) => ChatRequest {
  return (candidate) => ({ ...chat, model: candidate.model, target: modelCapabilities(config, candidate) });
}

/**
 * Why a candidate cannot serve a request at all, or `undefined` when it can: a request with images for a model
 * whose metadata (config or built-in table) says it takes text only. A model without metadata is tried.
 */
export function unservableReason(config: UnderstudyConfig, candidate: Candidate, hasImages: boolean): string | undefined {
  if (!hasImages) return undefined;
  const metadata = lookupModelMetadata(config, candidate);
  if (metadata.source === 'none' || metadata.input.includes('image')) return undefined;
  return 'the model takes text only (model metadata "input") and the request has images';
}

import type { OperationRoute } from '../../../generated/operations.js';
import type { ProviderType } from '../../config/config-schema.js';

/**
 * `gen_ai.provider.name` per provider type, from the GenAI conventions' well-known values
 * (https://opentelemetry.io/docs/specs/semconv/registry/attributes/gen-ai/). A `Record` over every type,
 * so a new provider type does not compile until it is named here. `openai-compatible` upstreams (vLLM,
 * Ollama, ...) and the built-in model have no well-known value.
 */
const providerNames: Record<ProviderType, string> = {
  openai: 'openai',
  'openai-compatible': 'openai_compatible',
  'azure-openai': 'azure.ai.openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  vertex: 'gcp.vertex_ai',
  bedrock: 'aws.bedrock',
  builtin: 'unified_model_api.builtin',
};

export function genAiProviderName(type: ProviderType): string {
  return providerNames[type];
}

/**
 * `gen_ai.operation.name` of a model-call operation: the conversation protocols are `chat`, Gemini's is
 * `generate_content` (its own name in the conventions), images are `generate_content` too (the conventions
 * have no image operation) and embeddings `embeddings`. Token counts are no GenAI operation: undefined.
 */
export function genAiOperationName(route: OperationRoute): string | undefined {
  const { metering } = route;
  if (!metering) return undefined;
  if (/embedding/i.test(route.operationId)) return 'embeddings';
  if (metering.kind !== 'generation') return undefined;
  switch (metering.ledgerProtocol) {
    case 'openai-chat':
    case 'openai-responses':
    case 'anthropic-messages':
      return 'chat';
    case 'gemini':
    case 'openai-images':
      return 'generate_content';
    default:
      return undefined;
  }
}

import type { OperationRoute } from '../../../generated/operations.js';

/**
 * `gen_ai.operation.name` of a model-call operation: the conversation protocols are `chat`, Gemini's is
 * `generate_content` (its own name in the conventions), images are `generate_content` too (the conventions
 * have no image operation) and embeddings `embeddings`. Token counts are no GenAI operation: undefined.
 */
export function genAiOperationName(route: OperationRoute): string | undefined {
  const { metering } = route;
  if (!metering) return undefined;
  if (metering.kind === 'embedding') return 'embeddings';
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

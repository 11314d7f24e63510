import type { ClientProtocol } from '../../core/client-protocol.js';
import { renderOpenAIError } from '../openai-chat/render-openai-error.js';

/**
 * OpenAI's Embeddings API as the layers below the protocols see it (core/client-protocol.ts); index.ts adds
 * its operation. It generates nothing, so it has no output cap and no finish reasons.
 */
export const embeddingsProtocol: ClientProtocol<'openai-embeddings'> = {
  name: 'openai-embeddings',
  family: 'openai',
  renderError: renderOpenAIError,
  genAiOperationNames: { embedding: 'embeddings' },
  answerReader: { finishReasonKeys: [], outputOf: () => undefined },
};

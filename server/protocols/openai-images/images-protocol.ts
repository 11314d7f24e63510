import type { ClientProtocol } from '../../core/client-protocol.js';
import { renderOpenAIError } from '../openai-chat/render-openai-error.js';

/**
 * The Images API as the layers below the protocols see it (core/client-protocol.ts); index.ts adds its
 * operations. Its requests name no output cap (an image's worst case is reserved instead) and no body of
 * it is ever forwarded, so it has no wire scanner or image-URL rewriter. The GenAI conventions have no
 * image operation: `generate_content` is the closest.
 */
export const imagesProtocol: ClientProtocol<'openai-images'> = {
  name: 'openai-images',
  family: 'openai',
  renderError: renderOpenAIError,
  genAiOperationNames: { generation: 'generate_content' },
  answerReader: { finishReasonKeys: [], outputOf: () => undefined },
};

import type { ModelCallProtocol } from '../../core/client-protocol.js';
import { rewriteResponsesImageUrls } from '../../providers/openai/rewrite-wire-image-urls.js';
import { openAISessionFields } from '../openai-chat/openai-session-fields.js';
import { renderOpenAIError } from '../openai-chat/render-openai-error.js';
import { conversationIdOf } from './conversation-items.js';
import { responsesOutputCap } from './responses-params.js';
import { openAIResponsesWireScanner } from './scan-openai-responses.js';
import type { ResponsesCreateRequest } from './wire-types.js';

/**
 * The Responses API as the layers below the protocols see it (core/client-protocol.ts); index.ts adds its
 * operations. It has no twin spellings; a response object states its finish by its status, which the
 * trace reader knows.
 */
export const responsesProtocol: ModelCallProtocol & { name: 'openai-responses' } = {
  name: 'openai-responses',
  family: 'openai',
  wireScanner: openAIResponsesWireScanner,
  outputCap: responsesOutputCap,
  rewriteImageUrls: rewriteResponsesImageUrls,
  // A conversation's turns share their prefix; it is the session of a request that names no prompt cache key.
  sessionFields: { ...openAISessionFields, conversationId: (body) => conversationIdOf(body as Pick<ResponsesCreateRequest, 'conversation'>) },
  renderError: renderOpenAIError,
  genAiOperationNames: { generation: 'chat' },
  answerReader: { finishReasonKeys: [], outputOf: (body) => body.output },
};

import type { ModelCallProtocol } from '../../core/client-protocol.js';
import { assertOneSpelling } from '../../core/one-spelling-per-field.js';
import { rewriteChatImageUrls } from '../../providers/openai/rewrite-wire-image-urls.js';
import { chatOutputCap, chatTwinFields } from './chat-params.js';
import { openAISessionFields } from './openai-session-fields.js';
import { renderOpenAIError } from './render-openai-error.js';
import { openAIChatWireScanner } from './scan-openai-chat.js';

/**
 * Chat Completions as the layers below the protocols see it (core/client-protocol.ts); index.ts adds its
 * operations. Apart from index.ts so that chat-call.ts can name it without an import circle.
 */
export const chatProtocol: ModelCallProtocol & { name: 'openai-chat' } = {
  name: 'openai-chat',
  family: 'openai',
  wireScanner: openAIChatWireScanner,
  canonicalise(body) {
    assertOneSpelling(body, chatTwinFields);
    return body;
  },
  outputCap: chatOutputCap,
  rewriteImageUrls: rewriteChatImageUrls,
  sessionFields: openAISessionFields,
  renderError: renderOpenAIError,
  genAiOperationNames: { generation: 'chat' },
  answerReader: { finishReasonKeys: ['finish_reason'], outputOf: (body) => body.choices },
};

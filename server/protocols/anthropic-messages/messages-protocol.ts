import type { ModelCallProtocol } from '../../core/client-protocol.js';
import { renderAnthropicError } from './render-anthropic-error.js';
import { anthropicMessagesWireScanner } from './scan-anthropic-messages.js';
import type { MessagesRequestBody } from './wire-types.js';

/**
 * Anthropic Messages as the layers below the protocols see it (core/client-protocol.ts); index.ts adds its
 * operations. No twin spellings; no image-URL rewriter, as an upstream that inlines image URLs never
 * forwards Messages (providers/registry.ts).
 */
export const messagesProtocol: ModelCallProtocol & { name: 'anthropic-messages' } = {
  name: 'anthropic-messages',
  family: 'anthropic',
  wireScanner: anthropicMessagesWireScanner,
  outputCap: { named: ['max_tokens'], set: 'max_tokens' },
  // `metadata.user_id`, the one hint Anthropic's API has: Claude Code writes its session ID into it.
  sessionFields: { endUser: (body) => (body as Pick<MessagesRequestBody, 'metadata'>).metadata?.user_id },
  renderError: renderAnthropicError,
  genAiOperationNames: { generation: 'chat' },
  answerReader: { finishReasonKeys: ['stop_reason'], outputOf: (body) => body.content },
};

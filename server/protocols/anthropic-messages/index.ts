/**
 * Anthropic Messages (`POST /v1/messages` and its `count_tokens`): messages-call.ts reads a request for
 * the model-call pipeline; messages-protocol.ts holds what the layers below read. Anthropic clients list
 * chat models only, as Anthropic's own list holds nothing else.
 */
import { renderAnthropicModel, renderAnthropicModelPage } from '../openai-models/render-anthropic-model.js';
import type { ClientProtocolDefinition } from '../protocol-definition.js';
import { createCountTokensHandler } from './handle-count-tokens.js';
import { createMessageHandler } from './handle-create-message.js';
import { createMessageBatchHandlers } from './handle-message-batches.js';
import { messagesProtocol } from './messages-protocol.js';

export const anthropicMessagesDefinition = {
  ...messagesProtocol,
  operations: (deps) => ({
    createMessage: createMessageHandler(deps),
    countMessageTokens: createCountTokensHandler(deps),
    ...createMessageBatchHandlers(deps.batches, deps.images.publicBaseUrl),
  }),
  modelList: {
    list: (models, query) =>
      renderAnthropicModelPage(
        models.filter((model) => model.capabilities.includes('chat')),
        { limit: Number(query.limit ?? 20), afterId: query.after_id, beforeId: query.before_id },
      ),
    one: renderAnthropicModel,
  },
} satisfies ClientProtocolDefinition<'anthropic-messages'>;

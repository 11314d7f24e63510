/**
 * Chat Completions (`POST /v1/chat/completions`): chat-call.ts reads a request for the model-call pipeline;
 * chat-protocol.ts holds what the layers below read. Its family's model list is OpenAI's.
 */
import { renderModel } from '../openai-models/render-model.js';
import type { ClientProtocolDefinition } from '../protocol-definition.js';
import { chatProtocol } from './chat-protocol.js';
import { createChatCompletionHandler } from './handle-chat-completion.js';

export const openAIChatDefinition = {
  ...chatProtocol,
  operations: (deps) => ({ createChatCompletion: createChatCompletionHandler(deps) }),
  modelList: {
    list: (models) => ({ object: 'list', data: models.map(renderModel) }),
    one: renderModel,
  },
} satisfies ClientProtocolDefinition<'openai-chat'>;

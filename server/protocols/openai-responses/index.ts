/**
 * The Responses API (`/v1/responses`): created through the model-call pipeline (responses-call.ts), kept
 * and read back from the gateway's store (handle-stored-responses.ts), and OpenAI's Conversations, whose
 * items responses build on and extend (handle-conversations.ts).
 */
import type { ClientProtocolDefinition } from '../protocol-definition.js';
import { createResponseHandler } from './handle-create-response.js';
import { createConversationHandlers } from './handle-conversations.js';
import { createStoredResponseHandlers } from './handle-stored-responses.js';
import { createCompactHandler } from './handle-compact-response.js';
import { responsesProtocol } from './responses-protocol.js';

export const openAIResponsesDefinition = {
  ...responsesProtocol,
  operations: (deps) => {
    // Creating and compacting read and keep the same conversation state, sealed with the same key.
    const responses = {
      registry: deps.registry,
      router: deps.router,
      store: deps.responses,
      conversations: deps.conversations,
      retentionSeconds: deps.responseRetentionSeconds,
      seal: deps.compactionSeal,
    };
    return {
      createResponse: createResponseHandler({ ...responses, isWarmUp: deps.isResponsesWarmUp }),
      compactResponse: createCompactHandler(responses),
      ...createStoredResponseHandlers(deps.responses),
      ...createConversationHandlers(deps.conversations),
    };
  },
} satisfies ClientProtocolDefinition<'openai-responses'>;

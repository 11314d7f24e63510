/**
 * The Responses API (`/v1/responses`): created through the model-call pipeline (responses-call.ts), kept
 * and read back from the gateway's store (handle-stored-responses.ts).
 */
import type { ClientProtocolDefinition } from '../protocol-definition.js';
import { createResponseHandler } from './handle-create-response.js';
import { createStoredResponseHandlers } from './handle-stored-responses.js';
import { responsesProtocol } from './responses-protocol.js';

export const openAIResponsesDefinition = {
  ...responsesProtocol,
  operations: (deps) => ({
    createResponse: createResponseHandler({ registry: deps.registry, router: deps.router, store: deps.responses, retentionSeconds: deps.responseRetentionSeconds }),
    ...createStoredResponseHandlers(deps.responses),
  }),
} satisfies ClientProtocolDefinition<'openai-responses'>;

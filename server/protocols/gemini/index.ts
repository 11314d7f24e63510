/**
 * Gemini's generateContent API, and its token counting, embeddings and model list: gemini-call.ts reads a
 * generation for the model-call pipeline; gemini-protocol.ts holds what the layers below read.
 */
import type { ClientProtocolDefinition } from '../protocol-definition.js';
import { geminiProtocol } from './gemini-protocol.js';
import { operationsByAction } from './gemini-operations.js';
import { createGeminiCountTokensHandler } from './handle-count-tokens.js';
import { createBatchEmbedContentsHandler, createEmbedContentHandler } from './handle-embed-content.js';
import { createGenerateContentHandler, createStreamGenerateContentHandler } from './handle-generate-content.js';
import { createGetGeminiModelHandler, createListGeminiModelsHandler } from './handle-gemini-models.js';
import { renderGeminiModel, renderGeminiModelPage } from './render-gemini-model.js';

export const geminiDefinition = {
  ...geminiProtocol,
  operations: (deps) => ({
    ...operationsByAction({
      generateContent: createGenerateContentHandler(deps),
      streamGenerateContent: createStreamGenerateContentHandler(deps),
      countTokens: createGeminiCountTokensHandler(deps),
      embedContent: createEmbedContentHandler(deps),
      batchEmbedContents: createBatchEmbedContentsHandler(deps),
    }),
    listGeminiModels: createListGeminiModelsHandler(deps.registry),
    getGeminiModel: createGetGeminiModelHandler(deps.registry),
  }),
  // What `GET /v1/models` answers a client that authenticates as Google's SDKs do.
  modelList: {
    list: (models, query) => renderGeminiModelPage(models, { pageSize: Number(query.pageSize ?? 50), pageToken: query.pageToken || undefined }),
    one: renderGeminiModel,
  },
} satisfies ClientProtocolDefinition<'gemini'>;

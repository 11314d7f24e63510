import type { OperationHandlers } from '../generated/operations.js';
import type { ModelRegistry } from './core/model-registry.js';
import type { Router } from './core/router.js';
import type { KeyAuthenticator } from './keys/key-authenticator.js';
import { createMyKeyHandlers } from './protocols/account/handle-my-keys.js';
import { createAccountHandlers } from './protocols/admin/handle-accounts.js';
import { createAllModelsHandlers } from './protocols/admin/handle-all-models.js';
import { createConfigReloadHandlers } from './protocols/admin/handle-config-reload.js';
import { createKeyHandlers } from './protocols/admin/handle-keys.js';
import { createUsageHandlers } from './protocols/usage/handle-usage.js';
import { createCountTokensHandler } from './protocols/anthropic-messages/handle-count-tokens.js';
import { createMessageHandler } from './protocols/anthropic-messages/handle-create-message.js';
import { createGeminiCountTokensHandler } from './protocols/gemini/handle-count-tokens.js';
import { createBatchEmbedContentsHandler, createEmbedContentHandler } from './protocols/gemini/handle-embed-content.js';
import { createGenerateContentHandler, createStreamGenerateContentHandler } from './protocols/gemini/handle-generate-content.js';
import { createGetGeminiModelHandler, createListGeminiModelsHandler } from './protocols/gemini/handle-gemini-models.js';
import { createImageEditHandler } from './protocols/openai-images/handle-create-image-edit.js';
import { createImageHandler } from './protocols/openai-images/handle-create-image.js';
import { createGetImageFileHandler } from './protocols/openai-images/handle-get-image-file.js';
import type { ImageServices } from './protocols/openai-images/image-services.js';
import { createChatCompletionHandler } from './protocols/openai-chat/handle-chat-completion.js';
import { createEmbeddingHandler } from './protocols/openai-embeddings/handle-create-embedding.js';
import { createListModelsHandler, createRetrieveModelHandler } from './protocols/openai-models/handle-models.js';
import { createOpenApiSpecHandler } from './protocols/operations/handle-openapi-spec.js';
import { createReadinessHandler, type ReadinessProbes } from './protocols/operations/handle-readiness.js';
import { createResponseHandler } from './protocols/openai-responses/handle-create-response.js';
import { createStoredResponseHandlers } from './protocols/openai-responses/handle-stored-responses.js';
import type { AccountStore } from './store/account-store.js';
import type { ConfigReloader } from './config/reload-config.js';
import type { KeyStore } from './store/key-store.js';
import type { UsageStore } from './usage/usage-store.js';
import type { ResponseStore } from './store/response-store.js';

export interface HandlerDependencies {
  registry: ModelRegistry;
  router: Router;
  keys: KeyStore;
  accounts: AccountStore;
  usage: UsageStore;
  /** `ledger.retention_days`: reports say since when rows are kept. */
  ledgerRetentionDays: number | undefined;
  responses: ResponseStore;
  /** Seconds a stored response lives (`responses.retention_days`). */
  responseRetentionSeconds: number;
  authenticator: KeyAuthenticator;
  images: ImageServices;
  /** `GET /metrics` (observability/metrics/setup-metrics.ts). */
  serveMetrics: OperationHandlers['getMetrics'];
  readiness: ReadinessProbes;
  /** `POST /admin/v1/config/reload` (config/reload-config.ts). */
  reloadConfig: ConfigReloader;
}

/**
 * Every operation of the contract, keyed by operationId. The type makes a spec operation without a
 * handler a compile error.
 */
export async function createHandlers(deps: HandlerDependencies): Promise<OperationHandlers> {
  return {
    getHealth: (_req, res) => {
      res.json({ status: 'ok' });
    },
    getReadiness: createReadinessHandler(deps.readiness),
    getOpenApiSpec: await createOpenApiSpecHandler(),
    getMetrics: deps.serveMetrics,
    createChatCompletion: createChatCompletionHandler(deps),
    listModels: createListModelsHandler(deps.registry),
    retrieveModel: createRetrieveModelHandler(deps.registry),
    ...createKeyHandlers(deps.keys, deps.accounts, deps.authenticator),
    ...createAccountHandlers(deps.accounts, deps.keys, deps.authenticator),
    ...createMyKeyHandlers(deps.keys, deps.authenticator),
    ...createAllModelsHandlers(deps.registry),
    ...createConfigReloadHandlers(deps.reloadConfig),
    ...createUsageHandlers(deps.usage, deps.keys, deps.ledgerRetentionDays),
    createResponse: createResponseHandler({
      registry: deps.registry,
      router: deps.router,
      store: deps.responses,
      retentionSeconds: deps.responseRetentionSeconds,
    }),
    ...createStoredResponseHandlers(deps.responses),
    createImage: createImageHandler(deps.images),
    createImageEdit: createImageEditHandler(deps.images),
    getImageFile: createGetImageFileHandler(deps.images.storage),
    createEmbedding: createEmbeddingHandler(deps),
    createMessage: createMessageHandler(deps),
    countMessageTokens: createCountTokensHandler(deps),
    // One handler per Gemini action serves it under both API versions and both ways of naming the model.
    ...geminiActionHandlers({
      generate: createGenerateContentHandler(deps),
      stream: createStreamGenerateContentHandler(deps),
      count: createGeminiCountTokensHandler(deps),
      embed: createEmbedContentHandler(deps),
      batchEmbed: createBatchEmbedContentsHandler(deps),
    }),
    listGeminiModels: createListGeminiModelsHandler(deps.registry),
    getGeminiModel: createGetGeminiModelHandler(deps.registry),
  };
}

function geminiActionHandlers({
  generate,
  stream,
  count,
  embed,
  batchEmbed,
}: {
  generate: ReturnType<typeof createGenerateContentHandler>;
  stream: ReturnType<typeof createStreamGenerateContentHandler>;
  count: ReturnType<typeof createGeminiCountTokensHandler>;
  embed: ReturnType<typeof createEmbedContentHandler>;
  batchEmbed: ReturnType<typeof createBatchEmbedContentsHandler>;
}) {
  return {
    generateContent: generate,
    generateContentV1: generate,
    generateContentByName: generate,
    generateContentByNameV1: generate,
    streamGenerateContent: stream,
    streamGenerateContentV1: stream,
    streamGenerateContentByName: stream,
    streamGenerateContentByNameV1: stream,
    countTokens: count,
    countTokensV1: count,
    countTokensByName: count,
    countTokensByNameV1: count,
    embedContent: embed,
    embedContentV1: embed,
    embedContentByName: embed,
    embedContentByNameV1: embed,
    batchEmbedContents: batchEmbed,
    batchEmbedContentsV1: batchEmbed,
    batchEmbedContentsByName: batchEmbed,
    batchEmbedContentsByNameV1: batchEmbed,
  };
}

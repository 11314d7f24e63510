import type { Express, RequestHandler } from 'express';
import { operationRoutes, type OperationHandlers } from '../generated/operations.js';
import type { ModelRegistry } from './core/model-registry.js';
import type { Router } from './core/router.js';
import type { KeyAuthenticator } from './keys/key-authenticator.js';
import { createKeyHandlers } from './protocols/admin/handle-keys.js';
import { notImplemented } from './protocols/not-implemented.js';
import { createChatCompletionHandler } from './protocols/openai-chat/handle-chat-completion.js';
import { createListModelsHandler, createRetrieveModelHandler } from './protocols/openai-models/handle-models.js';
import { createResponseHandler } from './protocols/openai-responses/handle-create-response.js';
import { createStoredResponseHandlers } from './protocols/openai-responses/handle-stored-responses.js';
import type { KeyStore } from './store/key-store.js';
import type { ResponseStore } from './store/response-store.js';

export interface HandlerDependencies {
  registry: ModelRegistry;
  router: Router;
  keys: KeyStore;
  responses: ResponseStore;
  /** Seconds a stored response lives (`responses.retention_days`). */
  responseRetentionSeconds: number;
  authenticator: KeyAuthenticator;
}

/**
 * Every operation of the contract, keyed by operationId. The type makes a spec operation without a
 * handler a compile error. Operations that later work will serve answer 501 in their protocol's shape.
 */
export function createHandlers(deps: HandlerDependencies): OperationHandlers {
  return {
    getHealth: (_req, res) => {
      res.json({ status: 'ok' });
    },
    createChatCompletion: createChatCompletionHandler(deps.registry, deps.router),
    listModels: createListModelsHandler(deps.registry),
    retrieveModel: createRetrieveModelHandler(deps.registry),
    ...createKeyHandlers(deps.keys, deps.authenticator),
    createResponse: createResponseHandler({
      registry: deps.registry,
      router: deps.router,
      store: deps.responses,
      retentionSeconds: deps.responseRetentionSeconds,
    }),
    ...createStoredResponseHandlers(deps.responses),
    createImage: notImplemented,
    createImageEdit: notImplemented,
    getImageFile: notImplemented,
    createMessage: notImplemented,
    countMessageTokens: notImplemented,
    generateContent: notImplemented,
    streamGenerateContent: notImplemented,
    countTokens: notImplemented,
    listGeminiModels: notImplemented,
    getGeminiModel: notImplemented,
  };
}

/** Mounts each handler on its spec path, explicitly, in spec order. */
export function registerRoutes(app: Express, handlers: OperationHandlers): void {
  for (const route of operationRoutes) {
    app[route.method](route.expressPath, handlers[route.operationId] as unknown as RequestHandler);
  }
}

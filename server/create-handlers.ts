import { operationRoutes, type OperationHandlers } from '../generated/operations.js';
import type { KeyAuthenticator } from './keys/key-authenticator.js';
import { createMyKeyHandlers } from './management/account/handle-my-keys.js';
import { createAccountHandlers } from './management/admin/handle-accounts.js';
import { createAllModelsHandlers } from './management/admin/handle-all-models.js';
import { createConfigReloadHandlers } from './management/admin/handle-config-reload.js';
import { createKeyHandlers } from './management/admin/handle-keys.js';
import { createBatchOverviewHandlers } from './management/batches/handle-batch-overview.js';
import { createFileHandlers } from './management/files/handle-files.js';
import { createBatchHandlers } from './management/batches/handle-batches.js';
import { createUsageHandlers } from './management/usage/handle-usage.js';
import { createListModelsHandler, createRetrieveModelHandler } from './protocols/openai-models/handle-models.js';
import type { ProtocolDependencies } from './protocols/protocol-definition.js';
import { modelListRenderers, protocolHandlers } from './protocols/registry.js';
import { createOpenApiSpecHandler } from './management/operations/handle-openapi-spec.js';
import { createReadinessHandler, type ReadinessProbes } from './management/operations/handle-readiness.js';
import type { AccountFiles } from './files/account-files.js';
import type { AccountStore } from './store/account-store.js';
import type { ConfigReloader } from './config/reload-config.js';
import type { KeyStore } from './store/key-store.js';
import type { UsageStore } from './usage/usage-store.js';

export interface HandlerDependencies extends ProtocolDependencies {
  keys: KeyStore;
  accounts: AccountStore;
  usage: UsageStore;
  /** OpenAI Files (`/v1/files`), kept per account (files/account-files.ts). */
  files: AccountFiles;
  /** `ledger.retention_days`: reports say since when rows are kept. */
  ledgerRetentionDays: number | undefined;
  authenticator: KeyAuthenticator;
  /** `GET /metrics` (observability/metrics/setup-metrics.ts). */
  serveMetrics: OperationHandlers['getMetrics'];
  readiness: ReadinessProbes;
  /** `POST /admin/v1/config/reload` (config/reload-config.ts). */
  reloadConfig: ConfigReloader;
}

/**
 * Every operation of the contract, keyed by operationId: the client protocols' own (protocols/registry.ts)
 * and the gateway's. A spec operation without a handler fails the type check (the protocols' handlers keep
 * their precise operationIds) and, should a cast below ever lie, start-up, naming it.
 */
export async function createHandlers(deps: HandlerDependencies): Promise<OperationHandlers> {
  const handlers: OperationHandlers = {
    getHealth: (_req, res) => {
      res.json({ status: 'ok' });
    },
    getReadiness: createReadinessHandler(deps.readiness),
    getOpenApiSpec: await createOpenApiSpecHandler(),
    getMetrics: deps.serveMetrics,
    listModels: createListModelsHandler(deps.registry, modelListRenderers),
    retrieveModel: createRetrieveModelHandler(deps.registry, modelListRenderers),
    ...createKeyHandlers(deps.keys, deps.accounts, deps.authenticator),
    ...createAccountHandlers(deps.accounts, deps.keys, deps.authenticator),
    ...createMyKeyHandlers(deps.keys, deps.authenticator),
    ...createAllModelsHandlers(deps.registry),
    ...createConfigReloadHandlers(deps.reloadConfig),
    ...createUsageHandlers(deps.usage, deps.keys, deps.ledgerRetentionDays),
    ...createFileHandlers(deps.files),
    ...createBatchOverviewHandlers(deps.batches.store, deps.images.publicBaseUrl),
    ...createBatchHandlers(deps.batches, deps.files),
    ...protocolHandlers(deps),
  };
  assertEveryOperationHandled(handlers);
  return handlers;
}

function assertEveryOperationHandled(handlers: Partial<OperationHandlers>): void {
  const missing = operationRoutes.filter((route) => !(route.operationId in handlers)).map((route) => route.operationId);
  if (missing.length > 0) throw new Error(`no handler for the spec's operations ${missing.join(', ')}`);
}

import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { operationRoutes, type OperationId, type OperationRoute } from '../generated/operations.js';
import type { GatewayConfig } from './config/config-schema.js';
import { createConfigReloader, type ConfigReloader } from './config/reload-config.js';
import type { Settings } from './config/settings.js';
import { mountBrowserPages } from './console/browser-pages.js';
import { ModelRegistry } from './core/model-registry.js';
import { startPeriodicCleanup } from './core/periodic-cleanup.js';
import { combineObservers } from './core/call-observer.js';
import { Router } from './core/router.js';
import { createAuthentication } from './http/authenticate.js';
import { createCors } from './http/cors.js';
import { createErrorHandler } from './http/error-handler.js';
import { createFrontDoor, refuseUnmatched } from './http/front-door/create-front-door.js';
import { OperationTable } from './http/front-door/operation-table.js';
import { createUpgradeDoor } from './http/front-door/upgrade-door.js';
import { createResponsesSockets } from './http/websocket/responses-sockets.js';
import { createGatewayServer } from './http/gateway-server.js';
import { createFileUpload } from './http/file-upload.js';
import { createImageUpload } from './http/image-upload.js';
import { InFlightRequests } from './http/in-flight-requests.js';
import { createJsonBodyReader, requireUtf8 } from './http/json-body.js';
import { createLineSender } from './http/batch-lines/send-line-in-process.js';
import { InProcessCallers } from './http/in-process-callers.js';
import { BatchRunner } from './batches/batch-runner.js';
import { BatchFinishes } from './batches/batch-finishes.js';
import { OpenAIBatchFinisher } from './batches/finish-openai-batches.js';
import { openBatchStore } from './batches/open-batch-store.js';
import { UpstreamBatchPoller } from './batches/upstream/upstream-batch-poller.js';
import { forwardingPlanner } from './batches/upstream/plan-forwarding.js';
import { refuseFragmentInTarget } from './http/request-target.js';
import { useLeanJsonResponses } from './http/json-response.js';
import { openApiValidator } from './http/openapi-validator.js';
import { assignRequestId } from './http/request-id.js';
import { createRequestLogger } from './http/request-logger.js';
import { startTracing } from './observability/tracing/start-tracing.js';
import { traceCalls } from './observability/tracing/trace-calls.js';
import { logFailedAttempts } from './logging/log-failed-attempts.js';
import { chooseImageStorage } from './image-files/choose-image-storage.js';
import { AccountFiles } from './files/account-files.js';
import { chooseFileStorage } from './files/choose-file-storage.js';
import type { LimitStore } from './limits/limit-store.js';
import { MemoryLimitStore } from './limits/memory-limit-store.js';
import { RedisLimitStore } from './limits/redis-limit-store.js';
import { createMetering } from './usage/metering/create-metering.js';
import { oneSpellingPerField } from './http/one-spelling-per-field.js';
import { readSessionKey } from './http/read-session-key.js';
import { observeRequests } from './observability/metrics/observe-requests.js';
import { setUpMetrics } from './observability/metrics/setup-metrics.js';
import { KeyAuthenticator } from './keys/key-authenticator.js';
import { errorBodyRenderers, protocolOfOperation } from './protocols/registry.js';
import { createHandlers } from './create-handlers.js';
import { sqliteFileOf, type GatewayDb } from './store/database.js';
import { AccountStore } from './store/account-store.js';
import { KeyStore } from './store/key-store.js';
import { openLedgerReads } from './store/open-ledger-reads.js';
import { ConversationStore } from './store/conversation-store.js';
import { FileStore } from './store/file-store.js';
import { ResponseStore } from './store/response-store.js';
import { sharedSecret } from './store/shared-secret.js';
import { CompactionSeal } from './protocols/openai-responses/compaction-seal.js';
import { startLedgerRetention } from './usage/ledger-retention.js';
import { SqliteLedgerWriter } from './usage/sqlite-ledger-writer.js';
import { SyncLedger } from './usage/sync-ledger.js';
import { UsageRecorder } from './usage/usage-recorder.js';
import { UsageStore } from './usage/usage-store.js';

export interface AppDependencies {
  config: GatewayConfig;
  settings: Pick<Settings, 'configPath' | 'adminKey' | 'compactionKey' | 'maxBodyBytes' | 'maxUploadFileBytes' | 'nodeEnv' | 'dataDir' | 'redisUrl'>;
  db: GatewayDb;
  logger: Logger;
}

/**
 * Builds the gateway without listening, so tests and main.ts share it. Every request passes the front
 * door (http/front-door/), which matches it once against the spec's operations; the order of what runs
 * then is deliberate: request ID and logging first (every response has an ID), then, for an operation,
 * auth before any body is parsed, the usage row (recorded when the response ends, however it ends) before
 * the body is read, limits reserved (and a cap granted) once the JSON body is read but before any upload
 * is, then the contract validator and the operation's handler; anything else goes to Express, which serves
 * the console's and the docs' static pages (they need no key) and 404s the rest. One error handler renders
 * every error in the request's family's shape. Shutdown finds the requests still running through
 * `inFlight`, which watches the server's connections.
 */
export async function createApp({ config, settings, db, logger }: AppDependencies): Promise<GatewayApp> {
  const registry = new ModelRegistry(config);
  const { metrics, serveMetrics, listen: listenForMetrics } = setUpMetrics(config.metrics, registry, logger);
  const keys = new KeyStore(db);
  const accounts = new AccountStore(db);
  const authenticator = new KeyAuthenticator(keys, accounts);
  // Reports and exports run apart from model traffic: a thread on SQLite, a pool of their own on PostgreSQL.
  const ledgerReads = await openLedgerReads(db);
  const usage = new UsageStore(db, ledgerReads);
  const sqliteFile = sqliteFileOf(db);
  // On SQLite the ledger is written from its own thread: better-sqlite3 would block the event loop.
  const ledger = sqliteFile ? new SqliteLedgerWriter(sqliteFile) : usage;
  const recorder = new UsageRecorder({ store: ledger, logger });
  metrics?.watchLedger(recorder);
  const syncLedger =
    config.ledger.durability === 'sync' ? new SyncLedger({ store: ledger, fallback: recorder, timeoutMs: config.ledger.sync_timeout_ms, logger }) : undefined;
  const redisLimits = settings.redisUrl ? new RedisLimitStore(settings.redisUrl, { logger }) : undefined;
  const limits: LimitStore = redisLimits ?? new MemoryLimitStore();
  let draining = false;
  const inFlight = new InFlightRequests();
  const metering = createMetering({
    registry,
    limits,
    recorder,
    syncLedger,
    logger,
    defaultOutputTokens: config.limits.default_output_tokens,
    metrics,
    drainBound: { seconds: config.ledger.abandoned_streams.drain_seconds, bytes: config.ledger.abandoned_streams.drain_bytes },
    keepInFlight: (res, until) => inFlight.keepUntil(res, until),
  });
  // Every routed call's attempts and answer are watched by these, in this order (core/call-observer.ts);
  // tracing's do nothing outside a traced request, metering's nothing outside a metered one.
  const observer = combineObservers([...(metrics ? [metrics.observeCalls] : []), logFailedAttempts(logger), traceCalls, metering.observer]);
  const router = new Router(registry, { settings: config.routing, observer });
  const reloadConfig = createConfigReloader({ path: settings.configPath, config, registry, inFlight, logger });
  const validateResponses = settings.nodeEnv === 'test' || settings.nodeEnv === 'development';

  const app = express();
  app.disable('x-powered-by');
  // API responses are not cacheable; hashing every body for an ETag is wasted work on the hot path.
  app.set('etag', false);
  app.set('query parser', 'simple');
  useLeanJsonResponses(app);
  const allowCrossOrigin = createCors(config.cors);
  const tracing = startTracing(config.telemetry);
  const identify = [
    ...(metrics ? [observeRequests(metrics)] : []),
    assignRequestId,
    createRequestLogger(logger),
    ...(tracing ? [tracing.traceRequests] : []),
    refuseFragmentInTarget,
    ...(allowCrossOrigin ? [allowCrossOrigin] : []),
  ];
  // Batch lines are requests the gateway sends itself, through its own front door, as the key that made the batch.
  const inProcessCallers = new InProcessCallers();
  const authenticate = createAuthentication({ keys: authenticator, adminKey: settings.adminKey, inProcess: inProcessCallers });
  let listening: Server | undefined;
  // On SQLite, in a thread of its own: a batch's store work must not slow model traffic (open-batch-store.ts).
  const batches = await openBatchStore(db);
  const batchStore = batches.store;
  // On SQLite the database storage reads its chunks on the ledger's reader thread, off the event loop.
  const fileStorage = chooseFileStorage({ setting: config.files.storage, db, reads: ledgerReads.db, directory: join(settings.dataDir, 'files') });
  const files = new AccountFiles(new FileStore(db), fileStorage, { maxLineBytes: settings.maxBodyBytes });
  const batchInstanceId = `inst_${randomUUID()}`;
  const openAIFinisher = new OpenAIBatchFinisher({ store: batchStore, finishes: new BatchFinishes(db), files, instanceId: batchInstanceId, leaseMs: config.batches.lease_seconds * 1000, logger });
  // Lines of models with `batch: upstream` go to the upstream's own batch API, tended from the runner's rounds.
  const upstreamPoller = new UpstreamBatchPoller({
    batches: batchStore,
    upstream: batches.upstream,
    registry,
    logger,
    instanceId: batchInstanceId,
    leaseMs: config.batches.lease_seconds * 1000,
    pollIntervalMs: config.batches.upstream_poll_interval_ms,
    wake: () => batchRunner.wake(),
    scratchDirectory: join(settings.dataDir, 'upstream-batches'),
  });
  const batchRunner: BatchRunner = new BatchRunner({
    instanceId: batchInstanceId,
    finishEnded: (now) => openAIFinisher.finishWaiting(now),
    tendUpstream: (now) => upstreamPoller.tend(now),
    store: batchStore,
    executor: createLineSender({ server: () => listening, callers: inProcessCallers, keyHashOf: (keyId) => keys.secretHashOf(keyId), renderError: errorBodyRenderers }),
    logger,
    linesInFlight: config.batches.lines_in_flight,
    pollIntervalMs: config.batches.poll_interval_ms,
    leaseMs: config.batches.lease_seconds * 1000,
    maxAttempts: config.batches.max_attempts,
  });
  const readJsonBody = createJsonBodyReader({
    limit: settings.maxBodyBytes,
    general: express.json({ limit: settings.maxBodyBytes, type: ['application/json', 'application/*+json'], verify: requireUtf8 }),
  });
  // Each multipart operation has its own reader: its fields, limits and where the files go.
  const uploads: Partial<Record<OperationId, RequestHandler>> = {
    createImageEdit: createImageUpload(join(settings.dataDir, 'uploads'), { fileBytes: settings.maxUploadFileBytes }),
    createFile: createFileUpload(files.contentStorage, { maxBytes: config.files.max_bytes, maxLineBytes: settings.maxBodyBytes }),
  };
  const uploadReader = (route: OperationRoute): RequestHandler => {
    const reader = uploads[route.operationId];
    if (!reader) throw new Error(`no multipart reader for the operation '${route.operationId}' (app.ts)`);
    return reader;
  };
  const validate = await openApiValidator({ validateResponses });
  const stepsFor = (route: OperationRoute) => [
    ...(route.security === 'public' ? [] : [authenticate]),
    // Before the body is read, so that a body refused (400, 413, 415) leaves its ledger row too.
    ...(route.metering ? [metering.recordUsage] : []),
    readJsonBody,
    ...(route.metering ? [oneSpellingPerField, metering.middleware] : []),
    ...(route.body === 'multipart' ? [uploadReader(route)] : []),
    validate,
    // Generations only: a session keeps its prompt cache warm; embeddings and token counts have none to keep.
    ...(route.metering?.kind === 'generation' ? [readSessionKey] : []),
    ...(tracing ? [tracing.continueTrace] : []),
  ];
  // The console and the docs are static pages anyone may load (the console asks for a key).
  await mountBrowserPages(app);
  const responses = new ResponseStore(db);
  const imageStorage = chooseImageStorage({ setting: config.images.storage, db, reads: ledgerReads.db, directory: join(settings.dataDir, 'images') });
  const cleanups = [
    startPeriodicCleanup('stored responses', () => responses.purgeExpired(), config.responses.purge_interval_minutes * 60_000, logger),
    startPeriodicCleanup('image files', () => imageStorage.deleteExpired(), config.images.sweep_interval_seconds * 1000, logger),
    startPeriodicCleanup('files', () => files.deleteExpired(), config.files.sweep_interval_seconds * 1000, logger),
    // What an instance stopped mid-upload left in the file storage (no write can clean up after a crash).
    startPeriodicCleanup('files, uploads cut short', () => files.removeLeftovers(), config.files.sweep_interval_seconds * 1000, logger),
    ...(config.ledger.retention_days === undefined ? [] : [startLedgerRetention(ledger, config.ledger.retention_days, logger)]),
  ];
  // OpenAI's WebSocket mode of the Responses API: `GET /v1/responses` with `Upgrade: websocket`, each turn a
  // request through the front door (http/websocket/); its warm-ups are told apart by the create handler.
  const responsesSockets = createResponsesSockets({
    renderError: errorBodyRenderers.openai,
    logger,
    maxAgeMs: config.responses.websocket_max_connection_minutes * 60_000,
    maxPayload: settings.maxBodyBytes,
    ...(metrics && { openSockets: metrics }),
  });
  const handlers = await createHandlers({
    registry,
    router,
    keys,
    accounts,
    usage,
    files,
    ledgerRetentionDays: config.ledger.retention_days,
    responses,
    conversations: new ConversationStore(db),
    responseRetentionSeconds: Math.round(config.responses.retention_days * 86_400),
    isResponsesWarmUp: (req) => responsesSockets.isWarmUp(req),
    // Without a configured key, the seal's secret is the store's, so every instance sharing it opens the others' items.
    compactionSeal: new CompactionSeal(settings.compactionKey ?? (await sharedSecret(db, 'compaction'))),
    authenticator,
    images: { registry, router, storage: imageStorage, urlTtlMs: config.images.url_ttl_seconds * 1000, publicBaseUrl: config.public_base_url },
    serveMetrics,
    readiness: {
      store: () => sql`select 1`.execute(db),
      redis: redisLimits && (() => redisLimits.reachable()),
      draining: () => draining,
    },
    reloadConfig,
    batches: {
      store: batchStore,
      wake: () => batchRunner.wake(),
      maxRequests: config.batches.max_requests,
      expiresAfterMs: config.batches.expires_after_hours * 3_600_000,
      openAIFinisher,
      forwardingPlanner: (protocol, access) => forwardingPlanner(protocol, access, registry),
      forwardCancel: (batchId) => batches.upstream.dueNow(batchId, Date.now()),
    },
  });
  const table = new OperationTable(operationRoutes);
  app.use(refuseUnmatched(table));
  const errorHandler = createErrorHandler(logger, errorBodyRenderers);
  app.use(errorHandler);
  let metricsServer: Server | undefined;
  const dispatch = createFrontDoor({ table, pages: app, identify, stepsFor, handlers, errorHandler, protocolOf: protocolOfOperation });
  const upgrade = createUpgradeDoor({
    app,
    table,
    protocolOf: protocolOfOperation,
    dispatch,
    upgradable: (route) => route.operationId === 'createResponse',
    steps: [...identify, authenticate],
    errorHandler,
    accept: (req, socket, head) => responsesSockets.accept(req, socket, head),
  });
  return Object.assign(app, {
    // Express's own listen would serve every request through its router, not the front door.
    listen: (port: number, host: string) => {
      const server = createGatewayServer(app, dispatch);
      inFlight.watch(server);
      responsesSockets.serveThrough(server);
      server.on('upgrade', (req, socket, head) => upgrade(server, req, socket, head));
      metricsServer = listenForMetrics();
      listening = server;
      // Lines run through this server's front door, so the runner starts with it.
      if (config.batches.enabled) server.once('listening', () => batchRunner.start());
      return server.listen(port, host);
    },
    inFlight,
    reloadConfig,
    startDraining: () => {
      draining = true;
      // No line is claimed from now on; the lines running are requests in flight, which the drain waits for.
      void batchRunner.stop();
      void upstreamPoller.stop();
      // Each WebSocket finishes its turn and closes with 1001 (its handshake's response counts as in flight until then).
      responsesSockets.drain();
    },
    shutdown: async () => {
      for (const cleanup of cleanups) clearInterval(cleanup);
      metricsServer?.close();
      // The lines that ran are over (the drain waited for them): record their outcomes before the store closes.
      await batchRunner.stop();
      await upstreamPoller.stop();
      await batches.close();
      // Requests are over (the server has drained): settle their limits, then write every usage row.
      await metering.idle();
      await syncLedger?.idle();
      await recorder.close();
      if (ledger instanceof SqliteLedgerWriter) await ledger.close();
      await ledgerReads.close();
      await limits.close();
      await registry.close();
      await tracing?.shutdown();
    },
  });
}

/** The Express app plus what must be released on shutdown. */
export type GatewayApp = Omit<Express, 'listen'> & {
  /** Serves the gateway, through its front door, on a new HTTP server. */
  listen(port: number, host: string): Server;
  /** The requests being served, for shutdown to end and wait for. */
  inFlight: InFlightRequests;
  /** Reloads the config file's models and providers (SIGHUP, `POST /admin/v1/config/reload`). */
  reloadConfig: ConfigReloader;
  /** From SIGTERM on, `/readyz` answers 503, so that balancers stop sending requests while it drains. */
  startDraining(): void;
  /** Stops background work and closes pooled upstream connections. */
  shutdown(): Promise<void>;
};

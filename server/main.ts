import cluster from 'node:cluster';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { runWorkers } from './cluster/run-workers.js';
import type { GatewayConfig } from './config/config-schema.js';
import { loadConfig } from './config/load-config.js';
import { readSettings, type Settings } from './config/settings.js';
import { warmTokenizer } from './core/token-counter.js';
import { drainServer } from './http/drain-server.js';
import { createLogger } from './logging/logger.js';
import { setUpPrimaryMetrics } from './observability/metrics/setup-metrics.js';
import { openDatabase, type GatewayDb } from './store/database.js';
import { migrateToLatest } from './store/migrations.js';

/**
 * Start-up: settings, config, store, app, listen; SIGHUP reloads the config file; SIGTERM/SIGINT drain
 * in-flight requests and exit 0.
 * With `WORKERS=N` (N > 1) this process migrates the store once, then forks N workers that serve the port.
 */
async function main(): Promise<void> {
  const settings = readSettings();
  const logger = createLogger(settings.logLevel);
  const config = await loadConfig(settings.configPath);
  const db = await openDatabase({ ...settings, logger });
  // Workers find the store migrated by their primary, so they never race to migrate it.
  if (cluster.isPrimary) await migrateToLatest(db);
  if (settings.workers > 1 && cluster.isPrimary) {
    await db.destroy();
    if (!settings.redisUrl) logger.warn({ workers: settings.workers }, 'limits are counted per worker without Redis: set GATEWAY_REDIS_URL to share them');
    setUpPrimaryMetrics(config.metrics, logger);
    return runWorkers(settings.workers, logger);
  }
  return serve(settings, config, db, logger);
}

async function serve(settings: Settings, config: GatewayConfig, db: GatewayDb, logger: Logger): Promise<void> {
  if (config.providers.some((provider) => provider.type === 'builtin')) warmTokenizer();
  const app = await createApp({ config, settings, db, logger });

  const server = app.listen(settings.port, settings.host);
  await once(server, 'listening');
  server.requestTimeout = settings.requestReceiveTimeoutMs;
  const { address, port } = server.address() as AddressInfo;
  logger.info(
    { host: address, port, models: config.models.map((model) => model.id), store: settings.databaseUrl ? 'postgres' : 'sqlite' },
    'gateway listening',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainTimeoutMs: settings.drainTimeoutMs }, 'shutting down: draining in-flight requests');
    app.startDraining();
    await drainServer(server, app.inFlight, settings.drainTimeoutMs, logger);
    await app.shutdown();
    await db.destroy();
    logger.info('shutdown complete');
    logger.flush();
    process.exit(0);
  };
  // SIGHUP reloads the config file; an invalid one is logged (naming its line) and the running config stays.
  process.on('SIGHUP', () => {
    app.reloadConfig().catch((error: unknown) => logger.error({ error: error instanceof Error ? error.message : String(error) }, 'config reload refused'));
  });
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { OperationHandler } from '../../../generated/operations.js';
import type { GatewayConfig } from '../../config/config-schema.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { GatewayError } from '../../core/gateway-error.js';
import { primaryMetricsSource, workerMetricsSource } from './cluster-metrics.js';
import { GatewayMetrics } from './gateway-metrics.js';
import { startMetricsServer } from './metrics-server.js';
import { registrySource } from './metrics-source.js';

/** The metrics of one gateway process, as the app wires them. */
export interface AppMetrics {
  /** Undefined when metrics are off: then no step records anything. */
  metrics?: GatewayMetrics;
  /** `GET /metrics` on the gateway's port: the text, or 404 when metrics are off or have their own port. */
  serveMetrics: OperationHandler<'getMetrics'>;
  /** Starts the `metrics.port` server where this process serves it (not in a worker: the primary does). */
  listen(): Server | undefined;
}

export function setUpMetrics(config: GatewayConfig['metrics'], models: ModelRegistry, logger: Logger): AppMetrics {
  const notHere = (): never => {
    const where = config.enabled ? `served on 127.0.0.1:${config.port}` : 'off (metrics.enabled in the config)';
    throw new GatewayError('not_found', `No metrics on this port: they are ${where}.`);
  };
  if (!config.enabled) return { serveMetrics: notHere, listen: () => undefined };
  const metrics = new GatewayMetrics(models);
  // In a worker of WORKERS=N, a scrape answers for every worker: the primary aggregates them.
  const source = cluster.isWorker ? workerMetricsSource(metrics.registry) : registrySource(metrics.registry);
  const { port } = config;
  if (port !== undefined) return { metrics, serveMetrics: notHere, listen: () => (cluster.isWorker ? undefined : startMetricsServer(port, source, logger)) };
  return {
    metrics,
    serveMetrics: async (_req, res) => {
      const text = await source.text();
      res.type(source.contentType).send(text);
    },
    listen: () => undefined,
  };
}

/**
 * The primary of `WORKERS=N` with metrics on: it aggregates the workers' metrics for every scrape, and
 * serves `metrics.port` itself (its workers serve only the gateway's port).
 */
export function setUpPrimaryMetrics(config: GatewayConfig['metrics'], logger: Logger): void {
  if (!config.enabled) return;
  const source = primaryMetricsSource();
  if (config.port !== undefined) startMetricsServer(config.port, source, logger);
}

import type { Logger } from 'pino';
import type { components } from '../../generated/api.js';
import type { GatewayConfig } from './config-schema.js';
import { loadConfig } from './load-config.js';

type ConfigReload = components['schemas']['ConfigReload'];

/**
 * The sections a reload swaps in: they live in the model registry (the price catalogs only fill in the
 * models' prices). Every other one needs a restart.
 */
const liveSections = new Set<keyof GatewayConfig>(['models', 'providers', 'pricing_catalogs']);

export interface ConfigReloaderOptions {
  /** The file start-up read (undefined: `./gateway.yaml` if present, as at start-up). */
  path: string | undefined;
  config: GatewayConfig;
  /**
   * The model registry (core/model-registry.ts): builds the models and providers of a config, swaps them
   * in, and returns the providers replaced. Only what the reload uses, so that config, at the bottom of
   * the sides, imports no layer (.dependency-cruiser.cjs).
   */
  registry: { replace(config: GatewayConfig): Array<{ close?(): Promise<void> }> };
  /** The server's running requests (http/in-flight-requests.ts), for when the replaced providers may close; likewise only what the reload uses. */
  inFlight: { runningNowClosed(): Promise<unknown> };
  logger: Logger;
}

/**
 * Reloads the config file for SIGHUP and `POST /admin/v1/config/reload`. The file is validated before
 * anything changes (an invalid one throws its ConfigError, naming the line, and the running config
 * stays); the registry then swaps models and providers at once, between requests. The replaced
 * providers' upstream clients are closed once the requests running at the swap have ended. Sections
 * that need a restart (port, store, metrics, telemetry, …) are reported and left as they were.
 */
export type ConfigReloader = () => Promise<ConfigReload>;

export function createConfigReloader({ path, config, registry, inFlight, logger }: ConfigReloaderOptions): ConfigReloader {
  let running = config;
  let previous: Promise<unknown> = Promise.resolve();
  const reload = async (): Promise<ConfigReload> => {
    const next = await loadConfig(path);
    const needsRestart = (Object.keys(next) as Array<keyof GatewayConfig>).filter(
      (section) => !liveSections.has(section) && JSON.stringify(next[section]) !== JSON.stringify(running[section]),
    );
    const replaced = registry.replace(next);
    const change: ConfigReload = {
      models: changedIds(running.models, next.models),
      providers: changedIds(running.providers, next.providers),
      needs_restart: needsRestart,
    };
    // What the registry now serves; the restart-only sections keep comparing against what still runs.
    running = { ...running, models: next.models, providers: next.providers };
    void inFlight
      .runningNowClosed()
      .then(() => Promise.all(replaced.map((provider) => provider.close?.())))
      .catch((error: unknown) => logger.warn({ error: String(error) }, 'closing replaced providers failed'));
    logger.info(change, 'config reloaded');
    return change;
  };
  // One at a time: two overlapping reloads (a SIGHUP during the admin call) must not both diff against one config.
  return () => {
    const next = previous.then(reload);
    previous = next.catch(() => undefined);
    return next;
  };
}

function changedIds(before: Array<{ id: string }>, after: Array<{ id: string }>): ConfigReload['models'] {
  const was = new Set(before.map(({ id }) => id));
  const is = new Set(after.map(({ id }) => id));
  return { added: [...is].filter((id) => !was.has(id)), removed: [...was].filter((id) => !is.has(id)) };
}

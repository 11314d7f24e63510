import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createApp } from '../../server/app.js';
import type { GatewayConfig } from '../../server/config/config-schema.js';
import { defaultConfig } from '../../server/config/default-config.js';
import { createLogger } from '../../server/logging/logger.js';
import { KeyStore } from '../../server/store/key-store.js';
import { openDatabase } from '../../server/store/database.js';
import { migrateToLatest } from '../../server/store/migrations.js';
import { holdsSecret, recordResponses, showedLater } from './exposure.js';
import { watchOpenAiAnswers } from './openai-spec/watch-openai-answers.js';

export interface TestGateway {
  /** `http://127.0.0.1:<port>` (no `/v1`). */
  origin: string;
  adminKey: string;
  /** A fresh API key created through the store. */
  apiKey: string;
  /** Every log line the gateway wrote, for tests that check what is (not) logged. */
  logs: string[];
  /** The gateway's `GATEWAY_DATA_DIR`: image files under `images/`, uploads in flight under `uploads/`. */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A real gateway on 127.0.0.1 with a random port, its own SQLite file and captured logs, in test mode
 * (so every JSON response is validated against the contract), and every answer on an OpenAI operation
 * checked against OpenAI's published spec too (openai-spec/watch-openai-answers.ts: a test fails on what breaks it).
 */
export async function startGateway(
  options: {
    config?: GatewayConfig;
    databaseUrl?: string;
    redisUrl?: string;
    maxUploadFileBytes?: number;
    /** False: no GATEWAY_ADMIN_KEY, so the admin API is off (`adminKey` is then a key nobody configured). */
    adminApi?: boolean;
    /** A data directory (so its SQLite file) shared with other gateways; the caller removes it. */
    dataDir?: string;
    /** GATEWAY_COMPACTION_KEY. */
    compactionKey?: string;
  } = {},
): Promise<TestGateway> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'gateway-test-')));
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const adminKey = `admin-${Math.random().toString(36).slice(2)}`;
  const db = await openDatabase({ dataDir, databaseUrl: options.databaseUrl });
  await migrateToLatest(db);
  const { secret } = await new KeyStore(db).create({ name: 'test' });
  const app = await createApp({
    config: options.config ?? testConfig,
    settings: { adminKey: options.adminApi === false ? undefined : adminKey, maxBodyBytes: 1024 * 1024, maxUploadFileBytes: options.maxUploadFileBytes ?? 4 * 1024 * 1024, nodeEnv: 'test', dataDir, redisUrl: options.redisUrl, compactionKey: options.compactionKey },
    db,
    logger: createLogger('info', sink),
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const config = options.config ?? testConfig;
  holdsSecret(adminKey, secret, ...config.providers.flatMap((provider) => [provider.api_key, provider.aws_secret_access_key, ...Object.values(provider.headers ?? {})]));
  recordResponses(server, 'gateway');
  watchOpenAiAnswers(server);
  showedLater('gateway logs', () => logs.join('\n'));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    adminKey,
    apiKey: secret,
    logs,
    dataDir,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.shutdown();
      await db.destroy();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The default built-in model without chunk delays, so tests run fast. */
export const testConfig: GatewayConfig = {
  ...defaultConfig,
  providers: defaultConfig.providers.map((provider) => ({ ...provider, chunk_delay_ms: 0 })),
};

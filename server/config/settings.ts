import { resolve } from 'node:path';
import { readSecret } from './read-secret.js';

/**
 * Process-level settings from the environment, read once at start-up. Every limit has a number here.
 * The secret ones may come from files instead (`GATEWAY_ADMIN_KEY_FILE`, …: config/read-secret.ts).
 */
export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  configPath?: string;
  adminKey?: string;
  /** The secret `compaction` items are sealed under; else one made once in the shared store (store/shared-secret.ts). */
  compactionKey?: string;
  /** PostgreSQL connection string; without it the gateway uses SQLite under `dataDir`. */
  databaseUrl?: string;
  /** How long PostgreSQL may take to give a connection (a new one, or a free one of the pool) before the query fails. */
  databaseConnectTimeoutMs: number;
  /** How long a PostgreSQL query may go unanswered before its connection is dropped as dead (a vanished server). */
  databaseQueryTimeoutMs: number;
  /** Redis for limit counters shared by several instances; without it they are kept in this process. */
  redisUrl?: string;
  nodeEnv: string;
  logLevel: string;
  /** Processes serving the port (Node cluster); 1 serves from this process alone. */
  workers: number;
  /** How long SIGTERM waits for in-flight requests before ending those still running (http/drain-server.ts). */
  drainTimeoutMs: number;
  /** Largest accepted JSON request body. */
  maxBodyBytes: number;
  /** Largest accepted file in a multipart upload (image edits). */
  maxUploadFileBytes: number;
  /** How long a client may take to send a whole request (headers and body); Node's `server.requestTimeout`. */
  requestReceiveTimeoutMs: number;
}

/** Also what a store opened without settings (tests, tools) gets. */
export const databaseTimeoutDefaults = { databaseConnectTimeoutMs: 5_000, databaseQueryTimeoutMs: 30_000 };

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return {
    port: readInteger(env, 'PORT', 8080),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.GATEWAY_DATA_DIR || './data'),
    configPath: env.GATEWAY_CONFIG || undefined,
    adminKey: readSecret(env, 'GATEWAY_ADMIN_KEY') || undefined,
    compactionKey: readSecret(env, 'GATEWAY_COMPACTION_KEY') || undefined,
    databaseUrl: readSecret(env, 'GATEWAY_DATABASE_URL') || readSecret(env, 'DATABASE_URL') || undefined,
    databaseConnectTimeoutMs: readInteger(env, 'GATEWAY_DATABASE_CONNECT_TIMEOUT_MS', databaseTimeoutDefaults.databaseConnectTimeoutMs),
    databaseQueryTimeoutMs: readInteger(env, 'GATEWAY_DATABASE_QUERY_TIMEOUT_MS', databaseTimeoutDefaults.databaseQueryTimeoutMs),
    redisUrl: readSecret(env, 'GATEWAY_REDIS_URL') || readSecret(env, 'REDIS_URL') || undefined,
    nodeEnv: env.NODE_ENV || 'production',
    logLevel: env.LOG_LEVEL || 'info',
    workers: readInteger(env, 'WORKERS', 1),
    drainTimeoutMs: readInteger(env, 'GATEWAY_DRAIN_TIMEOUT_MS', 10_000),
    maxBodyBytes: readInteger(env, 'GATEWAY_MAX_BODY_BYTES', 32 * 1024 * 1024),
    maxUploadFileBytes: readInteger(env, 'GATEWAY_MAX_UPLOAD_FILE_BYTES', 50 * 1024 * 1024),
    requestReceiveTimeoutMs: readInteger(env, 'GATEWAY_REQUEST_RECEIVE_TIMEOUT_MS', 60_000),
  };
}

function readInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${text}'`);
  return value;
}

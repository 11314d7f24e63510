import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type Generated } from 'kysely';
import type { Logger } from 'pino';
import type { Limits, Permissions } from '../access/access-types.js';
import { databaseTimeoutDefaults, type Settings } from '../config/settings.js';
import { loadSqlite } from './load-sqlite.mjs';
import { createPostgresPool, type PostgresPoolOptions } from './postgres-pool.js';

/** Tables as Kysely sees them. Timestamps are Unix seconds, as the OpenAI-style API reports them. */
export interface Database {
  api_keys: {
    id: string;
    name: string;
    /** SHA-256 of the secret, hex. Keys are 256 random bits, so a fast hash is enough (no brute force). */
    secret_hash: string;
    prefix: string;
    created_at: number;
    revoked_at: number | null;
    account_id: Generated<string>;
    /** JSON {@link Permissions}: narrows the account's; `{}` narrows nothing. */
    permissions: Generated<string>;
    /** JSON {@link Limits} of the key itself, on top of the account's. */
    limits: Generated<string>;
    /** The key whose key-level counters this one shares (a key made by another key); null for its own. */
    shares_limits_with: string | null;
    /** The key that minted this one (POST /v1/keys); null for a root (made by the admin or the CLI). */
    parent_key_id: string | null;
  };
  /** Accounts own keys; their permissions and limits bound every key's. */
  accounts: {
    id: string;
    name: string;
    created_at: number;
    /** A disabled account's keys get 403. */
    disabled_at: number | null;
    permissions: string;
    limits: string;
  };
  /**
   * One row per model request (and image request), streamed or not. Token meanings are OpenAI's:
   * `input_tokens` includes the cached ones, `output_tokens` the reasoning ones. `created_at` is Unix
   * milliseconds, `cost_usd` from the config's prices.
   */
  usage_records: {
    id: string;
    created_at: number;
    request_id: string;
    account_id: string;
    key_id: string;
    model: string | null;
    deployment: string | null;
    protocol: string;
    endpoint: string;
    status: number;
    input_tokens: number;
    cached_input_tokens: number;
    output_tokens: number;
    reasoning_tokens: number;
    /** Prompt tokens written to the provider's cache (part of `input_tokens`), priced apart from input. */
    cache_write_input_tokens: number;
    /** Of those, the ones written to the 1-hour cache (the rest went to the 5-minute one). */
    cache_write_1h_input_tokens: number;
    image_count: number;
    latency_ms: number;
    cost_usd: number;
    /** The `above_input_tokens` of the prompt-size (long-context) tier whose prices applied; 0 for the model's own prices. */
    price_tier_above_tokens: number;
    /** The service tier priced: the one the upstream reported, else the one requested; null when neither named one. */
    service_tier: string | null;
    /** 1 when the upstream reported the request as batch-processed (priced at the batch multiplier). */
    batch: number;
    /**
     * 1 when the token counts are the gateway's estimate: an upstream stream that reported none, or the
     * output delivered to a client that left mid-stream, counted from what was sent.
     */
    estimated: number;
    /** 0 when the client left before its answer was complete (`status` is then 499), else 1. */
    completed: number;
  };
  /**
   * The ledger's sums per UTC hour, account, key, model and status class (`status / 100`), kept in the
   * transaction that inserts the rows they count, so reports need not read the rows. `hour` is hours since
   * the epoch; `model` is '' where the rows have none; `estimated` counts rows marked estimated.
   */
  usage_rollups: {
    hour: number;
    account_id: string;
    key_id: string;
    model: string;
    status_class: number;
    requests: number;
    input_tokens: number;
    cached_input_tokens: number;
    output_tokens: number;
    reasoning_tokens: number;
    cache_write_input_tokens: number;
    cache_write_1h_input_tokens: number;
    image_count: number;
    cost_usd: number;
    estimated: number;
  };
  /** Stored Responses API answers (`store: true`), for `previous_response_id` and the retrieve routes. */
  responses: {
    id: string;
    /** The account whose key made it; every key of the account can read and build on it. */
    owner_id: string;
    previous_response_id: string | null;
    created_at: number;
    /** After this the response is gone: reads ignore it and the purge deletes it. */
    expires_at: number;
    /** JSON: this request's own input items, each with an `id`. */
    input_items: string;
    /** JSON: the whole response object as it was returned. */
    response: string;
    /**
     * The provider that also stores this response (an `api: responses` upstream asked with `store`) and
     * its ID there, so the next turn there can send `previous_response_id` instead of the conversation.
     */
    upstream_provider_id: string | null;
    upstream_response_id: string | null;
  };
  /** Which stored response holds each item ID, so `item_reference` can name any of the owner's items. */
  response_items: {
    owner_id: string;
    item_id: string;
    response_id: string;
  };
}

export type GatewayDb = Kysely<Database>;

export interface OpenDatabaseOptions extends Partial<Pick<Settings, 'databaseConnectTimeoutMs' | 'databaseQueryTimeoutMs'>> {
  dataDir: string;
  databaseUrl?: string;
  /** Hears about PostgreSQL connections lost while idle (the server restarted or dropped them). */
  logger?: Logger;
}

/**
 * Opens the store: PostgreSQL when `databaseUrl` is given (many gateway instances share it), otherwise an
 * embedded SQLite file under `dataDir` so a fresh machine needs nothing installed.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<GatewayDb> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  await mkdir(options.dataDir, { recursive: true });
  return openSqlite(join(options.dataDir, 'gateway.sqlite'));
}

/** The SQLite file each store opened by `openDatabase` works on (none for PostgreSQL). */
const sqliteFiles = new WeakMap<GatewayDb, string>();

/** The file of a store on SQLite, for code that opens its own connection to it (the usage ledger's thread). */
export function sqliteFileOf(db: GatewayDb): string | undefined {
  return sqliteFiles.get(db);
}

async function openSqlite(file: string): Promise<GatewayDb> {
  const SQLite = await loadSqlite();
  const sqlite = new SQLite(file);
  // WAL lets the key CLI write while a running server reads; busy_timeout waits instead of failing.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  sqliteFiles.set(db, file);
  return db;
}

/** How each store opened by `openDatabase` on PostgreSQL reached it (none for SQLite). */
const postgresPools = new WeakMap<GatewayDb, { connectionString: string; pool: PostgresPoolOptions }>();

/** The connection string and pool options of a store on PostgreSQL, for code that opens a pool of its own (the ledger's reads). */
export function postgresPoolOf(db: GatewayDb): { connectionString: string; pool: PostgresPoolOptions } | undefined {
  return postgresPools.get(db);
}

async function openPostgres(connectionString: string, options: OpenDatabaseOptions): Promise<GatewayDb> {
  const { default: pg } = await import('pg');
  const poolOptions: PostgresPoolOptions = {
    connectTimeoutMs: options.databaseConnectTimeoutMs ?? databaseTimeoutDefaults.databaseConnectTimeoutMs,
    queryTimeoutMs: options.databaseQueryTimeoutMs ?? databaseTimeoutDefaults.databaseQueryTimeoutMs,
    logger: options.logger,
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPostgresPool(pg, connectionString, poolOptions) }) });
  postgresPools.set(db, { connectionString, pool: poolOptions });
  return db;
}

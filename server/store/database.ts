import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Kysely, type Generated } from 'kysely';
import type { Logger } from 'pino';
import type { Limits, Permissions } from '../access/access-types.js';
import { databaseTimeoutDefaults, type Settings } from '../config/settings.js';
import { loadSqlite } from './load-sqlite.mjs';
import { CurrentSchemaPostgresDialect } from './current-schema-dialect.js';
import { createPostgresPool, type PostgresPoolOptions } from './postgres-pool.js';
import { GatedSqliteDialect, sqliteWriteGate } from './sqlite-write-gate.js';

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
    /** The batch whose line this request was (server/batches/); null for a request a client sent. */
    batch_id: string | null;
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
  /** OpenAI Conversations (`/v1/conversations`), owned by an account as stored responses are. */
  conversations: {
    id: string;
    owner_id: string;
    created_at: number;
    /** JSON: the conversation's string pairs. */
    metadata: Generated<string>;
    /** How many items were ever appended: the next item's `position`. */
    item_count: Generated<number>;
  };
  /** A conversation's items in order (`position`), each as the wire has it, with its `id`. */
  conversation_items: {
    conversation_id: string;
    position: number;
    item_id: string;
    /** JSON: the item. */
    item: string;
  };
  /** OpenAI Files (server/files/): metadata; the bytes are in the file storage under `id`. */
  files: {
    id: string;
    /** The account whose key uploaded it (or whose batch made it); every key of the account sees it. */
    owner_id: string;
    /** The key that uploaded it, for the record; null for a file the gateway wrote. */
    created_by_key_id: string | null;
    filename: string;
    purpose: string;
    bytes: number;
    /** Unix milliseconds (the API shows seconds): lists keep the order of files made within one second. */
    created_at_ms: number;
    /** Unix seconds; null for a file kept until deleted. */
    expires_at: number | null;
  };
  /**
   * The bytes kept in the store, in chunks numbered from 0: of OpenAI Files (`files.storage: database`,
   * `file_id` the file's `file-…` ID) and of images handed out as URLs (`images.storage: database`,
   * `file_id` the image's `img_…` name). A file's chunks are read only once its
   * {@link Database.file_contents} row says it is whole.
   */
  file_chunks: {
    file_id: string;
    sequence: number;
    data: Uint8Array;
    /** Unix ms; null for chunks written before it was kept (migration 0016). */
    written_at: number | null;
  };
  /** One row per file stored whole in {@link Database.file_chunks}: inserted after its last chunk. */
  file_contents: {
    file_id: string;
    bytes: number;
    chunks: number;
  };
  /**
   * Images handed out as URLs whose bytes are in the store (server/image-files/database-image-storage.ts):
   * what the sweeper reads to find expired ones. Inserted before the bytes, so that even an image whose
   * write never finished is swept.
   */
  image_files: {
    /** The image's file name (`img_<expiry>_<random>.<ext>`), also its `file_id` in the chunk tables. */
    name: string;
    /** Unix milliseconds, as in the name. */
    expires_at: number;
  };
  /** Secrets shared by every instance on this store, made once when the operator configured none (store/shared-secret.ts). */
  gateway_secrets: {
    name: string;
    secret: string;
    created_at: number;
  };
  /** Batches the gateway runs (server/batches/): owned by an account, run under the key that made them. Times are Unix ms. */
  batches: {
    id: string;
    account_id: string;
    key_id: string;
    /** Whose API made it, so whose shapes it is shown in: `anthropic` (Message Batches) or `openai` (/v1/batches). */
    protocol: string;
    /** `in_progress`, `canceling` or `ended`. */
    status: string;
    /** JSON: the protocol's own fields of the batch (OpenAI's metadata, input file…); `{}` for Anthropic. */
    metadata: Generated<string>;
    line_count: number;
    succeeded: Generated<number>;
    errored: Generated<number>;
    canceled: Generated<number>;
    expired: Generated<number>;
    created_at: number;
    /** When its first line was claimed. */
    started_at: number | null;
    ended_at: number | null;
    /** Lines without an outcome by then become `expired`. */
    expires_at: number;
    cancel_requested_at: number | null;
    /** The instance finishing the ended batch (OpenAI: writing its output files), and until when. */
    finish_claimed_by: Generated<string | null>;
    finish_lease_until: Generated<number | null>;
    /** When finishing was recorded; null until then (and for protocols with nothing to finish). */
    finished_at: Generated<number | null>;
    /** JSON: what finishing produced (OpenAI: `{outputFileId, errorFileId, usage}`). */
    finish: Generated<string | null>;
  };
  /** A batch's lines: each request, its claim while it runs, and its outcome once recorded (final). */
  batch_lines: {
    batch_id: string;
    position: number;
    custom_id: string;
    /** The path the line is sent to (`/v1/messages`; `/v1/chat/completions`, … for OpenAI batches). */
    endpoint: string;
    /** JSON: the request body. */
    body: string;
    claimed_by: string | null;
    /** Unix ms; past it, the claim is void and another instance may take the line. */
    lease_until: number | null;
    attempts: Generated<number>;
    not_before: Generated<number>;
    /** `succeeded`, `errored`, `canceled` or `expired`; null while the line has none. */
    outcome: string | null;
    /** The HTTP status the line's request was answered with (null for canceled and expired). */
    status_code: number | null;
    request_id: string | null;
    /** The answer's body as it was sent (JSON text): the message, or the error in the protocol's shape. */
    response: string | null;
    ended_at: number | null;
    /** The upstream batch the line was forwarded to (`upstream_batches.id`); null for a line the gateway runs. */
    upstream_batch_id: Generated<string | null>;
  };
  /** Lines of a batch forwarded to an upstream's batch API (server/batches/upstream/). Times are Unix ms. */
  upstream_batches: {
    /** Ours (`ubatch_…`): sent as the upstream batch's metadata where it takes some, to find it again. */
    id: string;
    batch_id: string;
    /** The gateway's model ID, and the deployment the lines went to. */
    model: string;
    provider_id: string;
    upstream_model: string;
    endpoint: string;
    /** The upstream's IDs, recorded as soon as each is made; never shown to a client. */
    upstream_input_file_id: string | null;
    upstream_id: string | null;
    /** The upstream batch's status as last polled. */
    upstream_status: string | null;
    claimed_by: string | null;
    lease_until: number | null;
    next_poll_at: Generated<number>;
    cancel_sent_at: number | null;
    created_at: number;
    /** When its lines' outcomes were all recorded. */
    ended_at: number | null;
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
  // Its writes wait (asynchronously) while the batch store's thread runs a transaction on the same file.
  const db = new Kysely<Database>({ dialect: new GatedSqliteDialect({ database: sqlite }, sqliteWriteGate(file)) });
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
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool: createPostgresPool(pg, connectionString, poolOptions) }) });
  postgresPools.set(db, { connectionString, pool: poolOptions });
  return db;
}

import { Migrator, PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { rollUpStoredRowsSql } from './roll-up-stored-rows.js';

/**
 * Schema migrations, in order. Written with Kysely's schema builder so the same migration runs on SQLite
 * and PostgreSQL. Never edit a migration that has shipped; add a new one.
 */
const migrations: Record<string, Migration> = {
  '0001_api_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('name', 'varchar(200)', (column) => column.notNull())
        .addColumn('secret_hash', 'varchar(64)', (column) => column.notNull().unique())
        .addColumn('prefix', 'varchar(32)', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('api_keys').execute();
    },
  },
  '0002_responses': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('responses')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('owner_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('previous_response_id', 'varchar(64)')
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('expires_at', 'bigint', (column) => column.notNull())
        .addColumn('input_items', 'text', (column) => column.notNull())
        .addColumn('response', 'text', (column) => column.notNull())
        .execute();
      // The purge deletes by expiry.
      await db.schema.createIndex('responses_expires_at').on('responses').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('responses').execute();
    },
  },
  '0003_response_items_and_upstream_state': {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite's ALTER TABLE adds a single column.
      await db.schema.alterTable('responses').addColumn('upstream_provider_id', 'varchar(200)').execute();
      await db.schema.alterTable('responses').addColumn('upstream_response_id', 'varchar(200)').execute();
      await db.schema
        .createTable('response_items')
        .addColumn('owner_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('item_id', 'varchar(200)', (column) => column.notNull())
        .addColumn('response_id', 'varchar(64)', (column) => column.notNull())
        .execute();
      // `item_reference` lookups go by owner and item; deletes and purges by response.
      await db.schema.createIndex('response_items_owner_item').on('response_items').columns(['owner_id', 'item_id']).execute();
      await db.schema.createIndex('response_items_response').on('response_items').column('response_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('response_items').execute();
      await db.schema.alterTable('responses').dropColumn('upstream_response_id').execute();
      await db.schema.alterTable('responses').dropColumn('upstream_provider_id').execute();
    },
  },
  '0004_accounts_and_usage': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('name', 'varchar(200)', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('disabled_at', 'bigint')
        .addColumn('permissions', 'text', (column) => column.notNull().defaultTo('{}'))
        .addColumn('limits', 'text', (column) => column.notNull().defaultTo('{}'))
        .execute();
      // Keys made before accounts existed belong to the default account, as new ones made without one do.
      await db
        // The table as this migration made it (a migration types its own tables: later ones change them).
        .withTables<{ accounts: { id: string; name: string; created_at: number; disabled_at: number | null; permissions: string; limits: string } }>()
        .insertInto('accounts')
        .values({ id: defaultAccountId, name: 'default', created_at: Math.floor(Date.now() / 1000), permissions: '{}', limits: '{}' })
        .execute();
      await db.schema.alterTable('api_keys').addColumn('account_id', 'varchar(64)', (column) => column.notNull().defaultTo(defaultAccountId)).execute();
      await db.schema.alterTable('api_keys').addColumn('permissions', 'text', (column) => column.notNull().defaultTo('{}')).execute();
      await db.schema.alterTable('api_keys').addColumn('limits', 'text', (column) => column.notNull().defaultTo('{}')).execute();
      await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
      // Stored responses were owned by the key that made them; now by its account, as at OpenAI.
      for (const table of ['responses', 'response_items']) {
        await sql`update ${sql.table(table)} set owner_id = coalesce((select account_id from api_keys where api_keys.id = ${sql.ref(`${table}.owner_id`)}), owner_id)`.execute(db);
      }
      await db.schema
        .createTable('usage_records')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('request_id', 'varchar(160)', (column) => column.notNull())
        .addColumn('account_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('key_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('model', 'varchar(256)')
        .addColumn('deployment', 'varchar(512)')
        .addColumn('protocol', 'varchar(32)', (column) => column.notNull())
        .addColumn('endpoint', 'varchar(200)', (column) => column.notNull())
        .addColumn('status', 'integer', (column) => column.notNull())
        .addColumn('input_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('cached_input_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('output_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('reasoning_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('image_count', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('latency_ms', 'integer', (column) => column.notNull())
        .addColumn('cost_usd', 'double precision', (column) => column.notNull().defaultTo(0))
        .addColumn('estimated', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      // Reports filter by account (or key) and time, and group by day or model.
      await db.schema.createIndex('usage_records_account_time').on('usage_records').columns(['account_id', 'created_at']).execute();
      await db.schema.createIndex('usage_records_key_time').on('usage_records').columns(['key_id', 'created_at']).execute();
      await db.schema.createIndex('usage_records_time').on('usage_records').column('created_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('usage_records').execute();
      await db.schema.dropIndex('api_keys_account').execute();
      for (const column of ['limits', 'permissions', 'account_id']) await db.schema.alterTable('api_keys').dropColumn(column).execute();
      await db.schema.dropTable('accounts').execute();
    },
  },
  '0005_keys_share_limits': {
    async up(db: Kysely<unknown>) {
      // A key made by another key (POST /v1/keys) counts against the same key-level limits as its maker.
      await db.schema.alterTable('api_keys').addColumn('shares_limits_with', 'varchar(64)').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').dropColumn('shares_limits_with').execute();
    },
  },
  '0006_usage_records_completed': {
    async up(db: Kysely<unknown>) {
      // 0 when the client left before its answer was complete (status 499). Rows written before this
      // migration were recorded as if complete, which is what the default says.
      await db.schema.alterTable('usage_records').addColumn('completed', 'integer', (column) => column.notNull().defaultTo(1)).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('usage_records').dropColumn('completed').execute();
    },
  },
  '0007_usage_rollups': {
    async up(db: Kysely<unknown>) {
      // Usage reports sum these instead of the rows (usage/usage-rollup.ts keeps them, in the transaction
      // that inserts the rows). `model` is '' for rows without one: NULL would make each such group a new
      // key, as both databases treat NULLs in a unique key as distinct.
      await db.schema
        .createTable('usage_rollups')
        .addColumn('hour', 'integer', (column) => column.notNull())
        .addColumn('account_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('key_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('model', 'varchar(256)', (column) => column.notNull())
        .addColumn('status_class', 'integer', (column) => column.notNull())
        .addColumn('requests', 'bigint', (column) => column.notNull())
        .addColumn('input_tokens', 'bigint', (column) => column.notNull())
        .addColumn('cached_input_tokens', 'bigint', (column) => column.notNull())
        .addColumn('output_tokens', 'bigint', (column) => column.notNull())
        .addColumn('reasoning_tokens', 'bigint', (column) => column.notNull())
        .addColumn('image_count', 'bigint', (column) => column.notNull())
        .addColumn('cost_usd', 'double precision', (column) => column.notNull())
        .addColumn('estimated', 'bigint', (column) => column.notNull())
        .addPrimaryKeyConstraint('usage_rollups_pk', ['hour', 'account_id', 'key_id', 'model', 'status_class'])
        .execute();
      // The admin's reports read a range of hours (the key); an account's, its own hours.
      await db.schema.createIndex('usage_rollups_account_hour').on('usage_rollups').columns(['account_id', 'hour']).execute();
      // Rows stored before now, in one statement, summing the columns of this migration's time.
      await sql.raw(rollUpStoredRowsSql(['input_tokens', 'cached_input_tokens', 'output_tokens', 'reasoning_tokens', 'image_count', 'cost_usd', 'estimated'])).execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('usage_rollups').execute();
    },
  },
  '0008_key_parents': {
    async up(db: Kysely<unknown>) {
      // The key that minted this one (POST /v1/keys); null for keys made by the admin or the CLI. Revoking a
      // key revokes its descendants, and a key acts only on its subtree, so lookups go by parent.
      await db.schema.alterTable('api_keys').addColumn('parent_key_id', 'varchar(64)').execute();
      await db.schema.createIndex('api_keys_parent').on('api_keys').column('parent_key_id').execute();
      // Which key minted a key made before this migration is unknown; the first key of its family (the one
      // whose counters it shares) is one of its ancestors, so revoking that key still revokes it.
      await sql`update api_keys set parent_key_id = shares_limits_with where shares_limits_with is not null`.execute(db);
      // Keys minted from a key revoked before revocation reached descendants go with it (one level: every
      // backfilled parent is a root).
      await sql`update api_keys set revoked_at = (select parent.revoked_at from api_keys parent where parent.id = api_keys.parent_key_id)
        where revoked_at is null and parent_key_id in (select id from api_keys where revoked_at is not null)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('api_keys_parent').execute();
      await db.schema.alterTable('api_keys').dropColumn('parent_key_id').execute();
    },
  },
  '0009_usage_cost_factors': {
    async up(db: Kysely<unknown>) {
      // What a row's cost depends on besides its token counts (issue 39). Rows written before this migration
      // counted cache writes as plain input and priced no tier: 0, null and 0 say so.
      const usageColumns: Array<[string, 'bigint' | 'integer']> = [
        ['cache_write_input_tokens', 'bigint'],
        ['cache_write_1h_input_tokens', 'bigint'],
        ['price_tier_above_tokens', 'bigint'],
        ['batch', 'integer'],
      ];
      for (const [column, type] of usageColumns) {
        await db.schema.alterTable('usage_records').addColumn(column, type, (builder) => builder.notNull().defaultTo(0)).execute();
      }
      await db.schema.alterTable('usage_records').addColumn('service_tier', 'varchar(64)').execute();
      for (const column of ['cache_write_input_tokens', 'cache_write_1h_input_tokens']) {
        await db.schema.alterTable('usage_rollups').addColumn(column, 'bigint', (builder) => builder.notNull().defaultTo(0)).execute();
      }
    },
    async down(db: Kysely<unknown>) {
      for (const column of ['cache_write_1h_input_tokens', 'cache_write_input_tokens']) {
        await db.schema.alterTable('usage_rollups').dropColumn(column).execute();
      }
      for (const column of ['service_tier', 'batch', 'price_tier_above_tokens', 'cache_write_1h_input_tokens', 'cache_write_input_tokens']) {
        await db.schema.alterTable('usage_records').dropColumn(column).execute();
      }
    },
  },
  '0010_conversations': {
    async up(db: Kysely<unknown>) {
      // OpenAI's Conversations, kept by the gateway per account. `item_count` is the next item's position:
      // an append bumps it first, which locks the row (PostgreSQL) or the database (SQLite) until the
      // transaction ends, so two turns appending at once each get their own positions.
      await db.schema
        .createTable('conversations')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('owner_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('metadata', 'text', (column) => column.notNull().defaultTo('{}'))
        .addColumn('item_count', 'bigint', (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('conversation_items')
        .addColumn('conversation_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('position', 'bigint', (column) => column.notNull())
        .addColumn('item_id', 'varchar(200)', (column) => column.notNull())
        .addColumn('item', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('conversation_items_pk', ['conversation_id', 'position'])
        .execute();
      // Items are read, and deleted, by conversation and item ID.
      await db.schema.createIndex('conversation_items_item').on('conversation_items').columns(['conversation_id', 'item_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('conversation_items').execute();
      await db.schema.dropTable('conversations').execute();
    },
  },
  '0011_gateway_secrets': {
    async up(db: Kysely<unknown>) {
      // Secrets every instance must agree on when none is configured (the compaction seal's), one row per
      // name: the first instance to start inserts it, every other one reads the same row back.
      await db.schema
        .createTable('gateway_secrets')
        .addColumn('name', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('secret', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('gateway_secrets').execute();
    },
  },
  '0012_batches': {
    async up(db: Kysely<unknown>) {
      // Batches the gateway runs itself (server/batches/): one row per batch, one per line. The outcome counts
      // are kept in the transaction that records each line's outcome, so reading a batch reads one row.
      await db.schema
        .createTable('batches')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('account_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('key_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('protocol', 'varchar(32)', (column) => column.notNull())
        .addColumn('status', 'varchar(32)', (column) => column.notNull())
        .addColumn('metadata', 'text', (column) => column.notNull().defaultTo('{}'))
        .addColumn('line_count', 'integer', (column) => column.notNull())
        .addColumn('succeeded', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('errored', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('canceled', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('expired', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('ended_at', 'bigint')
        .addColumn('expires_at', 'bigint', (column) => column.notNull())
        .addColumn('cancel_requested_at', 'bigint')
        .execute();
      // An account's list, newest first; the runner's sweep of batches still running.
      await db.schema.createIndex('batches_account_created').on('batches').columns(['account_id', 'created_at']).execute();
      await db.schema.createIndex('batches_status').on('batches').column('status').execute();
      await db.schema
        .createTable('batch_lines')
        .addColumn('batch_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('position', 'integer', (column) => column.notNull())
        .addColumn('custom_id', 'varchar(200)', (column) => column.notNull())
        .addColumn('endpoint', 'varchar(200)', (column) => column.notNull())
        .addColumn('body', 'text', (column) => column.notNull())
        // The claim: the instance running the line and until when; another takes it over once the lease is past.
        .addColumn('claimed_by', 'varchar(64)')
        .addColumn('lease_until', 'bigint')
        .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
        // Not claimed before this time (a line that met its account's limits waits for its retry-after).
        .addColumn('not_before', 'bigint', (column) => column.notNull().defaultTo(0))
        // The outcome, once recorded, is final: succeeded, errored, canceled or expired.
        .addColumn('outcome', 'varchar(16)')
        .addColumn('status_code', 'integer')
        .addColumn('request_id', 'varchar(160)')
        .addColumn('response', 'text')
        .addColumn('ended_at', 'bigint')
        .addPrimaryKeyConstraint('batch_lines_pk', ['batch_id', 'position'])
        .execute();
      // The claim looks for lines without an outcome.
      await db.schema.createIndex('batch_lines_open').on('batch_lines').columns(['outcome', 'batch_id', 'position']).execute();
      await db.schema.alterTable('usage_records').addColumn('batch_id', 'varchar(64)').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('usage_records').dropColumn('batch_id').execute();
      await db.schema.dropTable('batch_lines').execute();
      await db.schema.dropTable('batches').execute();
    },
  },
  '0013_files': {
    async up(db: Kysely<unknown>) {
      // OpenAI Files kept for an account (server/files/): the row is the file's metadata, its bytes are in the
      // file storage under the file's ID. A row is inserted only once its content is stored whole.
      await db.schema
        .createTable('files')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('owner_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('created_by_key_id', 'varchar(64)')
        .addColumn('filename', 'text', (column) => column.notNull())
        .addColumn('purpose', 'varchar(32)', (column) => column.notNull())
        .addColumn('bytes', 'bigint', (column) => column.notNull())
        .addColumn('created_at_ms', 'bigint', (column) => column.notNull())
        .addColumn('expires_at', 'bigint')
        .execute();
      // Lists page through an owner's files by creation time (milliseconds, so that files made within one
      // second keep their order); the sweep deletes by expiry.
      await db.schema.createIndex('files_owner_created').on('files').columns(['owner_id', 'created_at_ms', 'id']).execute();
      await db.schema.createIndex('files_expires_at').on('files').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('files').execute();
    },
  },
  '0014_batch_finish': {
    async up(db: Kysely<unknown>) {
      // What a batch's protocol does once all its lines have ended (OpenAI writes its output and error files):
      // claimed by one instance at a time (a lease, like a line's), recorded once (`finished_at`), so the files
      // are written once however many instances see the batch end, and still written after a restart.
      // One column per statement: SQLite adds one at a time.
      await db.schema.alterTable('batches').addColumn('finish_claimed_by', 'varchar(64)').execute();
      await db.schema.alterTable('batches').addColumn('finish_lease_until', 'bigint').execute();
      await db.schema.alterTable('batches').addColumn('finished_at', 'bigint').execute();
      // JSON: what finishing produced (OpenAI: the output and error file IDs and the summed usage).
      await db.schema.alterTable('batches').addColumn('finish', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const column of ['finish', 'finished_at', 'finish_lease_until', 'finish_claimed_by']) {
        await db.schema.alterTable('batches').dropColumn(column).execute();
      }
    },
  },
  '0015_file_chunks': {
    async up(db: Kysely<unknown>) {
      // The bytes of OpenAI Files when they are kept in the store (server/files/database-file-storage.ts), so
      // that every instance on one PostgreSQL reads a file any of them took. Chunks are written as the upload
      // streams; the `file_contents` row is inserted only once the last one is in, and a reader goes by it,
      // so a file half written is never read.
      const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
      await db.schema
        .createTable('file_chunks')
        .addColumn('file_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('sequence', 'integer', (column) => column.notNull())
        .addColumn('data', bytes, (column) => column.notNull())
        .addPrimaryKeyConstraint('file_chunks_pk', ['file_id', 'sequence'])
        .execute();
      await db.schema
        .createTable('file_contents')
        .addColumn('file_id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('bytes', 'bigint', (column) => column.notNull())
        .addColumn('chunks', 'integer', (column) => column.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('file_contents').execute();
      await db.schema.dropTable('file_chunks').execute();
    },
  },
  '0016_upstream_batches': {
    async up(db: Kysely<unknown>) {
      // Lines of a batch forwarded to an upstream's own batch API (models with `batch: upstream`;
      // server/batches/upstream/): one row per upstream batch, inserted with the gateway's batch (the intent,
      // before anything is sent upstream), then the upstream's IDs as they are made, so a restart polls the
      // same upstream batch and never makes a second. Polled by the instance holding its lease.
      await db.schema
        .createTable('upstream_batches')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('batch_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('model', 'varchar(256)', (column) => column.notNull())
        .addColumn('provider_id', 'varchar(200)', (column) => column.notNull())
        .addColumn('upstream_model', 'varchar(256)', (column) => column.notNull())
        .addColumn('endpoint', 'varchar(200)', (column) => column.notNull())
        .addColumn('upstream_input_file_id', 'varchar(200)')
        .addColumn('upstream_id', 'varchar(200)')
        .addColumn('upstream_status', 'varchar(32)')
        .addColumn('claimed_by', 'varchar(64)')
        .addColumn('lease_until', 'bigint')
        .addColumn('next_poll_at', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('cancel_sent_at', 'bigint')
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('ended_at', 'bigint')
        .execute();
      await db.schema.createIndex('upstream_batches_open').on('upstream_batches').columns(['ended_at', 'next_poll_at']).execute();
      await db.schema.createIndex('upstream_batches_batch').on('upstream_batches').column('batch_id').execute();
      // A forwarded line: the gateway's runner neither claims nor sweeps it; its upstream batch's poller ends it.
      await db.schema.alterTable('batch_lines').addColumn('upstream_batch_id', 'varchar(64)').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('batch_lines').dropColumn('upstream_batch_id').execute();
      await db.schema.dropTable('upstream_batches').execute();
    },
  },
  '0017_file_chunk_times': {
    async up(db: Kysely<unknown>) {
      // When each chunk was written (Unix ms): chunks of a file that never got its `file_contents` row (its
      // instance stopped mid-upload) are swept once none was written for an hour, so an upload still going on
      // another instance is never touched. Chunks written before this column are null, taken as old.
      await db.schema.alterTable('file_chunks').addColumn('written_at', 'bigint').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('file_chunks').dropColumn('written_at').execute();
    },
  },
  '0018_image_files': {
    async up(db: Kysely<unknown>) {
      // Images handed out as URLs, when their bytes are in the store (`images.storage`): the bytes go into
      // `file_chunks`/`file_contents` under the image's name (`img_…`, which no file ID can be), and this row,
      // inserted first, is what the sweeper finds by expiry (server/image-files/database-image-storage.ts).
      await db.schema
        .createTable('image_files')
        .addColumn('name', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('expires_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('image_files_expires_at').on('image_files').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('image_files').execute();
    },
  },
};

/** The account that owns keys created without one (and every key made before accounts existed). */
export const defaultAccountId = 'acct_default';

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the database to the latest schema (or, for a test of one migration, to the migration named
 * `upTo`); throws with the failing migration's error.
 */
export async function migrateToLatest(db: Kysely<any>, upTo?: string): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- any schema
  const migrator = new Migrator({ db, provider, migrationTableSchema: await currentSchema(db) });
  const { error, results } = await (upTo === undefined ? migrator.migrateToLatest() : migrator.migrateTo(upTo));
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * On PostgreSQL, the schema the connection works in (its search_path). Kysely otherwise looks for its
 * migration tables in every schema of the database, so two gateways migrating different schemas of one
 * database (tests do; so may a shared server) would find each other's tables.
 */
async function currentSchema(db: Kysely<any>): Promise<string | undefined> { // eslint-disable-line @typescript-eslint/no-explicit-any -- any schema
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import type { Database, GatewayDb } from '../store/database.js';
import type { LedgerReads } from '../store/open-ledger-reads.js';
import { fromUsageRow, toUsageRow, usageColumns, type UsageRecord } from './usage-record.js';
import { rolledUpSums, rollupKeyColumns, rollUpUsage } from './usage-rollup.js';
import { summarizeUsage, type UsageGrouping, type UsageSummaryRow } from './summarize-usage.js';
import type { UsageFilter } from './usage-filter.js';

/** The filter is part of the store's API, so its callers import it from here. */
export type { UsageFilter } from './usage-filter.js';

/** Where a page of `list` ended: its last record's time and ID. */
export interface UsageListPosition {
  createdAt: number;
  id: string;
}

/** Most records `list` returns at once. */
export const maxListLimit = 1_000;

/** Most records one export ({@link UsageStore.records}) reads. */
export const maxExportRows = 1_000_000;

/**
 * Rows an export brings from the store at a time: one cursor chunk, or one keyset page. Each chunk is one
 * stretch of work on the event loop (turning rows into lines): 500 keeps it to a few milliseconds.
 */
const exportChunkRows = 500;

// SQLite allows 32,766 bound values per statement (the default since 3.32, and better-sqlite3's build);
// PostgreSQL allows 65,535. Each row binds one value per column.
const maxBoundValues = 32_766;
const rowsPerInsert = Math.floor(maxBoundValues / usageColumns.length);
const rollupsPerUpsert = Math.floor(maxBoundValues / (rollupKeyColumns.length + 1 + rolledUpSums.length));

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/**
 * The usage ledger at rest: written in batches by the `UsageRecorder`, read by usage reports and the recent
 * requests table. Works the same on SQLite and PostgreSQL.
 *
 * Reads (reports, pages, counts, exports) go to `reads` (store/open-ledger-reads.ts: a worker thread on
 * SQLite, a pool of their own on PostgreSQL), so none of them runs on the event loop or takes a connection
 * that model traffic needs; without it, they share `db`.
 */
export class UsageStore {
  private readonly reads: GatewayDb;
  private readonly cursors: boolean;

  constructor(
    private readonly db: GatewayDb,
    reads: Pick<LedgerReads, 'db' | 'cursors'> = { db, cursors: false },
  ) {
    this.reads = reads.db;
    this.cursors = reads.cursors;
  }

  /**
   * Stores records with as few statements as the database allows, all or none, and adds the rows it stored
   * to their rollups in the same transaction. A record whose ID is already stored is skipped (and not
   * counted again), so retrying a write that did land (but whose answer was lost) is harmless.
   */
  async insertMany(records: readonly UsageRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.db.transaction().execute((trx) => insertUsageRecords(trx, records));
  }

  /**
   * Totals per UTC day, model or key, from the hourly rollups (see {@link summarizeUsage}); `recordsSince`
   * is retention's horizon (Unix ms), before which the rows are gone.
   */
  summarize(filter: UsageFilter, groupBy: UsageGrouping, recordsSince?: number): Promise<UsageSummaryRow[]> {
    return summarizeUsage(this.reads, filter, groupBy, recordsSince);
  }

  /**
   * Deletes at most `limit` records older than `time` (Unix ms), oldest first, leaving their rollups:
   * one batch of retention's (usage/ledger-retention.ts). Resolves to how many went.
   */
  async deleteBefore(time: number, limit: number): Promise<number> {
    const oldest = this.db.selectFrom('usage_records').select('id').where('created_at', '<', time).orderBy('created_at').limit(limit);
    const result = await this.db.deleteFrom('usage_records').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * The newest records first, for a recent requests table. `after` pages on from the last record shown
   * (ties on the millisecond are broken by ID, so no record is skipped or repeated); `limit` is clamped to
   * 1..{@link maxListLimit}.
   */
  async list(filter: UsageFilter, page: { limit: number; after?: UsageListPosition }): Promise<UsageRecord[]> {
    return (await this.page(filter, page)).records;
  }

  /**
   * {@link list}, and whether more records follow this page: read as one record more than the page holds,
   * so that a page of the largest size says so too.
   */
  async page(filter: UsageFilter, page: { limit: number; after?: UsageListPosition }): Promise<{ records: UsageRecord[]; more: boolean }> {
    const limit = Math.min(Math.max(Math.floor(page.limit) || 1, 1), maxListLimit);
    const rows = await this.newestFirst(filter, page.after).limit(limit + 1).execute();
    return { records: rows.slice(0, limit).map(fromUsageRow), more: rows.length > limit };
  }

  /**
   * Every record matching `filter`, newest first, up to `limit` (at most {@link maxExportRows}), for an
   * export, in chunks of up to {@link exportChunkRows}: from a cursor where the reads have one (SQLite's thread), else
   * keyset pages, each read only when the consumer asks for it. A consumer that stops early (`break`,
   * `return`) closes the cursor. Chunks rather than records: each yield costs the event loop a turn of
   * promise work, hundreds of times less often.
   */
  async *records(filter: UsageFilter, options: { limit: number; after?: UsageListPosition }): AsyncGenerator<UsageRecord[]> {
    let left = Math.min(Math.max(Math.floor(options.limit) || 1, 1), maxExportRows);
    if (this.cursors) {
      const query = this.newestFirst(filter, options.after).limit(left).compile();
      for await (const { rows } of this.reads.getExecutor().stream(query, exportChunkRows)) yield rows.map(fromUsageRow);
      return;
    }
    let after = options.after;
    while (left > 0) {
      const { records, more } = await this.page(filter, { limit: Math.min(left, exportChunkRows), after });
      if (records.length > 0) yield records;
      left -= records.length;
      if (!more || records.length === 0) return;
      const last = records[records.length - 1];
      after = { createdAt: last.created_at, id: last.id };
    }
  }

  async count(filter: UsageFilter): Promise<number> {
    const row = await this.reads
      .selectFrom('usage_records')
      .where((eb) => matching(eb, filter))
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Matching records after `after`, newest first (ties on the millisecond broken by ID), on the reads. */
  private newestFirst(filter: UsageFilter, after: UsageListPosition | undefined) {
    return this.reads
      .selectFrom('usage_records')
      .selectAll()
      .where((eb) => matching(eb, filter))
      // `created_at <= …` says again what the OR implies, as a bound the time index can start from: without
      // it PostgreSQL walked the index from the newest row to the position on every page (130 ms a page at
      // 300,000 rows, slower the further an export got).
      .$if(after !== undefined, (query) =>
        query
          .where('created_at', '<=', after!.createdAt)
          .where((eb) => eb.or([eb('created_at', '<', after!.createdAt), eb.and([eb('created_at', '=', after!.createdAt), eb('id', '<', after!.id)])])),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc');
  }
}

function matching(eb: ExpressionBuilder<Database, 'usage_records'>, filter: UsageFilter) {
  const conditions = [];
  if (filter.accountId !== undefined) conditions.push(eb('account_id', '=', filter.accountId));
  if (filter.keyId !== undefined) conditions.push(eb('key_id', '=', filter.keyId));
  // `IN ()` is no SQL: an empty list is a condition that holds for no row.
  if (filter.keyIds !== undefined) conditions.push(filter.keyIds.length === 0 ? sql<boolean>`1 = 0` : eb('key_id', 'in', filter.keyIds));
  if (filter.model !== undefined) conditions.push(eb('model', '=', filter.model));
  if (filter.from !== undefined) conditions.push(eb('created_at', '>=', filter.from));
  if (filter.to !== undefined) conditions.push(eb('created_at', '<', filter.to));
  return eb.and(conditions);
}

/**
 * Inserts records, skipping IDs already stored, and adds the rows inserted to their rollups, inside the
 * caller's transaction: `UsageStore.insertMany`'s, or the batch runner's, which records a line's outcome
 * and its ledger row together (batches/batch-store.ts).
 */
export async function insertUsageRecords(trx: Transaction<Database>, records: readonly UsageRecord[]): Promise<void> {
  const rows = records.map(toUsageRow);
  const inserted = [];
  for (const chunk of chunksOf(rows, rowsPerInsert)) {
    inserted.push(
      ...(await trx
        .insertInto('usage_records')
        .values(chunk)
        .onConflict((conflict) => conflict.column('id').doNothing())
        .returning(['created_at', 'account_id', 'key_id', 'model', 'status', ...rolledUpSums])
        .execute()),
    );
  }
  for (const chunk of chunksOf(rollUpUsage(inserted), rollupsPerUpsert)) {
    await trx
      .insertInto('usage_rollups')
      .values(chunk)
      .onConflict((conflict) =>
        conflict.columns(rollupKeyColumns).doUpdateSet((eb) =>
          Object.fromEntries(
            (['requests', ...rolledUpSums] as const).map((column) => [column, eb(eb.ref(`usage_rollups.${column}`), '+', eb.ref(`excluded.${column}`))]),
          ),
        ),
      )
      .execute();
  }
}

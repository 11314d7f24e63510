import { sql, type ExpressionBuilder } from 'kysely';
import type { components } from '../../generated/api.js';
import type { Database, GatewayDb } from '../store/database.js';
import type { LedgerReads } from '../store/open-ledger-reads.js';
import { fromUsageRow, toUsageRow, usageColumns, type UsageRecord } from './usage-record.js';

/** Which records a report covers; every field narrows it. `from` is inclusive, `to` exclusive (Unix ms). */
export interface UsageFilter {
  accountId?: string;
  keyId?: string;
  model?: string;
  from?: number;
  to?: number;
}

export type UsageGrouping = 'day' | 'model';

/**
 * Totals of one group: one UTC day (`YYYY-MM-DD`) or one model (null for requests that never named one).
 * The contract's `UsageBucket`, so a report is served as the store returns it.
 */
export type UsageSummaryRow = components['schemas']['UsageBucket'];

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

const msPerDay = 86_400_000;

// SQLite allows 32,766 bound values per statement (the default since 3.32, and better-sqlite3's build);
// PostgreSQL allows 65,535. Each row binds one value per column.
const maxBoundValues = 32_766;
const rowsPerInsert = Math.floor(maxBoundValues / usageColumns.length);

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
   * Stores records with as few statements as the database allows, all or none. A record whose ID is
   * already stored is skipped, so retrying a write that did land (but whose answer was lost) is harmless.
   */
  async insertMany(records: readonly UsageRecord[]): Promise<void> {
    const rows = records.map(toUsageRow);
    const chunks: Array<typeof rows> = [];
    for (let start = 0; start < rows.length; start += rowsPerInsert) chunks.push(rows.slice(start, start + rowsPerInsert));
    const insert = (db: GatewayDb, chunk: typeof rows) =>
      db.insertInto('usage_records').values(chunk).onConflict((conflict) => conflict.column('id').doNothing()).execute();
    if (chunks.length === 1) await insert(this.db, chunks[0]);
    else if (chunks.length > 1) await this.db.transaction().execute(async (trx) => { for (const chunk of chunks) await insert(trx, chunk); });
  }

  /**
   * Totals per UTC day or per model, in day or model order.
   *
   * @example
   * await store.summarize({ accountId: 'acct_1', from: Date.UTC(2025, 0, 1) }, 'day');
   * // [{ day: '2025-01-01', requests: 12, input_tokens: 3400, …, cost_usd: 0.021 }, …]
   */
  async summarize(filter: UsageFilter, groupBy: UsageGrouping): Promise<UsageSummaryRow[]> {
    // Integer division in both databases (PostgreSQL: bigint / integer is bigint, truncated), which for
    // timestamps after 1970 is the floor: the day number since the epoch. The divisor is a literal, not a
    // bound value, so PostgreSQL sees the SELECT and GROUP BY expressions as the same.
    const dayNumber = sql<number>`created_at / ${sql.lit(msPerDay)}`;
    const totals = this.reads
      .selectFrom('usage_records')
      .where((eb) => matching(eb, filter))
      .select((eb) => [
        eb.fn.countAll<number | string>().as('requests'),
        eb.fn.sum<number | string>('input_tokens').as('input_tokens'),
        eb.fn.sum<number | string>('cached_input_tokens').as('cached_input_tokens'),
        eb.fn.sum<number | string>('output_tokens').as('output_tokens'),
        eb.fn.sum<number | string>('reasoning_tokens').as('reasoning_tokens'),
        eb.fn.sum<number | string>('image_count').as('image_count'),
        eb.fn.sum<number | string>('cost_usd').as('cost_usd'),
      ]);

    if (groupBy === 'day') {
      const rows = await totals.select(dayNumber.as('day_number')).groupBy(dayNumber).orderBy(dayNumber).execute();
      return rows.map(({ day_number, ...sums }) => ({ day: dayString(Number(day_number)), ...numbers(sums) }));
    }
    const rows = await totals.select('model').groupBy('model').execute();
    // Sorted here rather than in SQL: the databases' collations (and where they put NULL) differ.
    return rows
      .map(({ model, ...sums }) => ({ model, ...numbers(sums) }))
      .sort((a, b) => (a.model === b.model ? 0 : a.model === null ? 1 : b.model === null ? -1 : a.model < b.model ? -1 : 1));
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
  if (filter.model !== undefined) conditions.push(eb('model', '=', filter.model));
  if (filter.from !== undefined) conditions.push(eb('created_at', '>=', filter.from));
  if (filter.to !== undefined) conditions.push(eb('created_at', '<', filter.to));
  return eb.and(conditions);
}

/** PostgreSQL sums `bigint` columns as `numeric`, which node-postgres hands over as a string. */
function numbers<T extends Record<string, number | string | null>>(sums: T): { [K in keyof T]: number } {
  return Object.fromEntries(Object.entries(sums).map(([name, value]) => [name, Number(value ?? 0)])) as { [K in keyof T]: number };
}

function dayString(dayNumber: number): string {
  return new Date(dayNumber * msPerDay).toISOString().slice(0, 10);
}

import { PostgresAdapter, sql, type Selectable, type Transaction } from 'kysely';
import type { Database, GatewayDb } from '../store/database.js';
import { insertUsageRecords } from '../usage/usage-store.js';
import type { UsageRecord } from '../usage/usage-record.js';
import type { BatchRecord, BatchStatus, ClaimedLine, LineOutcome, LineResult, NewBatch, NewBatchLine, NewUpstreamBatch } from './batch-types.js';

type BatchRow = Selectable<Database['batches']>;

/** Lines inserted per statement: seven bound values each, well under SQLite's 32,766. */
const linesPerInsert = 1_000;
/**
 * Forwarded lines read per page with their bodies (1 MB of a 200 MB, 50,000-line file). A page is alive about four
 * times over while it is written out (rows, parsed bodies, their JSON, the piece written): 1,000 lines of 5 KB
 * grew live memory by 19.5 MiB, 250 by 4.8 MiB, in the same time (test/upstream-batches-large.test.ts).
 */
const forwardedLinesPerPage = 250;
/** Lines deleted per statement when a batch's lines go (a failed or abandoned validation): bounded transactions. */
const linesPerDelete = 5_000;
/**
 * A batch still `validating` this long after it was made was abandoned (its instance stopped while storing
 * its lines): the sweep fails it. Storing 50,000 lines takes seconds (bench/README.md, "Creating a large batch").
 */
export const abandonedValidationMs = 15 * 60_000;

/**
 * Batches and their lines at rest, on SQLite or PostgreSQL: what the protocols' batch routes read and write,
 * and the runner's claim and outcome queries. Every change of a line's outcome and of its batch's counts
 * happens in one transaction, and an outcome is written only over none (`outcome is null`), so a line has at
 * most one outcome and the counts always add up to the lines.
 */
export class BatchStore {
  constructor(private readonly db: GatewayDb) {}

  /** Stores a batch and all its lines, or nothing. */
  async create(batch: NewBatch): Promise<BatchRecord> {
    const row = newRow(batch);
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('batches').values(row).execute();
      await insertLines(trx, batch.id, 0, batch.lines, batch.upstreamBatches ?? [], batch.createdAt);
    });
    return toRecord(row);
  }

  /**
   * Stores a batch without lines, `validating`: the runner claims nothing of it (it claims lines of batches
   * `in_progress` only) until {@link startValidated}. Its lines come in bounded statements ({@link addLines}),
   * so a batch of any size is stored without one long transaction or all its lines in memory. If the
   * instance stops before the end, the runner's sweep fails the batch after {@link abandonedValidationMs}.
   */
  async createValidating(batch: Omit<NewBatch, 'lines' | 'ended'>): Promise<void> {
    await this.db.insertInto('batches').values({ ...newRow({ ...batch, lines: [] }), status: 'validating' }).execute();
  }

  /**
   * Adds lines to a `validating` batch from `firstPosition` on, at most {@link linesPerInsert} per statement,
   * with the upstream batches first named by these lines (no poller takes one up while its batch validates).
   */
  async addLines(batchId: string, firstPosition: number, lines: readonly NewBatchLine[], upstreamBatches: readonly NewUpstreamBatch[] = [], createdAt = Date.now()): Promise<void> {
    await this.db.transaction().execute((trx) => insertLines(trx, batchId, firstPosition, lines, upstreamBatches, createdAt));
  }

  /**
   * Starts a `validating` batch whose `lineCount` lines are all stored: from now on the runner claims them;
   * or, when a cancel came while it was validating, it becomes `canceling`, and the runner's sweep cancels them.
   */
  async startValidated(batchId: string, lineCount: number): Promise<void> {
    for (const [status, cancelRequested] of [['in_progress', false], ['canceling', true]] as const) {
      await this.db
        .updateTable('batches')
        .set({ status, line_count: lineCount })
        .where('id', '=', batchId)
        .where('status', '=', 'validating')
        .where('cancel_requested_at', cancelRequested ? 'is not' : 'is', null)
        .execute();
    }
  }

  /**
   * Ends a `validating` batch as failed: its lines are deleted (in bounded statements) and it is kept, ended
   * with none, with `metadata` (the protocol's fields, with why it failed) for its owner to read.
   */
  async failValidation(batchId: string, metadata: Record<string, unknown>, now: number): Promise<void> {
    await this.deleteLines(batchId);
    await this.db
      .updateTable('batches')
      .set({ status: 'ended', line_count: 0, ended_at: now, metadata: JSON.stringify(metadata) })
      .where('id', '=', batchId)
      .where('status', '=', 'validating')
      .execute();
  }

  /** Removes a `validating` batch and its lines (its creation was refused, e.g. too many requests). */
  async discardValidating(batchId: string): Promise<void> {
    await this.deleteLines(batchId);
    await this.db.deleteFrom('batches').where('id', '=', batchId).where('status', '=', 'validating').execute();
  }

  /** The account's batch, or undefined (another account's batch is not found). */
  async get(id: string, accountId: string): Promise<BatchRecord | undefined> {
    const row = await this.db.selectFrom('batches').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row && toRecord(row);
  }

  /**
   * A page of the account's batches of one protocol, newest first: after `afterId` (older than it), or
   * before `beforeId` (newer, still listed newest first); one more than `limit` is read to tell `hasMore`.
   */
  async list(accountId: string, protocol: string, page: { limit: number; afterId?: string; beforeId?: string }): Promise<{ batches: BatchRecord[]; hasMore: boolean }> {
    let query = this.db.selectFrom('batches').selectAll().where('account_id', '=', accountId).where('protocol', '=', protocol);
    const cursorId = page.afterId ?? page.beforeId;
    if (cursorId !== undefined) {
      const cursor = await this.db.selectFrom('batches').select(['created_at', 'id']).where('id', '=', cursorId).where('account_id', '=', accountId).executeTakeFirst();
      if (!cursor) return { batches: [], hasMore: false };
      const at = Number(cursor.created_at);
      query = page.afterId !== undefined
        ? query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', cursor.id)])]))
        : query.where((eb) => eb.or([eb('created_at', '>', at), eb.and([eb('created_at', '=', at), eb('id', '>', cursor.id)])]));
    }
    // Before a cursor, the page is the `limit` nearest it: read upwards, then turn it newest first.
    const upwards = page.beforeId !== undefined;
    const rows = await query
      .orderBy('created_at', upwards ? 'asc' : 'desc')
      .orderBy('id', upwards ? 'asc' : 'desc')
      .limit(page.limit + 1)
      .execute();
    const hasMore = rows.length > page.limit;
    const batches = rows.slice(0, page.limit).map(toRecord);
    return { batches: upwards ? batches.reverse() : batches, hasMore };
  }

  /**
   * A page of batches of every protocol, newest first, older than `afterId`: one account's, or every
   * account's when `accountId` is undefined (the admin). What the console lists; each protocol lists its own above.
   */
  async listEveryKind(accountId: string | undefined, page: { limit: number; afterId?: string }): Promise<{ batches: BatchRecord[]; hasMore: boolean } | 'unknown-cursor'> {
    let query = this.db.selectFrom('batches').selectAll();
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    if (page.afterId !== undefined) {
      let cursorQuery = this.db.selectFrom('batches').select(['created_at', 'id']).where('id', '=', page.afterId);
      if (accountId !== undefined) cursorQuery = cursorQuery.where('account_id', '=', accountId);
      const cursor = await cursorQuery.executeTakeFirst();
      if (!cursor) return 'unknown-cursor';
      const at = Number(cursor.created_at);
      query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', cursor.id)])]));
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    return { batches: rows.slice(0, page.limit).map(toRecord), hasMore: rows.length > page.limit };
  }

  /**
   * Asks a running batch to stop: no line is claimed from now on, lines running finish and keep their
   * outcome, and the runner's sweep cancels the rest. A batch still `validating` keeps the request and becomes
   * canceling once its lines are stored. A batch already ended or canceling is left as it is.
   */
  async requestCancel(id: string, accountId: string, now: number): Promise<BatchRecord | undefined> {
    await this.db
      .updateTable('batches')
      .set({ status: 'canceling', cancel_requested_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('status', '=', 'in_progress')
      .execute();
    // Still storing its lines: the cancel is kept, and the batch is canceling once they are in (startValidated).
    await this.db
      .updateTable('batches')
      .set({ cancel_requested_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('status', '=', 'validating')
      .where('cancel_requested_at', 'is', null)
      .execute();
    return this.get(id, accountId);
  }

  /** Deletes an ended batch and its lines; 'running' when it has not ended, undefined when there is none. */
  async delete(id: string, accountId: string): Promise<'deleted' | 'running' | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const batch = await trx.selectFrom('batches').select('status').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      if (!batch) return undefined;
      if (batch.status !== 'ended') return 'running';
      await trx.deleteFrom('batch_lines').where('batch_id', '=', id).execute();
      await trx.deleteFrom('upstream_batches').where('batch_id', '=', id).execute();
      await trx.deleteFrom('batches').where('id', '=', id).execute();
      return 'deleted';
    });
  }

  /** A chunk of a batch's line results, in line order, from `fromPosition` on. */
  async results(batchId: string, fromPosition: number, limit: number): Promise<LineResult[]> {
    const rows = await this.db
      .selectFrom('batch_lines')
      .select(['position', 'custom_id', 'outcome', 'status_code', 'request_id', 'response'])
      .where('batch_id', '=', batchId)
      .where('position', '>=', fromPosition)
      .orderBy('position')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      position: Number(row.position),
      customId: row.custom_id,
      outcome: (row.outcome ?? 'expired') as LineOutcome,
      statusCode: row.status_code === null ? null : Number(row.status_code),
      requestId: row.request_id,
      response: row.response,
    }));
  }

  /**
   * Claims up to `limit` lines for `instance` until `leaseUntil`: lines without an outcome whose batch is
   * running and not expired, that no live lease holds and whose wait (`not_before`) is over. On PostgreSQL
   * the candidate rows are locked `FOR UPDATE SKIP LOCKED`, so instances claiming at once take different
   * lines without waiting for each other; SQLite has one writer at a time, so the statement alone is atomic.
   * A line whose lease ran out (its instance died or stalled) is claimed again, its `attempts` counted.
   */
  async claim(instance: string, limit: number, now: number, leaseUntil: number): Promise<ClaimedLine[]> {
    if (limit <= 0) return [];
    const postgres = this.db.getExecutor().adapter instanceof PostgresAdapter;
    let candidates = this.db
      .selectFrom('batch_lines')
      .innerJoin('batches', 'batches.id', 'batch_lines.batch_id')
      .select(['batch_lines.batch_id', 'batch_lines.position'])
      .where('batch_lines.outcome', 'is', null)
      // A forwarded line is its upstream batch's to end (upstream/upstream-batch-poller.ts).
      .where('batch_lines.upstream_batch_id', 'is', null)
      .where('batches.status', '=', 'in_progress')
      .where('batches.expires_at', '>', now)
      .where((eb) => eb.or([eb('batch_lines.lease_until', 'is', null), eb('batch_lines.lease_until', '<', now)]))
      .where('batch_lines.not_before', '<=', now)
      .orderBy('batches.created_at')
      .orderBy('batch_lines.batch_id')
      .orderBy('batch_lines.position')
      .limit(limit);
    if (postgres) candidates = candidates.forUpdate('batch_lines').skipLocked();
    // A materialized CTE: as a plain `IN (subquery)`, PostgreSQL may run the subquery again per row and claim
    // more than `limit` lines (it did: every line of a batch at once).
    const claimed = await this.db
      .with((cte) => cte('candidates').materialized(), () => candidates)
      .updateTable('batch_lines')
      .set((eb) => ({ claimed_by: instance, lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where((eb) => eb(eb.refTuple('batch_id', 'position'), 'in', eb.selectFrom('candidates').select(['candidates.batch_id', 'candidates.position']).$asTuple('batch_id', 'position')))
      .where('outcome', 'is', null)
      .returning(['batch_id', 'position', 'custom_id', 'endpoint', 'body', 'attempts'])
      .execute();
    if (claimed.length === 0) return [];
    const batchIds = [...new Set(claimed.map((line) => line.batch_id))];
    await this.db.updateTable('batches').set({ started_at: now }).where('id', 'in', batchIds).where('started_at', 'is', null).execute();
    const batches = await this.db.selectFrom('batches').select(['id', 'account_id', 'key_id', 'protocol']).where('id', 'in', batchIds).execute();
    const byId = new Map(batches.map((batch) => [batch.id, batch]));
    return claimed.map((line) => {
      const batch = byId.get(line.batch_id)!;
      return {
        batchId: line.batch_id,
        position: Number(line.position),
        customId: line.custom_id,
        endpoint: line.endpoint,
        body: line.body,
        attempts: Number(line.attempts),
        accountId: batch.account_id,
        keyId: batch.key_id,
        protocol: batch.protocol,
      };
    });
  }

  /** Extends the leases of the lines `instance` still holds. */
  async renew(instance: string, lines: ReadonlyArray<Pick<ClaimedLine, 'batchId' | 'position'>>, leaseUntil: number): Promise<void> {
    if (lines.length === 0) return;
    await this.db
      .updateTable('batch_lines')
      .set({ lease_until: leaseUntil })
      .where('claimed_by', '=', instance)
      .where('outcome', 'is', null)
      .where((eb) => eb.or(lines.map((line) => eb.and([eb('batch_id', '=', line.batchId), eb('position', '=', line.position)]))))
      .execute();
  }

  /** Gives a line back without an outcome, to be claimed again from `notBefore` on (a line that met its limits). */
  async release(instance: string, line: Pick<ClaimedLine, 'batchId' | 'position'>, notBefore: number, countAttempt: boolean): Promise<void> {
    await this.db
      .updateTable('batch_lines')
      .set((eb) => ({ claimed_by: null, lease_until: null, not_before: notBefore, ...(countAttempt ? {} : { attempts: eb('attempts', '-', 1) }) }))
      .where('batch_id', '=', line.batchId)
      .where('position', '=', line.position)
      .where('claimed_by', '=', instance)
      .where('outcome', 'is', null)
      .execute();
  }

  /**
   * Records a line's outcome and its ledger row in one transaction. The outcome is written only if the line
   * has none yet; the row (what the upstream billed for this execution) is stored either way. Resolves to
   * whether this outcome is the line's.
   */
  async recordOutcome(line: Pick<ClaimedLine, 'batchId' | 'position'>, result: { outcome: 'succeeded' | 'errored'; statusCode: number; requestId: string | null; response: string }, row: UsageRecord | undefined, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (row) await insertUsageRecords(trx, [row]);
      const updated = await trx
        .updateTable('batch_lines')
        .set({ outcome: result.outcome, status_code: result.statusCode, request_id: result.requestId, response: result.response, ended_at: now, claimed_by: null, lease_until: null })
        .where('batch_id', '=', line.batchId)
        .where('position', '=', line.position)
        .where('outcome', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await countOutcomes(trx, line.batchId, result.outcome, 1, now);
      return true;
    });
  }

  /** Ends a line that never ran (`canceled`, `expired`) or that ran without an answer to keep: no ledger row. */
  async recordUnanswered(line: Pick<ClaimedLine, 'batchId' | 'position'>, outcome: LineOutcome, now: number, answer?: { statusCode: number; response: string }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('batch_lines')
        .set({ outcome, ended_at: now, claimed_by: null, lease_until: null, ...(answer && { status_code: answer.statusCode, response: answer.response }) })
        .where('batch_id', '=', line.batchId)
        .where('position', '=', line.position)
        .where('outcome', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await countOutcomes(trx, line.batchId, outcome, 1, now);
      return true;
    });
  }

  /** Gives an upstream batch's lines still open to the gateway's runner (the upstream refused them): they run as any line. */
  async handBackToGateway(upstreamBatchId: string): Promise<void> {
    await this.db.updateTable('batch_lines').set({ upstream_batch_id: null }).where('upstream_batch_id', '=', upstreamBatchId).where('outcome', 'is', null).execute();
  }

  /**
   * The lines forwarded to an upstream batch that have no outcome yet, with their bodies, in position order, a
   * page of `pageSize` at a time: an upstream batch may hold 256 MB of requests (Anthropic's bound), never
   * read whole. Each page is a keyset query on the batch's own lines (`batch_lines_open`: outcome, batch,
   * position), so paging costs no scan of other batches' lines.
   */
  async *forwardedLinePages(batchId: string, upstreamBatchId: string, pageSize = forwardedLinesPerPage): AsyncGenerator<Array<{ position: number; customId: string; body: string }>> {
    for (let after = -1; ; ) {
      const rows = await this.db
        .selectFrom('batch_lines')
        .select(['position', 'custom_id', 'body'])
        .where('outcome', 'is', null)
        .where('batch_id', '=', batchId)
        .where('position', '>', after)
        .where('upstream_batch_id', '=', upstreamBatchId)
        .orderBy('position')
        .limit(pageSize)
        .execute();
      if (rows.length === 0) return;
      yield rows.map((row) => ({ position: Number(row.position), customId: row.custom_id, body: row.body }));
      after = Number(rows.at(-1)!.position);
    }
  }

  /**
   * The same lines without their bodies: position and custom_id, all of them or the first `limit`. What ending
   * the lines needs (results matched by custom_id, a cancel, an expiry): a few dozen bytes a line.
   */
  async forwardedLineIds(batchId: string, upstreamBatchId: string, limit?: number): Promise<Array<{ position: number; customId: string }>> {
    let query = this.db
      .selectFrom('batch_lines')
      .select(['position', 'custom_id'])
      .where('outcome', 'is', null)
      .where('batch_id', '=', batchId)
      .where('upstream_batch_id', '=', upstreamBatchId)
      .orderBy('position');
    if (limit !== undefined) query = query.limit(limit);
    const rows = await query.execute();
    return rows.map((row) => ({ position: Number(row.position), customId: row.custom_id }));
  }

  /** Stores the ledger row of an execution that has no outcome (cut by a shutdown: the line runs again). */
  async recordRowOnly(row: UsageRecord): Promise<void> {
    await this.db.transaction().execute((trx) => insertUsageRecords(trx, [row]));
  }

  /**
   * The sweep every runner makes each round: lines of canceling batches, and of batches past their expiry,
   * that no live lease holds become `canceled` or `expired` (a line still running finishes and keeps its
   * own outcome), and a batch whose lines all have one ends. Safe to run from every instance at once: each
   * line changes once (`outcome is null`) and is counted by the transaction that changed it.
   */
  async sweep(now: number): Promise<void> {
    await this.failAbandonedValidations(now);
    const open = await this.db
      .selectFrom('batches')
      .select(['id', 'status', 'expires_at'])
      .where('status', 'in', ['in_progress', 'canceling'])
      .where((eb) => eb.or([eb('status', '=', 'canceling'), eb('expires_at', '<=', now)]))
      .execute();
    for (const batch of open) {
      const outcome: LineOutcome = batch.status === 'canceling' ? 'canceled' : 'expired';
      await this.db.transaction().execute(async (trx) => {
        const closed = await trx
          .updateTable('batch_lines')
          .set({ outcome, ended_at: now, claimed_by: null, lease_until: null })
          .where('batch_id', '=', batch.id)
          .where('outcome', 'is', null)
          // A forwarded line is ended by its upstream batch's poller, with what the upstream did with it.
          .where('upstream_batch_id', 'is', null)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
          .executeTakeFirst();
        await countOutcomes(trx, batch.id, outcome, Number(closed.numUpdatedRows), now);
      });
    }
  }

  /**
   * Fails the batches left `validating` longer than {@link abandonedValidationMs}: their instance stopped
   * (a crash, a restart) while storing their lines, so they never ran a line; their owner sees them failed
   * with `validation_interrupted` and creates them again. Whichever instance sweeps first does it; doing it
   * twice changes nothing (only a `validating` batch is ended).
   */
  private async failAbandonedValidations(now: number): Promise<void> {
    const abandoned = await this.db
      .selectFrom('batches')
      .select(['id', 'metadata'])
      .where('status', '=', 'validating')
      .where('created_at', '<', now - abandonedValidationMs)
      .execute();
    for (const batch of abandoned) {
      const error = { code: 'validation_interrupted', line: null, param: null, message: 'The gateway stopped while storing this batch\'s requests, so none of them ran; create the batch again.' };
      await this.failValidation(batch.id, { ...(JSON.parse(batch.metadata) as Record<string, unknown>), errors: [error] }, now);
    }
  }

  /**
   * Deletes a validating batch's lines, {@link linesPerDelete} per statement (by position), so no transaction
   * is long, and the upstream batches they were planned for (none was sent: no poller takes one up yet).
   */
  private async deleteLines(batchId: string): Promise<void> {
    await this.db.deleteFrom('upstream_batches').where('batch_id', '=', batchId).execute();
    const last = await this.db.selectFrom('batch_lines').select((eb) => eb.fn.max('position').as('last')).where('batch_id', '=', batchId).executeTakeFirst();
    if (last?.last === null || last?.last === undefined) return;
    for (let from = 0; from <= Number(last.last); from += linesPerDelete) {
      await this.db.deleteFrom('batch_lines').where('batch_id', '=', batchId).where('position', '>=', from).where('position', '<', from + linesPerDelete).execute();
    }
  }
}

/**
 * Stores lines from `firstPosition` on, at most {@link linesPerInsert} per statement. The upstream batches they
 * go to come first, in the same transaction: no line is ever forwarded without its upstream batch's record.
 */
async function insertLines(trx: GatewayDb, batchId: string, firstPosition: number, lines: readonly NewBatchLine[], upstreamBatches: readonly NewUpstreamBatch[], createdAt: number): Promise<void> {
  for (const upstream of upstreamBatches) {
    await trx
      .insertInto('upstream_batches')
      .values({ id: upstream.id, batch_id: batchId, model: upstream.model, provider_id: upstream.providerId, upstream_model: upstream.upstreamModel, endpoint: upstream.endpoint, upstream_input_file_id: null, upstream_id: null, upstream_status: null, claimed_by: null, lease_until: null, cancel_sent_at: null, created_at: createdAt, ended_at: null })
      .execute();
  }
  for (let start = 0; start < lines.length; start += linesPerInsert) {
    const rows = lines.slice(start, start + linesPerInsert).map((line, index) => ({ batch_id: batchId, position: firstPosition + start + index, custom_id: line.customId, endpoint: line.endpoint, body: line.body, upstream_batch_id: line.upstreamBatchId ?? null }));
    await trx.insertInto('batch_lines').values(rows).execute();
  }
}

/** A new batch's row: `ended` at once when made with nothing to run, else `in_progress`. */
function newRow(batch: NewBatch): BatchRow {
  return {
    id: batch.id,
    account_id: batch.accountId,
    key_id: batch.keyId,
    protocol: batch.protocol,
    status: batch.ended ? 'ended' : 'in_progress',
    metadata: JSON.stringify(batch.metadata ?? {}),
    line_count: batch.lines.length,
    succeeded: 0,
    errored: 0,
    canceled: 0,
    expired: 0,
    created_at: batch.createdAt,
    started_at: null,
    ended_at: batch.ended ? batch.createdAt : null,
    expires_at: batch.expiresAt,
    cancel_requested_at: null,
    finish_claimed_by: null,
    finish_lease_until: null,
    finished_at: null,
    finish: null,
  };
}

/**
 * Adds `count` lines to the batch's `outcome` count and ends the batch once every line has an outcome. The
 * update locks the batch's row (PostgreSQL) or the database (SQLite) until the transaction ends, so two
 * outcomes recorded at once both count.
 */
async function countOutcomes(trx: Transaction<Database>, batchId: string, outcome: LineOutcome, count: number, now: number): Promise<void> {
  if (count > 0) {
    await trx
      .updateTable('batches')
      .set((eb) => ({ [outcome]: eb(eb.ref(outcome), '+', count) }))
      .where('id', '=', batchId)
      .execute();
  }
  await trx
    .updateTable('batches')
    .set({ status: 'ended', ended_at: now })
    .where('id', '=', batchId)
    .where('status', '!=', 'ended')
    .where(sql<boolean>`succeeded + errored + canceled + expired >= line_count`)
    .execute();
}

function toRecord(row: BatchRow): BatchRecord {
  const counts = { succeeded: Number(row.succeeded), errored: Number(row.errored), canceled: Number(row.canceled), expired: Number(row.expired) };
  return {
    id: row.id,
    accountId: row.account_id,
    keyId: row.key_id,
    protocol: row.protocol,
    status: row.status as BatchStatus,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    lineCount: Number(row.line_count),
    counts: { ...counts, processing: Number(row.line_count) - counts.succeeded - counts.errored - counts.canceled - counts.expired },
    createdAt: Number(row.created_at),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    endedAt: row.ended_at === null ? null : Number(row.ended_at),
    expiresAt: Number(row.expires_at),
    cancelRequestedAt: row.cancel_requested_at === null ? null : Number(row.cancel_requested_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    finish: row.finish === null ? null : (JSON.parse(row.finish) as Record<string, unknown>),
  };
}

import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { projectRoot } from '../project-root.js';
import { AsyncMutex, sqliteWriteGate } from './sqlite-write-gate.js';
import { WorkerRequests, type WorkerReply } from './worker-requests.js';

// Plain JavaScript, found from the project root, so the same file runs from the sources and from the bundle.
const workerPath = join(projectRoot, 'server/store/sqlite-worker.mjs');

/** Rows a cursor brings over per message when the caller names no chunk size. */
const defaultChunkRows = 1_000;

/**
 * A Kysely dialect that runs an SQLite file's statements in a worker thread (sqlite-worker.mjs); by default
 * SELECTs only, on read-only connections of its own. better-sqlite3 is synchronous: on the event loop, a
 * report over two million ledger rows held every request for seconds, and an export for over a minute (issue 33).
 *
 * `executeQuery` posts the compiled SQL and its parameters and awaits the rows. `streamQuery` opens a
 * cursor in the thread and asks for the next chunk only when the consumer wants more (backpressure);
 * ending the iteration early (`break`, a client gone) closes the cursor and its connection. Reads only:
 * no transactions, and a statement that returns no rows is refused.
 *
 * With `writable`, the thread holds one read-write connection instead and runs any statement: the batch
 * store's claims and outcomes, several statements a line, took ~16% of the event loop's CPU when they ran
 * on it (issue 37). The driver hands that connection to one caller at a time (a mutex, as Kysely's
 * SqliteDriver does), so a transaction's BEGIN IMMEDIATE ... COMMIT are its statements alone; a
 * transaction also holds the file's write gate (sqlite-write-gate.ts), so the event loop never runs a
 * write of its own, and sleeps on SQLite's lock, while the thread waits for the event loop's next statement.
 *
 * @example
 * const reads = new Kysely<Database>({ dialect: new SqliteWorkerDialect('/data/gateway.sqlite') });
 * for await (const row of reads.selectFrom('usage_records').selectAll().stream(1000)) write(row);
 * const batches = new Kysely<Database>({ dialect: new SqliteWorkerDialect('/data/gateway.sqlite', { writable: true }) });
 */
export class SqliteWorkerDialect implements Dialect {
  constructor(
    private readonly file: string,
    private readonly options: { writable?: boolean } = {},
  ) {}

  createDriver(): Driver {
    return this.options.writable ? new SqliteWriteDriver(this.file) : new SqliteReadDriver(this.file);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

/** The drivers of this process whose thread may be running. */
const drivers = new Set<SqliteReadDriver>();

/**
 * How many cursors the reader threads of this process hold open, as the threads count them: tests check
 * that an export whose client left, or a stream broken off, closed its own.
 */
export async function openSqliteReadCursors(): Promise<number> {
  const counts = await Promise.all([...drivers].map(async (driver) => (driver.running ? ((await driver.ask({ kind: 'status' })).openCursors as number) : 0)));
  return counts.reduce((sum, count) => sum + count, 0);
}

class SqliteReadDriver implements Driver {
  protected readonly thread: WorkerRequests;

  constructor(file: string, writable = false) {
    const name = writable ? 'batch store: thread' : 'usage ledger: reader thread';
    this.thread = new WorkerRequests(() => new Worker(workerPath, { workerData: { file, writable } }), name);
  }

  async init(): Promise<void> {
    drivers.add(this);
  }

  get running(): boolean {
    return this.thread.running;
  }

  /** Every query is its own message, so connections are free to share: each one only names the thread. */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new SqliteReadConnection((message) => this.ask(message));
  }
  async releaseConnection(): Promise<void> {}

  async beginTransaction(_connection: DatabaseConnection): Promise<void> {
    throw new Error('the ledger reader runs no transactions');
  }
  async commitTransaction(_connection: DatabaseConnection): Promise<void> {}
  async rollbackTransaction(_connection: DatabaseConnection): Promise<void> {}

  async destroy(): Promise<void> {
    drivers.delete(this);
    await this.thread.close();
  }

  /** Posts one message to the thread (started on first use) and resolves with its answer. */
  ask(message: Record<string, unknown>): Promise<WorkerReply> {
    return this.thread.send(message);
  }
}

/**
 * The writable thread's driver: one connection, handed out exclusively; transactions are statements in it,
 * BEGIN IMMEDIATE so the write lock is taken (or waited for, in the thread) before the first read, and
 * under the file's write gate.
 */
class SqliteWriteDriver extends SqliteReadDriver {
  private readonly connection = new AsyncMutex();
  /** The connection's release while a caller holds it. */
  private releaseConnectionMutex: (() => void) | undefined;
  private readonly gate: AsyncMutex;
  /** The gate's release while a transaction runs. */
  private unlockGate: (() => void) | undefined;

  constructor(file: string) {
    super(file, true);
    this.gate = sqliteWriteGate(file);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    this.releaseConnectionMutex = await this.connection.lock();
    return super.acquireConnection();
  }
  override async releaseConnection(): Promise<void> {
    const release = this.releaseConnectionMutex;
    this.releaseConnectionMutex = undefined;
    release?.();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const unlock = await this.gate.lock();
    try {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    } catch (error) {
      unlock();
      throw error;
    }
    this.unlockGate = unlock;
  }
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection, 'commit');
  }
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection, 'rollback');
  }

  private async endTransaction(connection: DatabaseConnection, statement: string): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw(statement));
    } finally {
      const unlock = this.unlockGate;
      this.unlockGate = undefined;
      unlock?.();
    }
  }
}

let nextCursorId = 1;

class SqliteReadConnection implements DatabaseConnection {
  constructor(private readonly ask: (message: Record<string, unknown>) => Promise<WorkerReply>) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const reply = await this.ask({ kind: 'query', sql: compiled.sql, parameters: compiled.parameters });
    // A write (writable thread only): what it changed, as Kysely's SqliteDriver reports it.
    if (reply.changes !== undefined) {
      return { rows: [], numAffectedRows: BigInt(reply.changes as number | bigint), insertId: BigInt(reply.lastInsertRowid as number | bigint) };
    }
    return { rows: reply.rows as R[] };
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = defaultChunkRows): AsyncIterableIterator<QueryResult<R>> {
    const cursorId = nextCursorId++;
    await this.ask({ kind: 'open', cursorId, sql: compiled.sql, parameters: compiled.parameters });
    let done = false;
    try {
      while (!done) {
        const reply = await this.ask({ kind: 'next', cursorId, size: chunkSize });
        done = reply.done as boolean;
        yield { rows: reply.rows as R[] };
      }
    } finally {
      // The consumer stopped early (or a chunk failed): the thread drops the iterator and its connection.
      if (!done) await this.ask({ kind: 'close', cursorId }).catch(() => undefined);
    }
  }
}

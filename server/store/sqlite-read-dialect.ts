import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { projectRoot } from '../project-root.js';
import { WorkerRequests, type WorkerReply } from './worker-requests.js';

// Plain JavaScript, found from the project root, so the same file runs from the sources and from the bundle.
const workerPath = join(projectRoot, 'server/store/sqlite-read-worker.mjs');

/** Rows a cursor brings over per message when the caller names no chunk size. */
const defaultChunkRows = 1_000;

/**
 * A Kysely dialect that runs SELECTs on an SQLite file from a worker thread (sqlite-read-worker.mjs), with
 * read-only connections of its own. better-sqlite3 is synchronous: on the event loop, a report over two
 * million ledger rows held every request for seconds, and an export for over a minute (issue 33).
 *
 * `executeQuery` posts the compiled SQL and its parameters and awaits the rows. `streamQuery` opens a
 * cursor in the thread and asks for the next chunk only when the consumer wants more (backpressure);
 * ending the iteration early (`break`, a client gone) closes the cursor and its connection. Reads only:
 * no transactions, and a statement that returns no rows is refused.
 *
 * @example
 * const reads = new Kysely<Database>({ dialect: new SqliteReadDialect('/data/gateway.sqlite') });
 * for await (const row of reads.selectFrom('usage_records').selectAll().stream(1000)) write(row);
 */
export class SqliteReadDialect implements Dialect {
  constructor(private readonly file: string) {}

  createDriver(): Driver {
    return new SqliteReadDriver(this.file);
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
  private readonly thread: WorkerRequests;

  constructor(file: string) {
    this.thread = new WorkerRequests(() => new Worker(workerPath, { workerData: { file } }), 'usage ledger: reader thread');
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

  async beginTransaction(): Promise<void> {
    throw new Error('the ledger reader runs no transactions');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}

  async destroy(): Promise<void> {
    drivers.delete(this);
    await this.thread.close();
  }

  /** Posts one message to the thread (started on first use) and resolves with its answer. */
  ask(message: Record<string, unknown>): Promise<WorkerReply> {
    return this.thread.send(message);
  }
}

let nextCursorId = 1;

class SqliteReadConnection implements DatabaseConnection {
  constructor(private readonly ask: (message: Record<string, unknown>) => Promise<WorkerReply>) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { rows } = await this.ask({ kind: 'query', sql: compiled.sql, parameters: compiled.parameters });
    return { rows: rows as R[] };
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

import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';

/**
 * One holder at a time, the others waiting in order (a promise chain, as Kysely's own SqliteDriver keeps its
 * connection): the thread dialect's connection, and the write gate below.
 */
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves when the caller holds the mutex, with the function that lets the next one in. */
  async lock(): Promise<() => void> {
    let unlock!: () => void;
    const held = new Promise<void>((resolve) => (unlock = resolve));
    const before = this.tail;
    this.tail = before.then(() => held);
    await before;
    return unlock;
  }
}

/** The gate of each SQLite file this process opened, by path. */
const gates = new Map<string, AsyncMutex>();

/**
 * The gate between the event loop's own writes to an SQLite file and the transactions a worker thread runs
 * on it (sqlite-worker-dialect.ts with `writable`). A thread's transaction takes SQLite's write lock and then
 * waits for the event loop to post each next statement; if the event loop meanwhile ran a write of its own,
 * better-sqlite3 would sleep in its busy handler on the event loop, the thread's next statement would never
 * be posted, and every request would stand still until busy_timeout failed the write. So both take this gate
 * first, and whoever waits for it waits asynchronously. Reads need no gate (WAL), and a thread's single
 * statement needs none either: it waits for the lock in the thread, where sleeping holds up nothing.
 */
export function sqliteWriteGate(file: string): AsyncMutex {
  let gate = gates.get(file);
  if (!gate) gates.set(file, (gate = new AsyncMutex()));
  return gate;
}

/**
 * Kysely's SqliteDialect for the event loop's connection, its writes and transactions taken through the
 * file's {@link sqliteWriteGate}.
 */
export class GatedSqliteDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly gate: AsyncMutex,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new GatedDriver(super.createDriver(), this.gate);
  }
}

class GatedConnection implements DatabaseConnection {
  /** Set while this connection runs a transaction: it holds the gate from BEGIN to COMMIT or ROLLBACK. */
  unlockTransaction: (() => void) | undefined;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly gate: AsyncMutex,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.unlockTransaction || compiled.query.kind === 'SelectQueryNode') return this.inner.executeQuery<R>(compiled);
    const unlock = await this.gate.lock();
    try {
      return await this.inner.executeQuery<R>(compiled);
    } finally {
      unlock();
    }
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}

class GatedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly gate: AsyncMutex,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new GatedConnection(await this.inner.acquireConnection(), this.gate);
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as GatedConnection).inner);
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const gated = connection as GatedConnection;
    const unlock = await this.gate.lock();
    try {
      await this.inner.beginTransaction(gated.inner, settings);
    } catch (error) {
      unlock();
      throw error;
    }
    gated.unlockTransaction = unlock;
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection as GatedConnection, () => this.inner.commitTransaction((connection as GatedConnection).inner));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection as GatedConnection, () => this.inner.rollbackTransaction((connection as GatedConnection).inner));
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  private async endTransaction(connection: GatedConnection, end: () => Promise<void>): Promise<void> {
    try {
      await end();
    } finally {
      const unlock = connection.unlockTransaction;
      connection.unlockTransaction = undefined;
      unlock?.();
    }
  }
}

import type { Logger } from 'pino';
import type pgModule from 'pg';
import type {
  PoolClient,
  QueryArrayConfig,
  QueryArrayResult,
  QueryConfig,
  QueryConfigValues,
  QueryResult,
  QueryResultRow,
  Submittable,
} from 'pg';
import { markStoreError } from './store-unavailable.js';

export interface PostgresPoolOptions {
  /** How long getting a connection may take, new or from the busy pool, before the query fails. */
  connectTimeoutMs: number;
  /** How long a query may go unanswered before its connection is dropped as dead. 0 for no limit. */
  queryTimeoutMs: number;
  /** Told about connections lost while idle; without it they are dropped silently (the key CLI). */
  logger?: Logger;
  /** Most connections at once (10 unless given). */
  max?: number;
  /** The server cancels a statement running longer (PostgreSQL's `statement_timeout`); none unless given. */
  statementTimeoutMs?: number;
  /** What the pool's connections call themselves in `pg_stat_activity` ({@link postgresApplicationName} unless given). */
  applicationName?: string;
}

/** What the gateway calls itself in `pg_stat_activity`, unless the connection string names something else. */
export const postgresApplicationName = 'unified-model-api';

/**
 * A pg pool that outlives its server: a restart, a failover or `pg_terminate_backend` costs the queries
 * running at that moment (they reject, and callers answer 503 or retry), never the process.
 *
 * - pg emits `error` on a client whose connection drops: on the pool for an idle one, on the client
 *   itself for one checked out. Node ends the process on an `error` nobody listens to, so both are heard;
 *   the pool has already discarded the dead client, and a checked-out one's query rejects by itself.
 * - A server that vanished without closing its sockets (a network partition, a VM gone) answers nothing:
 *   the connect timeout bounds the wait for a connection, and the query timeout drops a connection whose
 *   query never returns, so it cannot go back to the pool and hang every query after it.
 */
export function createPostgresPool(pg: typeof pgModule, connectionString: string, options: PostgresPoolOptions): pgModule.Pool {
  const pool = new (markingPool(pg))({
    connectionString,
    // A connection string's own `application_name` wins (pg reads it over these options).
    application_name: options.applicationName ?? postgresApplicationName,
    max: options.max ?? 10,
    ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }),
    connectionTimeoutMillis: options.connectTimeoutMs,
    Client: markingClient(pg, options.queryTimeoutMs),
    // BIGINT columns hold Unix seconds; they fit a JS number, so parse them as one.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', (error) => {
    // Only the code and message: the error carries the client, and with it the connection's password.
    const { code } = error as Error & { code?: string };
    options.logger?.warn({ code, reason: error.message }, 'PostgreSQL: an idle connection was lost; the pool opens a new one when needed');
  });
  pool.on('connect', (client) => {
    client.on('error', () => {
      // The query that was running rejects with this error and its caller handles it; see above.
    });
  });
  return pool;
}

/** A pool whose failures to give a connection (refused, timed out) are marked as the store's (store-unavailable.ts). */
function markingPool(pg: typeof pgModule): typeof pgModule.Pool {
  class MarkingPool extends pg.Pool {
    override connect(): Promise<PoolClient>;
    override connect(callback: (err: Error | undefined, client: PoolClient | undefined, done: (release?: boolean | Error) => void) => void): void;
    override connect(callback?: (err: Error | undefined, client: PoolClient | undefined, done: (release?: boolean | Error) => void) => void): Promise<PoolClient> | void {
      if (callback) return super.connect(callback);
      const connecting = super.connect();
      connecting.catch(markStoreError);
      return connecting;
    }
  }
  return MarkingPool;
}

/**
 * A pg client whose query errors are marked as the store's and that, with a `timeoutMs`, destroys its
 * socket when a query goes unanswered that long. pg's own `query_timeout` only rejects the query and
 * leaves the connection waiting for the answer, so the pool would hand that connection out again with
 * every later query stuck behind the lost one.
 */
function markingClient(pg: typeof pgModule, timeoutMs: number): typeof pgModule.Client {
  class MarkingClient extends pg.Client {
    // pg's own overloads, each answered by the one below: it hands every form on to pg as it came.
    override query<T extends Submittable>(queryStream: T): T;
    override query<R extends unknown[] = unknown[], I = unknown[]>(queryConfig: QueryArrayConfig<I>, values?: QueryConfigValues<I>): Promise<QueryArrayResult<R>>;
    override query<R extends QueryResultRow = QueryResultRow, I = unknown>(queryConfig: QueryConfig<I>): Promise<QueryResult<R>>;
    override query<R extends QueryResultRow = QueryResultRow, I = unknown[]>(queryTextOrConfig: string | QueryConfig<I>, values?: QueryConfigValues<I>): Promise<QueryResult<R>>;
    override query<R extends unknown[] = unknown[], I = unknown[]>(queryConfig: QueryArrayConfig<I>, callback: (err: Error, result: QueryArrayResult<R>) => void): void;
    override query<R extends QueryResultRow = QueryResultRow, I = unknown[]>(queryTextOrConfig: string | QueryConfig<I>, callback: (err: Error, result: QueryResult<R>) => void): void;
    override query<R extends QueryResultRow = QueryResultRow, I = unknown[]>(queryText: string, values: QueryConfigValues<I>, callback: (err: Error, result: QueryResult<R>) => void): void;
    override query(...args: unknown[]): unknown {
      const result: unknown = Reflect.apply(super.query, this, args);
      // Kysely asks for promises; anything else (a cursor, a callback) keeps pg's behaviour.
      if (result instanceof Promise) {
        const timer = timeoutMs > 0 ? setTimeout(() => this.dropConnection(), timeoutMs).unref() : undefined;
        result.then(
          () => clearTimeout(timer),
          (error: unknown) => {
            clearTimeout(timer);
            markStoreError(error);
          },
        );
      }
      return result;
    }

    private dropConnection(): void {
      this.connection.stream.destroy();
    }
  }
  return MarkingClient;
}

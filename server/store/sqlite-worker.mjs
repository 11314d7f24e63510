// A thread of SQLite connections (see sqlite-worker-dialect.ts): the ledger's reader thread, or with
// `workerData.writable` the batch store's thread. Plain JavaScript because Node 20 does not apply
// `--import tsx` to a worker's entry module.
//
// Writable: one read-write connection, set up as server/store/database.ts sets the event loop's (WAL,
// busy_timeout); it runs any statement, the event loop's driver hands it to one transaction at a time, and a
// statement that returns no rows is answered with `changes` and `lastInsertRowid`, as Kysely's SqliteDriver
// reports them. Waiting for SQLite's write lock (busy_timeout) sleeps this thread, not the event loop.
//
// Read-only:
// Read-only connections to the gateway's file (WAL lets them read while the writer thread writes): one for
// whole queries, answered in order, and one per open cursor, because better-sqlite3 refuses every other
// statement on a connection while an iterator is open on it. A cursor reads the next chunk only when the
// event loop asks for it, and `close` returns its iterator and closes its connection.
import { parentPort, workerData } from 'node:worker_threads';
import { loadSqlite } from './load-sqlite.mjs';

const SQLite = await loadSqlite();

const writable = workerData.writable === true;

function connect() {
  const sqlite = new SQLite(workerData.file, { readonly: !writable, fileMustExist: true });
  if (writable) sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

const shared = connect();
/** Open cursors by ID: their own connection and the statement's iterator. */
const cursors = new Map();

function closeCursor(cursorId) {
  const cursor = cursors.get(cursorId);
  if (!cursor) return;
  cursors.delete(cursorId);
  cursor.rows.return?.();
  cursor.sqlite.close();
}

const handlers = {
  query({ sql, parameters }) {
    const statement = shared.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) };
    if (!writable) throw new Error('the ledger reader runs only statements that return rows');
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], changes, lastInsertRowid };
  },
  open({ cursorId, sql, parameters }) {
    const sqlite = connect();
    try {
      cursors.set(cursorId, { sqlite, rows: sqlite.prepare(sql).iterate(parameters) });
    } catch (error) {
      sqlite.close();
      throw error;
    }
    return {};
  },
  next({ cursorId, size }) {
    const cursor = cursors.get(cursorId);
    if (!cursor) throw new Error(`no open cursor ${cursorId}`);
    const rows = [];
    while (rows.length < size) {
      const step = cursor.rows.next();
      if (step.done) {
        closeCursor(cursorId);
        return { rows, done: true };
      }
      rows.push(step.value);
    }
    return { rows, done: false };
  },
  close({ cursorId }) {
    closeCursor(cursorId);
    return {};
  },
  /** How many cursors are open: what the tests ask to see that a client that left released its cursor. */
  status() {
    return { openCursors: cursors.size };
  },
};

parentPort.on('message', (message) => {
  try {
    parentPort.postMessage({ id: message.id, ...handlers[message.kind](message) });
  } catch (error) {
    if (message.cursorId !== undefined) closeCursor(message.cursorId);
    parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});

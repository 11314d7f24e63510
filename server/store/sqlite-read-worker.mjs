// The SQLite ledger's reader thread (see sqlite-read-dialect.ts). Plain JavaScript because Node 20 does not
// apply `--import tsx` to a worker's entry module.
//
// Read-only connections to the gateway's file (WAL lets them read while the writer thread writes): one for
// whole queries, answered in order, and one per open cursor, because better-sqlite3 refuses every other
// statement on a connection while an iterator is open on it. A cursor reads the next chunk only when the
// event loop asks for it, and `close` returns its iterator and closes its connection.
import { parentPort, workerData } from 'node:worker_threads';
import { loadSqlite } from './load-sqlite.mjs';

const SQLite = await loadSqlite();

function connect() {
  const sqlite = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
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
    if (!statement.reader) throw new Error('the ledger reader runs only statements that return rows');
    return { rows: statement.all(parameters) };
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

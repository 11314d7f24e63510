// better-sqlite3 for the Node running the gateway. Plain JavaScript because the ledger's writer thread
// (usage/sqlite-ledger-worker.mjs) loads it too.
//
// 12.x is built for Node 20 and aborts Node >= 24.19 when the garbage collector finalizes a statement
// (nodejs/node#65446); 13.x fixes that but refuses Node < 22. Both are installed (13 under the alias
// better-sqlite3-node22; its binaries come inside the package) and each Node gets the one that works on it.
const nodeMajor = Number(process.versions.node.split('.')[0]);

export const sqliteModuleName = nodeMajor >= 22 ? 'better-sqlite3-node22' : 'better-sqlite3';

/** The better-sqlite3 `Database` class for this Node. */
export async function loadSqlite() {
  const module = await import(sqliteModuleName);
  return module.default;
}

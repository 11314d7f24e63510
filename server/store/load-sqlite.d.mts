import type SQLite from 'better-sqlite3';

export declare const sqliteModuleName: 'better-sqlite3' | 'better-sqlite3-node22';
export declare function loadSqlite(): Promise<typeof SQLite>;

/** The SQLite handle the engine's stores take: better-sqlite3's `Database`, named here so only store/sqlite imports the driver. */
export type { Database } from 'better-sqlite3';

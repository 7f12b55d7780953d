/**
 * Connections to a PostgreSQL store (issue 13) through node-postgres (`pg`): a pool per process,
 * 64-bit integers read as JavaScript numbers (ids and epoch ms stay below 2^53), the schema
 * migrated on first use, one helper for a transaction, and PostgreSQL's failures in plain words
 * (STORE_UNREACHABLE, DISK_FULL, DB_BUSY …) like the SQLite store's (sqlite/storage-errors.ts).
 */
import pg from 'pg';
import { CodedError } from '../../../shared/types/result';
import { migratePostgres } from './migrations';

/** A pool of one store's connections; `url` is the store URL it was opened with, password left out. */
export interface PostgresStore {
  pool: pg.Pool;
  /** `postgres://user@host:port/db`, without the password: for messages. */
  url: string;
  /** Ends every connection of the pool. Safe to call twice. */
  close(): Promise<void>;
}

/** `pg` type parsers: int8 (ids, epoch ms, counts) as numbers, numeric as numbers; the rest as pg does. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

/** True when `value` names a PostgreSQL store (`postgres://` or `postgresql://`), not a SQLite file. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** A store URL as messages show it: the password replaced by `***`. */
export function redactStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/**
 * Opens a pool on `url` (postgres://USER[:PASSWORD]@HOST[:PORT]/DB, libpq's URL form), checks one
 * connection and brings the schema up to date (postgres/migrations).
 * @param maxConnections the pool's size @default 4 (claims, commits, progress reads and the heartbeat)
 * @throws CodedError INVALID_STORE_URL, STORE_UNREACHABLE, SCHEMA_TOO_NEW
 */
export async function openPostgresStore(url: string, maxConnections = 4): Promise<PostgresStore> {
  if (!isPostgresUrl(url)) throw new CodedError('INVALID_STORE_URL', `${url} is not a postgres:// URL`);
  try {
    new URL(url);
  } catch {
    throw new CodedError('INVALID_STORE_URL', `${redactStoreUrl(url)} is not a valid URL (postgres://USER@HOST:PORT/DB)`);
  }
  const shown = redactStoreUrl(url);
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, types: TYPES, connectionTimeoutMillis: 10_000, application_name: 'crawlbench' });
  // An idle client's error (the server restarted) must not crash the process: the next query fails instead.
  pool.on('error', () => undefined);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw postgresError(error, shown);
  }
  try {
    await migratePostgres(client);
  } catch (error) {
    client.release();
    await pool.end().catch(() => undefined);
    throw postgresError(error, shown);
  }
  client.release();
  let closed = false;
  return {
    pool,
    url: shown,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * Runs `work` in one transaction on a pooled connection (BEGIN … COMMIT; ROLLBACK when it
 * throws), and returns what it returned. @throws what `work` threw, or the commit's error, in
 * plain words ({@link postgresError})
 */
export async function inTransaction<T>(store: PostgresStore, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await store.pool.connect();
  } catch (error) {
    throw postgresError(error, store.url);
  }
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    throw postgresError(error, store.url);
  } finally {
    client.release(broken);
  }
}

/** PostgreSQL SQLSTATE classes and codes that mean the store refused, with the crawler's code for each. */
const POSTGRES_CODES: Record<string, { code: string; words: string }> = {
  '53100': { code: 'DISK_FULL', words: "the PostgreSQL server's disk is full" },
  '53200': { code: 'DB_IO_ERROR', words: 'the PostgreSQL server ran out of memory' },
  '53300': { code: 'STORE_UNREACHABLE', words: 'the PostgreSQL server has no free connection (max_connections)' },
  '57P01': { code: 'STORE_UNREACHABLE', words: 'the PostgreSQL server shut down' },
  '57P02': { code: 'STORE_UNREACHABLE', words: 'the PostgreSQL server crashed' },
  '57P03': { code: 'STORE_UNREACHABLE', words: 'the PostgreSQL server is starting or stopping' },
  '58030': { code: 'DB_IO_ERROR', words: 'the PostgreSQL server reported an I/O error' },
  '28000': { code: 'STORE_UNREACHABLE', words: 'the PostgreSQL server refused the login' },
  '28P01': { code: 'STORE_UNREACHABLE', words: 'the PostgreSQL server refused the password' },
  '3D000': { code: 'STORE_UNREACHABLE', words: 'the database does not exist on the PostgreSQL server' },
  '25006': { code: 'DB_READONLY', words: 'the PostgreSQL server is read-only (a standby)' },
  '40P01': { code: 'DB_BUSY', words: 'PostgreSQL ended a deadlock' },
  '55P03': { code: 'DB_BUSY', words: 'a PostgreSQL lock was not available' },
};
/** Node's socket errors that mean the server cannot be reached. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);

/**
 * A PostgreSQL or socket failure as a CodedError in plain words (STORE_UNREACHABLE, DISK_FULL,
 * DB_IO_ERROR, DB_READONLY, DB_BUSY) naming the store and saying that committed work is kept; a
 * CodedError, or an error that is not the store refusing (a query's bug), is returned unchanged.
 */
export function postgresError(error: unknown, storeUrl: string): Error {
  if (error instanceof CodedError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  let known: { code: string; words: string } | undefined;
  if (typeof code === 'string') known = POSTGRES_CODES[code] ?? (NETWORK_CODES.has(code) ? { code: 'STORE_UNREACHABLE', words: `the PostgreSQL server cannot be reached (${code})` } : undefined);
  if (!known && /timeout exceeded when trying to connect|Connection terminated|encountered a connection error and is not queryable/i.test(message)) known = { code: 'STORE_UNREACHABLE', words: 'the PostgreSQL server did not answer' };
  if (!known) return error instanceof Error ? error : new Error(message);
  return Object.assign(new CodedError(known.code, `${known.words} (${message}) at ${storeUrl}; committed work is kept: fix it, then run the command again`), { cause: error });
}

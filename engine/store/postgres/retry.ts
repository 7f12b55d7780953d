/**
 * Transactions that several crawler processes run at once on one crawl (claims, commit batches,
 * the lease sweep) may deadlock or fail to serialize; PostgreSQL then rolls one back with SQLSTATE
 * 40P01 (deadlock_detected) or 40001 (serialization_failure), and running it again succeeds.
 */
import type pg from 'pg';
import { inTransaction, type PostgresStore } from './pool';

/** SQLSTATEs after which the whole transaction is run again. */
const RETRYABLE = new Set(['40P01', '40001']);

/** Tries of a transaction that PostgreSQL rolled back for a deadlock or a serialization failure. */
export const TRANSACTION_TRIES = 3;

/** True when `error` (or the error it wraps, pool.ts postgresError's `cause`) is a deadlock or serialization failure. */
export function isRetryable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE.has(code)) return true;
  }
  return false;
}

/**
 * Each store's write lane: the tail of the chain of write transactions this process runs on it.
 * One process's writes (commit batches, release flushes, status, the lease sweep) run one after
 * another, in the order asked, as the SQLite store's writer thread applies them: two of them
 * never wait on each other's row locks (a candidate insert waiting on a release flush's URL row
 * while the flush waits on a host row the commit holds was a deadlock seen at 20,000 pages).
 */
const lanes = new WeakMap<PostgresStore, Promise<unknown>>();

/**
 * Runs `work` in one transaction ({@link inTransaction}), again from the start (up to
 * {@link TRANSACTION_TRIES} tries in all) when PostgreSQL rolled it back for a deadlock or a
 * serialization failure. `work` must be safe to run again: everything it wrote was rolled back.
 * With `lane` (the default) it runs in the store's write lane, after this process's earlier
 * writes; `work` must not start another lane transaction of the same store (it would wait forever).
 * @throws the last try's error (DB_BUSY for a deadlock after every try), or `work`'s own error at once
 */
export async function inRetriedTransaction<T>(store: PostgresStore, work: (client: pg.PoolClient) => Promise<T>, options: { lane?: boolean } = {}): Promise<T> {
  const run = async (): Promise<T> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await inTransaction(store, work);
      } catch (error) {
        if (attempt >= TRANSACTION_TRIES || !isRetryable(error)) throw error;
      }
    }
  };
  if (options.lane === false) return run();
  const previous = lanes.get(store) ?? Promise.resolve();
  const mine = previous.then(run, run);
  // The lane goes on after a failure: the next write does not inherit this one's error.
  lanes.set(
    store,
    mine.catch(() => undefined),
  );
  return mine;
}

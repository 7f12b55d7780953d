/**
 * The store-writer thread (worker_threads entry point): owns the crawl's write connection and
 * applies the scheduler's writes (claims, commit batches, re-fetches, robots.txt entries, trap states, status) in the order they
 * were sent, each as one transaction, so no fetch and no scheduling decision waits on a commit or
 * on SQLite's WAL checkpoint (Signal Desktop's pattern: SQL on its own thread). Replies carry the
 * request's id; a failed write replies with the error's message and SQLite code.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { unpackCommitBatch } from './batch-codec';
import { openDatabase } from './connection';
import { createSqliteRowWriter } from './crawl-stores';
import { INLINKS_INDEX } from './sort-indexes';
import { isLockBusy } from './storage-errors';
import { WalBudget } from './wal-budget';
import { WalPresync } from './wal-presync';
import type { WriterRequest, WriterReply, WriterThreadInit } from './writer-protocol';
import { nameThisThread, STORE_WRITER_THREAD_NAME } from '../../worker/thread-name';

const port = parentPort;
if (!port) throw new Error('writer-thread must run as a worker thread');
nameThisThread(STORE_WRITER_THREAD_NAME);
const init = workerData as WriterThreadInit;
const db = openDatabase(init.file, { ...(init.nativeBinding ? { nativeBinding: init.nativeBinding } : {}) });
/**
 * The writer's page cache, KiB (SQLite's default is 2,000 KiB). Every commit updates B-trees at
 * random places (the URL-seen test's unique key, spellings by URL, pages and URL rows by id): with
 * the default cache most of those pages are read again from the OS for each batch. 16 MiB, not 32: at
 * 100,000 synthetic pages two alternating pairs of runs peaked at 415 against 435 MB, and the
 * writer thread's CPU stayed where the noise puts it (0.80 and 0.88 of the crawl worker's, against
 * 0.86 and 0.82 with 32 MiB); the LSH probes no longer read the table (band-index.ts).
 */
export const WRITER_CACHE_KIB = 16 * 1024;
db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
/**
 * No foreign-key checks on this connection: every row it writes names URLs by ids it resolved in
 * the same transaction (SqliteCrawlWriter: a key it cannot resolve fails the batch, whose
 * transaction rolls back whole),
 * and each check is a B-tree probe per reference, three for every link row (its crawl, source and
 * target); it deletes no parent row, so no ON DELETE action is owed here. Every other connection
 * keeps them on (connection.ts), the DUST merge's and a crawl's deletion included.
 */
db.pragma('foreign_keys = OFF');
// The WAL may grow to 128 MiB between checkpoints, less on a disk with little room (wal-budget.ts).
const walBudget = new WalBudget(db, init.file);
// The WAL flushed in the background between checkpoints, so a checkpoint's sync has little left (wal-presync.ts).
const walPresync = new WalPresync(`${init.file}-wal`);
// Links by target are not indexed while the run writes them: built again on close (INLINKS_INDEX).
// Another process holding the write lock past the busy timeout leaves the index in place (slower, not wrong).
try {
  db.exec(`DROP INDEX IF EXISTS ${INLINKS_INDEX.name}`);
} catch (error) {
  if (!isLockBusy(error)) throw error;
}
const writer = createSqliteRowWriter(db, init.crawlId, init.settings);

/**
 * The page cache, KiB, while the inlinks index is built at close. SQLite's sorter sorts runs of
 * that size in memory, and small runs stay in the CPU's caches: building it over the links of the
 * synthetic crawl took, alternating, 1.74–1.83 CPU-s with 16 MiB against 1.18–1.31 with 2 MiB
 * (20,200 pages, 1.67M links, three rounds) and 8.8–10.0 against 4.4–7.2 CPU-s (100,000 pages,
 * two rounds); 4 MiB was no faster than 2.
 */
const INLINKS_BUILD_CACHE_KIB = 2 * 1024;

/**
 * Builds the inlinks index the run dropped (one sorted pass over the links, about 0.5–0.9 s per
 * million). On failure (a full disk) the index stays absent: the inspector's reads scan, and the
 * next run's close tries again.
 */
function buildInlinksIndex(): void {
  try {
    db.pragma(`cache_size = -${INLINKS_BUILD_CACHE_KIB}`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${INLINKS_INDEX.name} ${INLINKS_INDEX.sql}`);
  } catch {
    // Nothing is lost: the links are there, only unindexed by target.
  }
}

function reply(message: WriterReply): void {
  port!.postMessage(message);
}

async function apply(request: WriterRequest): Promise<unknown> {
  switch (request.op) {
    case 'claimed':
      return writer.claimed(request.urlIds, request.nowMs);
    case 'commit':
      walBudget.refresh();
      return writer.commit(unpackCommitBatch(request.batch));
    case 'refetch':
      return writer.refetch(request.urlId);
    case 'setStatus':
      return writer.setStatus(request.status, request.finishedAtMs);
    case 'saveRobots':
      return writer.saveRobots(request.entry);
    case 'setTrapState':
      return writer.setTrapState(request.trapId, request.state, request.nowMs);
    default: {
      const exhaustive: never = request;
      throw new Error(`Unknown writer request ${JSON.stringify(exhaustive)}`);
    }
  }
}

port.on('message', (message: WriterRequest | { op: 'close' }) => {
  if (message.op === 'close') {
    // The band rows still pending (a failure here, a full disk, loses nothing: the next open derives them).
    void writer.close().catch(() => undefined);
    buildInlinksIndex();
    db.close();
    port.close();
    return;
  }
  // Each write is synchronous inside (better-sqlite3): requests are applied strictly in order.
  apply(message).then(
    (value) => {
      reply({ id: message.id, ok: true, value });
      void walPresync.afterWrite();
    },
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      reply({ id: message.id, ok: false, error: { message: failure.message, code: (failure as { code?: string }).code ?? null, name: failure.name } });
    },
  );
});
reply({ id: 0, ok: true, value: 'ready' });

/**
 * The store-writer thread (worker_threads entry point): owns the crawl's write connection and
 * applies the scheduler's writes (claims, commit batches, re-fetches, robots.txt entries, trap states, status) in the order they
 * were sent, each as one transaction, so no fetch and no scheduling decision waits on a commit or
 * on SQLite's WAL checkpoint (Signal Desktop's pattern: SQL on its own thread). Replies carry the
 * request's id; a failed write replies with the error's message and SQLite code.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './connection';
import { createSqliteRowWriter } from './crawl-stores';
import type { WriterRequest, WriterReply, WriterThreadInit } from './writer-protocol';

const port = parentPort;
if (!port) throw new Error('writer-thread must run as a worker thread');
const init = workerData as WriterThreadInit;
const db = openDatabase(init.file, { ...(init.nativeBinding ? { nativeBinding: init.nativeBinding } : {}) });
/**
 * The writer's page cache, KiB (SQLite's default is 2,000 KiB). Every commit updates B-trees at
 * random places (the URL-seen test's unique key, links by target, LSH band buckets): with the
 * default cache most of those pages are read again from the OS for each batch.
 */
export const WRITER_CACHE_KIB = 32 * 1024;
db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
/**
 * WAL frames (pages of 4 KiB) after which a commit runs SQLite's automatic checkpoint, here 128 MiB
 * (SQLite's default is 1,000 pages, 4 MB). A commit batch of 32–64 pages with their links, band
 * rows and texts dirties more than 1,000 pages at random places, so with the default nearly every
 * commit copied the whole WAL back into the database and synced it, on this thread, while claims
 * waited behind it. Measured on the 20,200-page synthetic crawl (2 cores, disk, one run each):
 * 1,000 pages 81.8–83.1 s wall and 14 s system time; 16,384 pages 70.6 s, 10 s; 65,536 pages
 * 65.7 s, 10 s. A checkpoint copies each page once however often it was rewritten in the WAL; the
 * cost is a WAL file up to this size beside the database while the crawl runs (removed on close).
 */
export const WRITER_WAL_AUTOCHECKPOINT_PAGES = 32_768;
db.pragma(`wal_autocheckpoint = ${WRITER_WAL_AUTOCHECKPOINT_PAGES}`);
const writer = createSqliteRowWriter(db, init.crawlId, init.settings);

function reply(message: WriterReply): void {
  port!.postMessage(message);
}

async function apply(request: WriterRequest): Promise<unknown> {
  switch (request.op) {
    case 'claimed':
      return writer.claimed(request.urlIds, request.nowMs);
    case 'commit':
      return writer.commit(request.batch);
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
    db.close();
    port.close();
    return;
  }
  // Each write is synchronous inside (better-sqlite3): requests are applied strictly in order.
  apply(message).then(
    (value) => reply({ id: message.id, ok: true, value }),
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      reply({ id: message.id, ok: false, error: { message: failure.message, code: (failure as { code?: string }).code ?? null, name: failure.name } });
    },
  );
});
reply({ id: 0, ok: true, value: 'ready' });

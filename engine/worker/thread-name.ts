/**
 * Operating-system names for the crawl's threads, so `top -H`, `ps -L` and the benchmarks'
 * CPU-per-thread lines tell the crawl workers and the store writer from V8's helper threads,
 * which are all called `node` otherwise. (Node's Worker `name` option only names a thread for the
 * inspector.)
 */
import fs from 'node:fs';

/** The fetch + parse workers' thread name (crawl-worker.ts). */
export const CRAWL_WORKER_THREAD_NAME = 'crawl-worker';
/** The SQLite store writer's thread name (store/sqlite/writer-thread.ts). */
export const STORE_WRITER_THREAD_NAME = 'store-writer';

/**
 * Names the calling thread: on Linux by writing `/proc/thread-self/comm` (at most 15 bytes; a
 * longer name is cut). Elsewhere (macOS, Windows, a /proc that refuses the write) the thread keeps
 * its name: nothing depends on it.
 */
export function nameThisThread(name: string): void {
  try {
    fs.writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // Not Linux, or no /proc: the name is for people reading a process list only.
  }
}

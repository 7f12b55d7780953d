/** The pool of crawl workers (worker_threads): dispatches fetch tasks, restarts a crashed worker, reports results. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { unpackLinks } from './link-wire';
import type { FetchPurpose, FromWorker, PageResult, ToWorker, WorkerInit } from './protocol';

/** A fetch task as the scheduler hands it out. */
export interface FetchTask {
  urlId: number;
  url: string;
  purpose: FetchPurpose;
  /** The Cookie header of the crawl's cookie jar for `url`, when it has one (page fetches). */
  cookie?: string;
  /** The jar's cookies for `url`'s host, for its rendering's requests (ToWorker `siteCookies`). */
  siteCookies?: string;
}

/** Replies from workers (a page's links unpacked), plus a synthetic failure when a worker dies with tasks in flight. */
export type PoolMessage = Exclude<FromWorker, { type: 'ready' | 'page' }> | { type: 'page'; seq: number; urlId: number; result: PageResult };

interface PoolWorker {
  worker: Worker;
  inFlight: Map<number, FetchTask>;
  ready: Promise<void>;
}

/**
 * Spawns a worker running crawl-worker: the bundled `crawl-worker.js` beside this module when the
 * app is built (electron-vite puts it there), else the TypeScript source through tsx (CLI, tests).
 */
function spawnCrawlWorker(init: WorkerInit): Worker {
  const bundled = new URL('./crawl-worker.js', import.meta.url);
  if (bundled.protocol === 'file:' && fs.existsSync(fileURLToPath(bundled))) return new Worker(bundled, { workerData: init, resourceLimits: WORKER_HEAP_LIMITS });
  const entry = new URL('./crawl-worker.ts', import.meta.url).href;
  return new Worker(new URL('./tsx-bootstrap.mjs', import.meta.url), { workerData: { ...init, entry }, resourceLimits: WORKER_HEAP_LIMITS });
}

/**
 * Each worker's heap budget. It keeps the process's resident memory bounded (V8 otherwise grows
 * heaps generously under parse load) and is the per-page budget: a page whose parse exceeds it
 * kills only its worker, and that page fails alone as WORKER_CRASHED while the pool respawns.
 * The young generation is 16 MB: a page's strings die young, and 8 MB cost the docs crawl about a
 * CPU-second more in scavenges; 64 MB cost no less CPU on the 20,200-page synthetic crawl (13 CPU-s
 * per worker either way) and about 140 MB more peak RSS (702 → 560 MB with the writer's budget).
 */
const WORKER_HEAP_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };

/**
 * A worker_threads pool for fetch + parse (seed 003's crawler threads). Each worker runs up to
 * `init.concurrency` tasks; `dispatch` hands a task to the least-loaded worker. A worker that
 * crashes fails its in-flight tasks with WORKER_CRASHED (they are never silently lost) and is replaced.
 */
export class WorkerPool {
  private readonly workers: PoolWorker[] = [];
  private seq = 0;
  private closing = false;

  constructor(
    private readonly size: number,
    private readonly init: WorkerInit,
    private readonly onMessage: (message: PoolMessage) => void,
  ) {}

  /** Starts the workers and waits until each has loaded. */
  async start(): Promise<void> {
    for (let index = 0; index < this.size; index += 1) this.workers.push(this.spawn());
    await Promise.all(this.workers.map((entry) => entry.ready));
  }

  /** Tasks the pool can take right now. */
  freeSlots(): number {
    let free = 0;
    for (const entry of this.workers) free += this.init.concurrency - entry.inFlight.size;
    return free;
  }

  /** Tasks running now. */
  inFlight(): number {
    let count = 0;
    for (const entry of this.workers) count += entry.inFlight.size;
    return count;
  }

  /**
   * Sends a task to the least-loaded worker.
   * @returns the task's sequence number
   * @throws Error when no slot is free (call {@link freeSlots} first)
   */
  dispatch(task: FetchTask): number {
    let target: PoolWorker | undefined;
    for (const entry of this.workers) if (!target || entry.inFlight.size < target.inFlight.size) target = entry;
    if (!target || target.inFlight.size >= this.init.concurrency) throw new Error('WorkerPool.dispatch: no free slot');
    this.seq += 1;
    target.inFlight.set(this.seq, task);
    const message: ToWorker = {
      type: 'fetch',
      seq: this.seq,
      urlId: task.urlId,
      url: task.url,
      purpose: task.purpose,
      ...(task.cookie === undefined ? {} : { cookie: task.cookie }),
      ...(task.siteCookies === undefined ? {} : { siteCookies: task.siteCookies }),
    };
    target.worker.postMessage(message);
    return this.seq;
  }

  /** Asks every worker to close its sockets and exit; waits for them. */
  async shutdown(): Promise<void> {
    this.closing = true;
    await Promise.all(
      this.workers.map(
        (entry) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => void entry.worker.terminate().then(() => resolve()), 2_000);
            entry.worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            entry.worker.postMessage({ type: 'shutdown' } satisfies ToWorker);
          }),
      ),
    );
  }

  private spawn(): PoolWorker {
    const worker = spawnCrawlWorker(this.init);
    let markReady: () => void = () => undefined;
    let markFailed: (error: Error) => void = () => undefined;
    const entry: PoolWorker = {
      worker,
      inFlight: new Map(),
      ready: new Promise<void>((resolve, reject) => {
        markReady = resolve;
        markFailed = reject;
      }),
    };
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') {
        markReady();
        return;
      }
      entry.inFlight.delete(message.seq);
      if (message.type !== 'page') {
        this.onMessage(message);
        return;
      }
      let links: PageResult['links'];
      try {
        links = unpackLinks(message.result.links);
      } catch (error) {
        this.onMessage({ type: 'failed', seq: message.seq, urlId: message.urlId, error: { code: 'WORKER_PROTOCOL', message: error instanceof Error ? error.message : String(error) }, fetchMs: message.result.fetchMs });
        return;
      }
      this.onMessage({ ...message, result: { ...message.result, links } });
    });
    const onDeath = (reason: string): void => {
      markFailed(new Error(`Crawl worker failed to start: ${reason}`));
      const index = this.workers.indexOf(entry);
      if (index === -1) return;
      const orphaned = [...entry.inFlight.entries()];
      entry.inFlight.clear();
      if (!this.closing) this.workers[index] = this.spawn();
      for (const [seq, task] of orphaned) {
        const error = { code: 'WORKER_CRASHED', message: `Worker died: ${reason}` };
        if (task.purpose === 'robots') this.onMessage({ type: 'robots', seq, urlId: task.urlId, result: { url: task.url, status: null, text: '', error, fetchMs: 0 } });
        else if (task.purpose === 'sitemap') this.onMessage({ type: 'sitemap', seq, urlId: task.urlId, result: { url: task.url, status: null, parsed: null, error, fetchMs: 0 } });
        else this.onMessage({ type: 'failed', seq, urlId: task.urlId, error, fetchMs: 0 });
      }
    };
    worker.on('error', (error) => onDeath(error.message));
    worker.on('exit', (code) => {
      if (!this.closing) onDeath(`exit code ${code}`);
    });
    return entry;
  }
}

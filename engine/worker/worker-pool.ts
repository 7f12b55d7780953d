/** The pool of crawl workers (worker_threads): dispatches fetch tasks, restarts a crashed worker, reports results. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CodedError } from '../../shared/types/result';
import { unpackLinks } from './link-wire';
import { GROWTH_CHECK_MS, LoadProbe, shouldGrow, type GrowthProbe } from './pool-growth';
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
  /** The worker said it is ready: it takes tasks before any worker still loading. */
  loaded: boolean;
  /** Added by growth (not a first worker, not a replacement): if it dies before loading, the pool stops growing. */
  grown: boolean;
}

/** Options of a {@link WorkerPool}. */
export interface WorkerPoolOptions {
  /** Workers started by `start()`. @default 1 (more join while they are busy and cores idle: pool-growth.ts) */
  initialSize?: number;
  /** What each growth check measures. @default a LoadProbe (event-loop utilization, os.cpus() idle time) */
  probe?: GrowthProbe;
  /**
   * Called once when the pool has no worker left: {@link MAX_FAILED_STARTS} workers in a row died
   * before they finished loading, so it replaces none (the error's code is WORKER_START_FAILED).
   * The pool takes no task from then on (freeSlots is 0); the caller ends the run.
   */
  onUnavailable?: (error: CodedError) => void;
  /** Starts one worker thread. @default the crawl-worker entry (bundled, or the source through tsx) */
  spawn?: (init: WorkerInit) => Worker;
}

/**
 * Workers in a row that may die before they finish loading (none loaded in between) before the
 * pool stops replacing them. A worker that cannot start (its code missing, no memory for its heap)
 * would otherwise be replaced at once, again and again, each failing the tasks sent to it.
 */
export const MAX_FAILED_STARTS = 3;

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
 * A worker_threads pool for fetch + parse (seed 003's crawler threads). The pool runs up to
 * `init.concurrency` tasks in all (the crawl's fetch slots); `dispatch` hands a task to the
 * least-loaded loaded worker. It starts with one worker and grows to `maxSize` while its workers
 * are busy and the machine has idle cores (pool-growth.ts). A worker that crashes fails its
 * in-flight tasks with WORKER_CRASHED (they are never silently lost) and is replaced.
 */
export class WorkerPool {
  private readonly workers: PoolWorker[] = [];
  private seq = 0;
  private closing = false;
  private growthTimer: NodeJS.Timeout | null = null;
  private readonly probe: GrowthProbe;
  private readonly initialSize: number;
  /** Workers that died before loading since one last loaded (see MAX_FAILED_STARTS). */
  private failedStarts = 0;

  /**
   * @param maxSize workers at most (at least 1)
   * @param init what every worker is started with; `init.concurrency` is the pool's fetch slots in all
   */
  constructor(
    private readonly maxSize: number,
    private readonly init: WorkerInit,
    private readonly onMessage: (message: PoolMessage) => void,
    private readonly options: WorkerPoolOptions = {},
  ) {
    this.initialSize = Math.max(1, Math.min(maxSize, options.initialSize ?? 1));
    this.probe = options.probe ?? new LoadProbe();
  }

  /** Starts the first workers and waits until each has loaded; from then on the pool may grow (see the class comment). */
  async start(): Promise<void> {
    for (let index = 0; index < this.initialSize; index += 1) this.workers.push(this.spawn(false));
    await Promise.all(this.workers.map((entry) => entry.ready));
    if (this.workers.length < this.maxSize && !this.closing) {
      this.probe.sample(this.workers.map((entry) => entry.worker));
      this.growthTimer = setInterval(() => this.considerGrowth(), GROWTH_CHECK_MS);
      this.growthTimer.unref();
    }
  }

  /** Workers in the pool now (loading ones included). */
  get size(): number {
    return this.workers.length;
  }

  /** Workers loaded and taking tasks. */
  get loaded(): number {
    return this.workers.filter((entry) => entry.loaded).length;
  }

  /**
   * One growth check (run every GROWTH_CHECK_MS once started): adds a worker when the last interval's
   * sample says so (pool-growth.ts shouldGrow). Waits while a worker is loading; stops at `maxSize`.
   */
  considerGrowth(): void {
    if (this.closing || this.workers.length >= this.maxSize) return this.stopGrowing();
    const sample = this.probe.sample(this.workers.map((entry) => entry.worker));
    // A worker still loading has no event loop to measure yet: no decision on that interval.
    if (this.workers.some((entry) => !entry.loaded)) return;
    if (shouldGrow(sample)) {
      this.workers.push(this.spawn(true));
      if (this.workers.length >= this.maxSize) this.stopGrowing();
    }
  }

  private stopGrowing(): void {
    if (this.growthTimer !== null) clearInterval(this.growthTimer);
    this.growthTimer = null;
  }

  /** Tasks the pool can take right now (none once no worker is left: see WorkerPoolOptions.onUnavailable). */
  freeSlots(): number {
    if (this.workers.length === 0) return 0;
    return Math.max(0, this.init.concurrency - this.inFlight());
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
    if (this.freeSlots() === 0) throw new Error('WorkerPool.dispatch: no free slot');
    // A loading worker's tasks would wait behind its start (about a third of a second): loaded ones
    // first, a loading one only when none is loaded (the replacement of a crashed only worker).
    let target: PoolWorker | undefined;
    for (const entry of this.workers) {
      if (target === undefined || (entry.loaded && !target.loaded) || (entry.loaded === target.loaded && entry.inFlight.size < target.inFlight.size)) target = entry;
    }
    if (target === undefined) throw new Error('WorkerPool.dispatch: no worker');
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
    this.stopGrowing();
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

  private spawn(grown: boolean): PoolWorker {
    const worker = (this.options.spawn ?? spawnCrawlWorker)(this.init);
    let markReady: () => void = () => undefined;
    let markFailed: (error: Error) => void = () => undefined;
    const entry: PoolWorker = {
      worker,
      inFlight: new Map(),
      ready: new Promise<void>((resolve, reject) => {
        markReady = resolve;
        markFailed = reject;
      }),
      loaded: false,
      grown,
    };
    // Only start() awaits `ready` (its first workers): a later worker's start failure is handled in
    // onDeath (a grown one ends growth, a replacement is replaced), never an unhandled rejection.
    entry.ready.catch(() => undefined);
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') {
        entry.loaded = true;
        this.failedStarts = 0;
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
      if (!entry.loaded) this.failedStarts += 1;
      // A worker added by growth that cannot start is dropped, and the pool grows no more (the
      // others run the crawl); so is any worker once MAX_FAILED_STARTS in a row could not start;
      // any other dead worker is replaced.
      if ((entry.grown && !entry.loaded) || this.failedStarts >= MAX_FAILED_STARTS) {
        this.workers.splice(index, 1);
        this.stopGrowing();
        if (this.workers.length === 0 && !this.closing) {
          this.options.onUnavailable?.(
            new CodedError('WORKER_START_FAILED', `${this.failedStarts} crawl workers in a row died before they finished loading (the last: ${reason}); free memory or reinstall Crawlbench, then resume the crawl`),
          );
        }
      } else if (!this.closing) this.workers[index] = this.spawn(false);
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

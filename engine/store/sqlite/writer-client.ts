/** The scheduler's side of the store-writer thread: a CrawlRowWriter whose writes run on that thread, in order. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CrawlStatus } from '../../../shared/types/crawl';
import { CodedError } from '../../../shared/types/result';
import type { TrapState } from '../../../shared/types/traps';
import type { CommitBatch, CommitResult, StoredRobots, TrapStateChange } from '../ports';
import { packCommitBatch } from './batch-codec';
import type { CrawlRowWriter } from './batch-writer';
import type { RefetchRow } from './frontier-rows';
import type { WriterReply, WriterRequest, WriterThreadInit } from './writer-protocol';

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/** Distributes a request without its id (TypeScript's Omit does not distribute over a union). */
type WriterCall = WriterRequest extends infer R ? (R extends WriterRequest ? Omit<R, 'id'> : never) : never;

/**
 * The writer thread's heap budget. What it keeps is bounded in bytes (the URL-seen cache, the
 * sketch cache; SQLite's page cache is outside the heap), and without a budget V8 lets the garbage
 * of each batch's copy pile up (the 20,200-page synthetic crawl peaked about 280 MB higher). The
 * old generation must still hold one batch with a page of MAX_LINKS_PER_PAGE (200,000) links and
 * their candidates: at 96 MB that page ran the thread out of memory (tests/hostile/links).
 */
const WRITER_HEAP_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 };

/**
 * Spawns the writer thread: the bundled `store-writer.js` beside this module when built (CLI
 * bundle, electron-vite), else the TypeScript source through tsx (tests, runs from source).
 */
function spawnWriterThread(init: WriterThreadInit): Worker {
  const bundled = new URL('./store-writer.js', import.meta.url);
  if (bundled.protocol === 'file:' && fs.existsSync(fileURLToPath(bundled))) return new Worker(bundled, { workerData: init, resourceLimits: WRITER_HEAP_LIMITS });
  const entry = new URL('./writer-thread.ts', import.meta.url).href;
  return new Worker(new URL('../../worker/tsx-bootstrap.mjs', import.meta.url), { workerData: { ...init, entry }, resourceLimits: WRITER_HEAP_LIMITS });
}

/** A failed write as an Error with SQLite's code kept (storage-errors.ts classifies it: DISK_FULL, DB_BUSY…). */
function writerError(error: { message: string; code: string | null; name: string }): Error {
  const failure = new Error(error.message) as Error & { code?: string };
  failure.name = error.name;
  if (error.code !== null) failure.code = error.code;
  return failure;
}

/**
 * Sends writes to the store-writer thread, which applies them in the order sent; each call settles
 * when its write is committed (or refused, with SQLite's code). Claims are awaited too: a URL's row
 * says in_flight before anything fetches it, so a killed process re-fetches only URLs its rows show
 * in flight (tests/integration/crash-resume). If the thread dies, every write waiting and every
 * later one fails with WRITER_THREAD_EXITED.
 */
export class WriterThreadClient implements CrawlRowWriter {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Why the thread is gone; every write after it fails with this. */
  private failure: Error | null = null;
  private readonly worker: Worker;
  private readonly ready: Promise<void>;

  constructor(init: WriterThreadInit) {
    this.worker = spawnWriterThread(init);
    let markReady: () => void = () => undefined;
    let markFailed: (error: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    // Awaited by every write; a start failure is reported there, never as an unhandled rejection.
    this.ready.catch(() => undefined);
    this.worker.on('message', (reply: WriterReply) => {
      if (reply.id === 0) {
        markReady();
        return;
      }
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) waiting?.resolve(reply.value);
      else waiting?.reject(writerError(reply.error));
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      markFailed(error);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    // An uncaught error on the thread (ERR_WORKER_OUT_OF_MEMORY past its heap budget, …): the exit follows.
    this.worker.on('error', (error) => fail(new CodedError('WRITER_THREAD_EXITED', `The store-writer thread failed (${error.message}); the crawl is interrupted and nothing committed is lost: resume it`)));
    this.worker.on('exit', (code) => {
      fail(new CodedError('WRITER_THREAD_EXITED', `The store-writer thread ended (exit code ${code}) with writes not done; the crawl is interrupted and nothing committed is lost: resume it`));
    });
  }

  async claimed(urlIds: readonly number[], nowMs: number): Promise<void> {
    if (urlIds.length > 0) await this.send({ op: 'claimed', urlIds: [...urlIds], nowMs });
  }

  commit(batch: CommitBatch): Promise<CommitResult> {
    return this.send({ op: 'commit', batch: packCommitBatch(batch) }) as Promise<CommitResult>;
  }

  refetch(urlId: number): Promise<RefetchRow> {
    return this.send({ op: 'refetch', urlId }) as Promise<RefetchRow>;
  }

  async setStatus(status: CrawlStatus, finishedAtMs: number | null): Promise<void> {
    await this.send({ op: 'setStatus', status, finishedAtMs });
  }

  async saveRobots(entry: StoredRobots): Promise<void> {
    await this.send({ op: 'saveRobots', entry });
  }

  setTrapState(trapId: number, state: TrapState, nowMs: number): Promise<TrapStateChange | null> {
    return this.send({ op: 'setTrapState', trapId, state, nowMs }) as Promise<TrapStateChange | null>;
  }

  /** Lets the thread finish the writes already sent, then ends it. */
  async close(): Promise<void> {
    if (this.failure) return;
    // The thread applies what was sent before this message, replies, then closes.
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ op: 'close' });
    await exited;
  }

  private async send(call: WriterCall): Promise<unknown> {
    await this.ready;
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...call, id } as WriterRequest);
    });
  }
}

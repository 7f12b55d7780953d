// The worker pool's replacement of dead workers, with real worker threads started from small
// scripts: a worker that dies after loading is replaced; workers that keep dying before they load
// are replaced MAX_FAILED_STARTS times in a row at most, then the pool reports itself unavailable
// (WORKER_START_FAILED) and takes no more tasks; one that loads in between resets the count.
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../shared/types/crawl';
import type { CodedError } from '../../shared/types/result';
import type { WorkerInit } from './protocol';
import { MAX_FAILED_STARTS, WorkerPool, type PoolMessage } from './worker-pool';

/** Says it is ready, then exits at its first task (a crash after loading). */
const CRASHES_AT_FIRST_TASK = `
const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (message) => { if (message.type === 'fetch') process.exit(7); if (message.type === 'shutdown') process.exit(0); });
`;
/** Exits before it says it is ready (a worker that cannot load). */
const DIES_BEFORE_READY = `process.exit(9);`;
/** Says it is ready and stays until shut down. */
const STAYS_READY = `
const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (message) => { if (message.type === 'shutdown') process.exit(0); });
`;

const init: WorkerInit = { settings: DEFAULT_CRAWL_SETTINGS, concurrency: 4 };

/** Waits (as pool-growth.test.ts does) until `condition` holds: the workers start and die on their own time. */
const until = (condition: () => boolean): Promise<void> => expect.poll(condition, { timeout: 20_000, interval: 5 }).toBe(true);

describe('WorkerPool replacing dead workers', () => {
  let pool: WorkerPool | null = null;
  afterEach(async () => {
    await pool?.shutdown();
    pool = null;
  });

  it(`stops replacing after ${MAX_FAILED_STARTS} workers in a row died before loading, reports WORKER_START_FAILED once and takes no task`, async () => {
    const scripts = [CRASHES_AT_FIRST_TASK];
    let spawned = 0;
    const messages: PoolMessage[] = [];
    const unavailable: CodedError[] = [];
    pool = new WorkerPool(1, init, (message) => messages.push(message), {
      spawn: () => new Worker(scripts[spawned++] ?? DIES_BEFORE_READY, { eval: true }),
      onUnavailable: (error) => unavailable.push(error),
    });
    await pool.start();
    expect(pool.freeSlots()).toBe(4);
    pool.dispatch({ urlId: 1, url: 'http://a.test/', purpose: 'page' });
    await until(() => unavailable.length > 0);
    // The first worker and MAX_FAILED_STARTS replacements, none after.
    expect(spawned).toBe(1 + MAX_FAILED_STARTS);
    expect(unavailable).toHaveLength(1);
    expect(unavailable[0]!.code).toBe('WORKER_START_FAILED');
    expect(unavailable[0]!.message).toContain('exit code 9');
    // The task in flight on the crashed worker failed (retried by the scheduler), not lost.
    expect(messages).toEqual([expect.objectContaining({ type: 'failed', urlId: 1, error: expect.objectContaining({ code: 'WORKER_CRASHED' }) })]);
    // No worker left, none being started (a replacement is spawned in the same step as a death).
    expect(pool.size).toBe(0);
    expect(pool.freeSlots()).toBe(0);
  });

  it('a replacement that loads resets the count: the pool goes on', async () => {
    const scripts = [CRASHES_AT_FIRST_TASK, DIES_BEFORE_READY, DIES_BEFORE_READY, STAYS_READY];
    let spawned = 0;
    const unavailable: CodedError[] = [];
    pool = new WorkerPool(1, init, () => undefined, {
      spawn: () => new Worker(scripts[spawned++] ?? DIES_BEFORE_READY, { eval: true }),
      onUnavailable: (error) => unavailable.push(error),
    });
    await pool.start();
    pool.dispatch({ urlId: 1, url: 'http://a.test/', purpose: 'page' });
    await until(() => pool!.loaded === 1 && spawned === 4);
    expect(unavailable).toEqual([]);
    expect(pool.size).toBe(1);
    expect(pool.freeSlots()).toBe(4);
  });
});

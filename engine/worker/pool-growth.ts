/**
 * When the crawl-worker pool takes another worker (worker-pool.ts): it starts with one and adds
 * one while its workers are busy and a share of the machine's CPU time is idle, as Crawlee's
 * AutoscaledPool scales on the system's load rather than on a fixed count.
 *
 * One fixed count was wrong one way or the other on this project's 2-core machine. With two
 * workers from the start, the 20,200-page synthetic crawl (the server on the same cores, the
 * scheduler and the store writer busy) used 48.8 CPU-s and 386 MB peak RSS against 45.1 CPU-s and
 * 333 MB with one (means of 5 alternating runs; wall time 31.7 s against 30.9 s): the second
 * worker found no idle core, and cost a heap, its GCs and its caches. The Python docs mirror
 * (bodies kept: brotli and parsing in the worker, nginx nearly idle) took 5.11 s with two and
 * 5.54 s with one (means of 3 alternating runs, 8 fetch slots): its one worker was 80-100% busy
 * while the process used 1.3-1.4 of the 2 cores.
 */
import os from 'node:os';
import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';

/**
 * How often the pool asks whether to grow, milliseconds. At 1,000 the docs mirror's second worker
 * joined about 2.3 s into a 4.1 s crawl, at 500 about 1.5 s in.
 */
export const GROWTH_CHECK_MS = 500;

/**
 * Share of the last check's interval the workers' event loops were busy, on average
 * (`Worker.performance.eventLoopUtilization`), from which the workers count as the bottleneck.
 * One worker on the docs mirror measured 0.80-1.00 per 500 ms once its links flowed.
 */
export const BUSY_WORKER_UTILIZATION = 0.8;

/**
 * Share of the machine's CPU time idle over the last interval (all cores: 0.25 is half a core of
 * 2) from which another worker has a core to run on. Per 500 ms on the 20,200-page synthetic crawl
 * with one worker: 0.08-0.18 idle while the worker was busy (0.8 and over), up to 0.35 only while
 * it was not (0.49-0.68: the scheduler or the store writer was the bottleneck then); on the docs
 * mirror 0.28-0.33 while it was busy, once the crawl's start was over.
 */
export const IDLE_MACHINE_SHARE = 0.25;

/** What one growth check saw over its interval. */
export interface GrowthSample {
  /** Mean event-loop utilization of the pool's workers since the last sample, 0-1 (a worker sampled the first time counts 0). */
  workerUtilization: number;
  /** Share of the machine's CPU time idle since the last sample, 0-1 (null on the first). */
  idleShare: number | null;
}

/** Takes a {@link GrowthSample} of a pool's workers (each call covers the time since the last). */
export interface GrowthProbe {
  sample(workers: readonly Pick<Worker, 'performance'>[]): GrowthSample;
}

/** Whether the pool should start one more worker after an interval that looked like `sample`. */
export function shouldGrow(sample: GrowthSample): boolean {
  return sample.idleShare !== null && sample.workerUtilization >= BUSY_WORKER_UTILIZATION && sample.idleShare >= IDLE_MACHINE_SHARE;
}

/** Idle and total CPU time of all cores since boot, milliseconds (`os.cpus()`). */
function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, idle: cpuIdle, irq } = cpu.times;
    idle += cpuIdle;
    total += user + nice + sys + cpuIdle + irq;
  }
  return { idle, total };
}

/**
 * The machine's idle share between two readings: `read()` returns the share idle since the
 * previous call (null on the first call, or when no time passed).
 */
export class MachineIdleMeter {
  private last: { idle: number; total: number } | null = null;

  constructor(private readonly times: () => { idle: number; total: number } = cpuTimes) {}

  read(): number | null {
    const now = this.times();
    const last = this.last;
    this.last = now;
    if (last === null || now.total <= last.total) return null;
    return Math.min(1, Math.max(0, (now.idle - last.idle) / (now.total - last.total)));
  }
}

/** The {@link GrowthProbe} of a running pool: the workers' event-loop utilization and the machine's idle share. */
export class LoadProbe implements GrowthProbe {
  /** Each worker's event-loop utilization at the last sample. */
  private readonly last = new WeakMap<object, EventLoopUtilization>();

  constructor(private readonly idle: { read(): number | null } = new MachineIdleMeter()) {}

  sample(workers: readonly Pick<Worker, 'performance'>[]): GrowthSample {
    const idleShare = this.idle.read();
    let busy = 0;
    for (const worker of workers) {
      const now = worker.performance.eventLoopUtilization();
      const before = this.last.get(worker);
      if (before !== undefined) busy += worker.performance.eventLoopUtilization(now, before).utilization;
      this.last.set(worker, now);
    }
    return { workerUtilization: workers.length === 0 ? 0 : busy / workers.length, idleShare };
  }
}

// When the crawl-worker pool adds a worker (pool-growth.ts), and the pool growing with real
// worker threads that fetch from a server on 127.0.0.1 (worker-pool.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../shared/types/crawl';
import { BUSY_WORKER_UTILIZATION, IDLE_MACHINE_SHARE, LoadProbe, MachineIdleMeter, shouldGrow, type GrowthProbe, type GrowthSample } from './pool-growth';
import { WorkerPool, type PoolMessage } from './worker-pool';

describe('shouldGrow', () => {
  it('grows only when the workers are busy and the machine has idle time, both from their thresholds on', () => {
    expect(shouldGrow({ workerUtilization: BUSY_WORKER_UTILIZATION, idleShare: IDLE_MACHINE_SHARE })).toBe(true);
    expect(shouldGrow({ workerUtilization: 1, idleShare: 1 })).toBe(true);
    // Busy workers on a machine without a free core (the synthetic crawl: its server shares the cores).
    expect(shouldGrow({ workerUtilization: 0.97, idleShare: 0.15 })).toBe(false);
    // Idle cores, but the workers wait on the network or the scheduler: another worker would wait too.
    expect(shouldGrow({ workerUtilization: 0.55, idleShare: 0.3 })).toBe(false);
    // No idle share yet (the first reading).
    expect(shouldGrow({ workerUtilization: 1, idleShare: null })).toBe(false);
  });
});

describe('MachineIdleMeter', () => {
  it('gives the idle share of the CPU time between two readings, none on the first', () => {
    const readings = [
      { idle: 1_000, total: 4_000 },
      { idle: 1_300, total: 5_000 },
      { idle: 1_300, total: 5_000 },
      { idle: 2_300, total: 6_000 },
    ];
    const meter = new MachineIdleMeter(() => readings.shift()!);
    expect(meter.read()).toBeNull();
    expect(meter.read()).toBeCloseTo(0.3);
    // No CPU time passed: no share.
    expect(meter.read()).toBeNull();
    expect(meter.read()).toBe(1);
  });

  it('reads this machine: a share between 0 and 1 once CPU time has passed', async () => {
    const meter = new MachineIdleMeter();
    meter.read();
    // os.cpus() counts in clock ticks: wait until a reading covers some (null until then).
    let share: number | null = null;
    await expect.poll(() => (share = meter.read()), { timeout: 5_000, interval: 50 }).not.toBeNull();
    expect(share).toBeGreaterThanOrEqual(0);
    expect(share).toBeLessThanOrEqual(1);
  });
});

describe('LoadProbe', () => {
  it('averages each worker’s event-loop utilization since the last sample; a worker seen the first time counts 0', () => {
    // A fake worker whose cumulative busy (active) and total times are set by the test.
    const worker = (active: number, idle: number) => {
      const state = { active, idle };
      return {
        state,
        performance: {
          eventLoopUtilization(now?: { active: number; idle: number }, before?: { active: number; idle: number }) {
            if (now === undefined) return { active: state.active, idle: state.idle, utilization: state.active / (state.active + state.idle) };
            const active = now.active - before!.active;
            const idle = now.idle - before!.idle;
            return { active, idle, utilization: active / (active + idle) };
          },
        },
      };
    };
    const a = worker(100, 100);
    const b = worker(0, 50);
    const probe = new LoadProbe({ read: () => 0.4 });
    const workers = [a, b] as unknown as Parameters<LoadProbe['sample']>[0];
    expect(probe.sample(workers)).toEqual({ workerUtilization: 0, idleShare: 0.4 });
    a.state.active += 900; // a: busy 900 of the next 1,000 ms
    a.state.idle += 100;
    b.state.active += 500; // b: 500 of 1,000
    b.state.idle += 500;
    expect(probe.sample(workers).workerUtilization).toBeCloseTo(0.7);
  });
});

describe('WorkerPool growth (real worker threads)', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>grown</title></head><body><a href="/next">next</a></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A pool fetching from the test server as pool.test, deciding growth by `samples` in turn. */
  function pool(maxSize: number, samples: GrowthSample[], messages: PoolMessage[]): WorkerPool {
    const probe: GrowthProbe = { sample: () => samples.shift() ?? { workerUtilization: 0, idleShare: 0 } };
    const settings = { ...DEFAULT_CRAWL_SETTINGS, hostOverrides: [{ host: 'pool.test', address: '127.0.0.1', port }], closedResolver: true };
    return new WorkerPool(maxSize, { settings, concurrency: 4 }, (message) => messages.push(message), { probe });
  }

  /** Dispatches a page fetch and resolves with its answer. */
  async function fetchOne(workers: WorkerPool, messages: PoolMessage[]): Promise<PoolMessage> {
    const seq = workers.dispatch({ urlId: 1, url: `http://pool.test/page`, purpose: 'page' });
    await expect.poll(() => messages.some((message) => message.seq === seq), { timeout: 20_000, interval: 20 }).toBe(true);
    return messages.find((message) => message.seq === seq)!;
  }

  it('starts one worker, adds one when busy workers meet an idle machine, never past maxSize; the grown pool shares the crawl’s fetch slots and fetches', { timeout: 60_000 }, async () => {
    const messages: PoolMessage[] = [];
    const busyAndIdle = { workerUtilization: 0.95, idleShare: 0.5 };
    // The start's baseline sample, then: busy on a full machine (no growth), then busy with idle cores (growth).
    const workers = pool(2, [busyAndIdle, { workerUtilization: 0.95, idleShare: 0.05 }, busyAndIdle, busyAndIdle], messages);
    try {
      await workers.start();
      expect(workers.size).toBe(1);
      workers.considerGrowth();
      expect(workers.size).toBe(1);
      workers.considerGrowth();
      expect(workers.size).toBe(2);
      // At maxSize: no further worker, whatever the sample.
      workers.considerGrowth();
      expect(workers.size).toBe(2);
      // The pool's slots are the crawl's, shared by its workers; tasks go to loaded workers, so wait for the new one.
      expect(workers.freeSlots()).toBe(4);
      await expect.poll(() => workers.loaded, { timeout: 20_000, interval: 20 }).toBe(2);
      const answers = await Promise.all([fetchOne(workers, messages), fetchOne(workers, messages), fetchOne(workers, messages)]);
      for (const answer of answers) {
        expect(answer.type).toBe('page');
        if (answer.type === 'page') expect(answer.result.title).toBe('grown');
      }
      expect(workers.freeSlots()).toBe(4);
    } finally {
      await workers.shutdown();
    }
  });

  it('stays at its first worker while the samples never call for another', { timeout: 60_000 }, async () => {
    const messages: PoolMessage[] = [];
    const workers = pool(4, [], messages);
    try {
      await workers.start();
      for (let check = 0; check < 5; check += 1) workers.considerGrowth();
      expect(workers.size).toBe(1);
      const answer = await fetchOne(workers, messages);
      expect(answer.type).toBe('page');
    } finally {
      await workers.shutdown();
    }
  });
});

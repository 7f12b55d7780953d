// Process leases on a PostgreSQL crawl (issue 13): registration, the sweep of a silent process, and a
// stalled process that was swept coming back on its next beat.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { postgresUnavailableReason } from '../../../testweb/postgres';
import { PostgresCrawlRepository } from './crawl-repository';
import { openPostgresStore } from './pool';
import { liveProcesses, register } from './processes';
import { testSettings, useTestDatabases } from '../../../tests/support/postgres-stores';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`PostgreSQL process lease tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('process leases', () => {
  const postgres = useTestDatabases();

  it('a silent process is swept as lease-expired; if it still runs, its next beat makes it live again', async () => {
    const store = await openPostgresStore(await postgres.databases.create());
    try {
      const crawlId = await new PostgresCrawlRepository(store).createCrawl(['http://a.test/'], testSettings({ maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 }), 0);
      const identity = (processId: string) => ({ processId, role: 'crawl' as const, hostname: os.hostname(), pid: process.pid });
      let progress = { pagesDone: 0, pagesPerS: 0, inFlight: 0 };
      const stalled = await register(store, crawlId, identity('stalled'), { leaseMs: 1_000, progress: () => progress });
      const sweeper = await register(store, crawlId, identity('sweeper'), { leaseMs: 1_000 });
      expect((await liveProcesses(store, crawlId)).map((p) => p.id)).toEqual(['stalled', 'sweeper']);
      await store.pool.query(`UPDATE processes SET last_beat_ms = $2 WHERE id = $1`, ['stalled', Date.now() - 1_001]);
      expect(await sweeper.sweep()).toEqual(['stalled']);
      const { rows } = await store.pool.query<{ end_reason: string }>(`SELECT end_reason FROM processes WHERE id = 'stalled'`);
      expect(rows[0]!.end_reason).toBe('lease-expired');
      expect((await liveProcesses(store, crawlId)).map((p) => p.id)).toEqual(['sweeper']);
      progress = { pagesDone: 12, pagesPerS: 3.5, inFlight: 2 };
      await stalled.beat();
      expect(stalled.lastError).toBeNull();
      expect(await liveProcesses(store, crawlId)).toEqual([
        expect.objectContaining({ id: 'stalled', role: 'crawl', pid: process.pid, pagesDone: 12, pagesPerS: 3.5, inFlight: 2 }),
        expect.objectContaining({ id: 'sweeper' }),
      ]);
      // A process that ended its run is not brought back by a late beat.
      await stalled.close('finished');
      await stalled.beat();
      expect((await liveProcesses(store, crawlId)).map((p) => p.id)).toEqual(['sweeper']);
      await sweeper.close('stopped');
    } finally {
      await store.close();
    }
  });
});

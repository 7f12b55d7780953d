/**
 * The PostgreSQL implementation of the storage ports (store/ports.ts) for one crawl and one
 * process (issue 13): several processes, on one machine or many, open stores on the same crawl
 * and share its frontier, politeness and URL-seen test through the database. Opening registers
 * the process (a lease renewed by a heartbeat, processes.ts) and sweeps dead ones; the frontier
 * (frontier.ts), the writer (writer.ts) and the satellite rows (content-dedupe.ts, trap-rows.ts,
 * sitemap-rows.ts, redirect-chains.ts, robots-store.ts) all write through the caller's pool.
 */
import os from 'node:os';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings, type CrawlStatus } from '../../../shared/types/crawl';
import type { CommitBatch, CommitResult, CrawlStores, PolitenessPolicy } from '../ports';
import { PostgresBodyRows } from './body-rows';
import { PostgresContentIndex } from './content-dedupe';
import { PostgresFrontier } from './frontier';
import { HostReleaseQueue } from './host-releases';
import { postgresError, type PostgresStore } from './pool';
import { DEFAULT_LEASE_MS, liveProcesses, newProcessId, register, type ProcessInfo, type ProcessRole } from './processes';
import { seedRedirectTargets } from './redirect-chains';
import { PostgresRobotsStore } from './robots-store';
import { PostgresSitemapRows, storedSitemapUrls } from './sitemap-rows';
import { PostgresTrapRows, storedTraps } from './trap-rows';
import { PostgresCrawlRepository } from './crawl-repository';
import { PostgresCrawlWriter } from './writer';

/** The settings the PostgreSQL stores read: politeness knobs and the near-duplicate threshold. */
export type PostgresStoreSettings = Pick<CrawlSettings, 'maxInFlightPerHost' | 'minDelayMs' | 'maxDelayMs' | 'delayFactor' | 'nearDuplicateThreshold'> & Partial<Pick<CrawlSettings, 'maxStoredBodiesBytes'>>;

/** How this process joins the crawl. */
export interface PostgresStoreOptions {
  /** This process's id over the store. @default `hostname:pid:random` (processes.ts newProcessId) */
  processId?: string;
  /** Why it runs. @default 'crawl' */
  role?: ProcessRole;
  /** A process silent this long (ms) is taken for dead; the heartbeat beats every leaseMs / 5. @default 30_000 */
  leaseMs?: number;
  /** Period of the frontier snapshot's refresh, ms. @default 200 */
  pollMs?: number;
}

/** The stores of one process on a PostgreSQL crawl. */
export interface PostgresCrawlStores extends CrawlStores {
  /** The shared frontier (with `refresh()`: read the whole crawl-wide snapshot now, every host included). */
  frontier: PostgresFrontier;
  /** This process's id (`processes.id`). */
  processId: string;
  /** The crawl's live processes as of the last heartbeat (this one included). */
  processes(): ProcessInfo[];
  /**
   * Stops this process's timers without writing anything (what a crash leaves: its lease runs
   * out and another process's sweep returns its in-flight URLs). For tests and abnormal exits;
   * a normal end calls close().
   */
  detach(): void;
}

/**
 * Opens the ports of crawl `crawlId` in `store` for this process: registers it (its lease),
 * sweeps the crawl's dead processes (their in-flight URLs go back to pending), reads the frontier's
 * snapshot and starts the heartbeat and the snapshot's poll. `close()` writes what is queued,
 * ends the process's row (giving back what it still holds) and stops the timers; it does not end
 * the pool (the caller owns it).
 * @throws CodedError CRAWL_NOT_FOUND; a storage error (STORE_UNREACHABLE …)
 */
export async function createPostgresCrawlStores(store: PostgresStore, crawlId: number, settings: PostgresStoreSettings, options: PostgresStoreOptions = {}): Promise<PostgresCrawlStores> {
  const policy: PolitenessPolicy = { maxInFlightPerHost: settings.maxInFlightPerHost, minDelayMs: settings.minDelayMs, maxDelayMs: settings.maxDelayMs, delayFactor: settings.delayFactor };
  const repository = new PostgresCrawlRepository(store);
  await repository.getCrawl(crawlId);
  const processId = options.processId ?? newProcessId();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const releases = new HostReleaseQueue();
  const traps = new PostgresTrapRows(crawlId);
  const frontier = new PostgresFrontier(store, crawlId, policy, {
    processId,
    releases,
    changeTrapState: (client, trapId, state, nowMs) => traps.changeState(client, trapId, state, nowMs),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  });
  // Progress for the heartbeat: pages this process committed done, and their rate since the last beat.
  let pagesDone = 0;
  let lastBeat = { atMs: Date.now(), pagesDone: 0 };
  const lease = await register(
    store,
    crawlId,
    { processId, role: options.role ?? 'crawl', hostname: os.hostname(), pid: process.pid },
    {
      leaseMs,
      progress: () => {
        const nowMs = Date.now();
        const pagesPerS = nowMs > lastBeat.atMs ? ((pagesDone - lastBeat.pagesDone) * 1000) / (nowMs - lastBeat.atMs) : 0;
        lastBeat = { atMs: nowMs, pagesDone };
        return { pagesDone, pagesPerS, inFlight: frontier.mine.size };
      },
    },
  );
  let live: ProcessInfo[] = [];
  const readLive = async () => {
    live = await liveProcesses(store, crawlId);
  };
  let endedWith: CrawlStatus | null = null;
  const contentIndex = new PostgresContentIndex(crawlId, { threshold: settings.nearDuplicateThreshold });
  const sitemaps = new PostgresSitemapRows(crawlId);
  const bodies = await PostgresBodyRows.open(store, crawlId, settings.maxStoredBodiesBytes ?? DEFAULT_CRAWL_SETTINGS.maxStoredBodiesBytes);
  const writer = new PostgresCrawlWriter(
    store,
    crawlId,
    { contentIndex, traps, sitemaps, bodies },
    {
      processId,
      leaseMs,
      policy,
      takeReleases: () => releases.take(),
      putBackReleases: (taken) => releases.putBack(taken),
      committed(batch: CommitBatch, result: CommitResult) {
        const settled = (batch.outcomes ?? []).map((outcome) => outcome.url.id);
        frontier.settled(settled);
        releases.forget(settled);
        for (const outcome of batch.outcomes ?? []) if (outcome.kind === 'done' || (outcome.kind === 'redirected' && !result.redirectLoops.includes(outcome.url.id))) pagesDone += 1;
        if (batch.status) endedWith = batch.status.status;
      },
      ended(status) {
        endedWith = status;
      },
    },
  );
  try {
    await frontier.refresh();
    await readLive();
  } catch (error) {
    await lease.close('failed').catch(() => undefined);
    throw postgresError(error, store.url);
  }
  lease.start();
  frontier.startPolling();
  // The live list follows the heartbeat (leaseMs / 5).
  const liveTimer = setInterval(() => void readLive().catch(() => undefined), Math.max(1, Math.floor(leaseMs / 5)));
  liveTimer.unref();
  let closed = false;
  const stopTimers = () => {
    clearInterval(liveTimer);
    frontier.stop();
    lease.stop();
  };
  const robots = new PostgresRobotsStore(store, crawlId);
  /** A read of the satellite files, its failure in plain words. */
  const read = async <T>(query: () => Promise<T>): Promise<T> => {
    try {
      return await query();
    } catch (error) {
      throw postgresError(error, store.url);
    }
  };
  return {
    crawlId,
    processId,
    frontier,
    robots,
    writer: {
      async commit(batch) {
        const result = await writer.commit(batch);
        // The hosts the batch touched: its outcomes', its new URLs', and those a new trap took URLs from.
        await frontier.refreshHosts([
          ...(batch.outcomes ?? []).map((outcome) => outcome.url.host),
          ...result.addedHosts,
          ...(result.heldFromPending ?? []).map((url) => url.host),
        ]);
        return result;
      },
      setStatus: (status, finishedAtMs) => writer.setStatus(status, finishedAtMs),
      summary: () => repository.getCrawl(crawlId),
      duplicateCount: () => repository.duplicateCount(crawlId),
      seedRedirectTargets: () => read(() => seedRedirectTargets(store.pool, crawlId)),
      knownTraps: () => read(() => storedTraps(store.pool, crawlId)),
      storedSitemaps: () => read(() => storedSitemapUrls(store.pool, crawlId)),
    },
    processes: () => [...live],
    detach() {
      closed = true;
      stopTimers();
    },
    async close() {
      if (closed) return;
      closed = true;
      stopTimers();
      try {
        await frontier.flushReleases();
      } finally {
        await lease.close(endedWith === 'finished' ? 'finished' : 'stopped');
      }
    },
  };
}

// The PostgreSQL frontier shared by several processes (issue 13): per-host limits and politeness
// crawl-wide, nothing claimed twice, a dead process's work returned, counts crawl-wide, the crawl's
// status left to the last process. Each "process" is its own stores on its own pool.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresUnavailableReason } from '../../../testweb/postgres';
import type { ClaimedUrl, FrontierCandidate, PolitenessPolicy } from '../ports';
import { PostgresCrawlRepository } from './crawl-repository';
import { createPostgresCrawlStores, type PostgresCrawlStores, type PostgresStoreOptions } from './crawl-stores';
import { openPostgresStore, type PostgresStore } from './pool';
import { liveProcesses } from './processes';
import { testSettings, useTestDatabases } from '../../../tests/support/postgres-stores';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`PostgreSQL frontier tests skipped: ${unavailable}`);

function candidate(host: string, path: string): FrontierCandidate {
  const url = `http://${host}/${path}`;
  return { url, normalized: url, normalizedKey: url, host, registrableDomain: host, depth: 0, discoveredFrom: null };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(unavailable !== null)('PostgreSQL frontier shared by processes', () => {
  const postgres = useTestDatabases();
  const pools: PostgresStore[] = [];
  const opened: PostgresCrawlStores[] = [];
  afterEach(async () => {
    for (const stores of opened.splice(0)) stores.detach();
    await Promise.all(pools.splice(0).map((pool) => pool.close()));
  });

  /** A crawl in a fresh database, and `n` processes on it, each with its own pool. */
  async function crawlWith(n: number, policy: PolitenessPolicy, options: PostgresStoreOptions = {}): Promise<{ url: string; crawlId: number; procs: PostgresCrawlStores[] }> {
    const url = await postgres.databases.create();
    const first = await openPostgresStore(url);
    pools.push(first);
    const crawlId = await new PostgresCrawlRepository(first).createCrawl(['http://h0.test/'], testSettings(policy), 0);
    const procs: PostgresCrawlStores[] = [];
    for (let i = 0; i < n; i += 1) procs.push(await join(url, crawlId, policy, options, i === 0 ? first : undefined));
    return { url, crawlId, procs };
  }

  async function join(url: string, crawlId: number, policy: PolitenessPolicy, options: PostgresStoreOptions = {}, pool?: PostgresStore): Promise<PostgresCrawlStores> {
    const store = pool ?? (await openPostgresStore(url));
    if (!pool) pools.push(store);
    const stores = await createPostgresCrawlStores(store, crawlId, testSettings(policy), options);
    opened.push(stores);
    return stores;
  }

  it('two processes claiming at once never exceed maxInFlightPerHost on a host and claim every URL exactly once', async () => {
    const policy = { maxInFlightPerHost: 2, minDelayMs: 0, maxDelayMs: 1_000, delayFactor: 0 };
    const { procs } = await crawlWith(2, policy);
    const all = Array.from({ length: 20 }, (_, h) => Array.from({ length: 50 }, (_, p) => candidate(`h${h}.test`, `p${p}`))).flat();
    expect((await procs[0]!.writer.commit({ nowMs: 0, candidates: all })).added).toBe(1_000);
    const claimedBy = new Map<number, string>();
    const holding = new Map<string, number>();
    let most = 0;
    let twice = 0;
    const work = async (stores: PostgresCrawlStores, index: number) => {
      for (let idle = 0; idle < 20; ) {
        const claimed = await stores.frontier.claimBatch(7, Date.now());
        if (claimed.length === 0) {
          idle += 1;
          await sleep(5);
          continue;
        }
        idle = 0;
        for (const url of claimed) {
          if (claimedBy.has(url.id)) twice += 1;
          claimedBy.set(url.id, stores.processId);
          const now = (holding.get(url.host) ?? 0) + 1;
          holding.set(url.host, now);
          most = Math.max(most, now);
        }
        await sleep(index);
        // Half the fetches release their host first (releaseHost), half only with their outcome.
        const disposition = { fetchMs: 1, nowMs: Date.now(), httpStatus: 200 };
        for (const url of claimed) holding.set(url.host, holding.get(url.host)! - 1);
        claimed.filter((url) => url.id % 2 === 0).forEach((url) => stores.frontier.releaseHost(url, disposition));
        await stores.writer.commit({ nowMs: Date.now(), outcomes: claimed.map((url) => ({ kind: 'done' as const, url, disposition })) });
      }
    };
    await Promise.all([work(procs[0]!, 0), work(procs[1]!, 1)]);
    expect(twice).toBe(0);
    expect(claimedBy.size).toBe(1_000);
    expect(most).toBeLessThanOrEqual(2);
    // Both did a share of the work.
    const byProcess = [...claimedBy.values()].filter((id) => id === procs[0]!.processId).length;
    expect(byProcess).toBeGreaterThan(100);
    expect(byProcess).toBeLessThan(900);
    await procs[1]!.frontier.refresh();
    expect(procs[1]!.frontier.counts()).toEqual({ pending: 0, inFlight: 0, done: 1_000, error: 0, blocked: 0, held: 0 });
    expect(procs[1]!.frontier.hostStates(Date.now()).every((host) => host.inFlight === 0)).toBe(true);
    expect(procs[1]!.frontier.nextEligibleAtMs()).toBeNull();
  }, 60_000);

  it("a politeness delay one process records is kept by the other, from its release or its outcome", async () => {
    const policy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 10_000, delayFactor: 10 };
    const { procs } = await crawlWith(2, policy);
    const [a, b] = procs as [PostgresCrawlStores, PostgresCrawlStores];
    await a.writer.commit({ nowMs: 0, candidates: [candidate('slow.test', '1'), candidate('slow.test', '2'), candidate('slow.test', '3')] });
    const [first] = await a.frontier.claimBatch(5, 0);
    expect(await b.frontier.claimBatch(5, 0)).toEqual([]);
    // The release alone (queued, flushed soon): 100 ms fetch × 10 = eligible at 1_000 + 1_000.
    a.frontier.releaseHost(first!, { fetchMs: 100, nowMs: 1_000 });
    await sleep(50);
    expect(await b.frontier.claimBatch(5, 1_999)).toEqual([]);
    // A host this process has not touched is as of its last poll: read it all now.
    await b.frontier.refresh();
    expect(b.frontier.hostStates(1_999)).toMatchObject([{ host: 'slow.test', inFlight: 0, nextEligibleAtMs: 2_000, waitingReason: 'politeness delay', holder: a.processId }]);
    const [second] = await b.frontier.claimBatch(5, 2_000);
    expect(second!.url).toBe('http://slow.test/2');
    // The outcome alone (no release first): a Retry-After of 5 s from 3_000.
    await b.writer.commit({ nowMs: 3_000, outcomes: [{ kind: 'requeued', url: second!, disposition: { fetchMs: 10, nowMs: 3_000, extraDelayMs: 5_000, extraDelayReason: 'Retry-After backoff' } }] });
    await a.writer.commit({ nowMs: 3_000, outcomes: [{ kind: 'done', url: first!, disposition: { fetchMs: 100, nowMs: 1_000, httpStatus: 200 } }] });
    expect(await a.frontier.claimBatch(5, 7_999)).toEqual([]);
    expect(a.frontier.hostStates(7_999)).toMatchObject([{ host: 'slow.test', nextEligibleAtMs: 8_000, waitingReason: 'Retry-After backoff', holder: b.processId }]);
    expect((await a.frontier.claimBatch(5, 8_000)).map((url) => [url.url, url.attempts])).toEqual([['http://slow.test/2', 1]]);
  });

  it("a killed process's in-flight URLs and host slots go back after its lease, and the other process claims them", async () => {
    const policy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 1_000, delayFactor: 0 };
    // The killed process's own lease (500 ms) decides when the survivor takes it for dead.
    const { procs, url, crawlId } = await crawlWith(1, policy, { leaseMs: 500 });
    const killed = procs[0]!;
    await killed.writer.commit({ nowMs: 0, candidates: ['a', 'b', 'c'].map((host) => candidate(`${host}.test`, 'x')) });
    const held = await killed.frontier.claimBatch(3, 0);
    expect(held).toHaveLength(3);
    // One fetch was over (its slot released) before the process died: the sweep must not free that slot twice.
    killed.frontier.releaseHost(held[0]!, { fetchMs: 0, nowMs: 0 });
    await sleep(50);
    killed.detach();
    const survivor = await join(url, crawlId, policy, { leaseMs: 500 });
    // Its lease is still fresh: nothing is taken from it yet.
    expect(await survivor.frontier.claimBatch(10, 1)).toEqual([]);
    expect(survivor.frontier.counts()).toMatchObject({ pending: 0, inFlight: 3 });
    expect(survivor.processes().map((p) => p.id).sort()).toEqual([killed.processId, survivor.processId].sort());
    let again: ClaimedUrl[] = [];
    for (let waited = 0; again.length === 0 && waited < 5_000; waited += 50) {
      await sleep(50);
      again = await survivor.frontier.claimBatch(10, 1);
    }
    expect(again.map((u) => u.url).sort()).toEqual(['http://a.test/x', 'http://b.test/x', 'http://c.test/x']);
    expect(again.every((u) => u.attempts === 1)).toBe(true);
    expect(survivor.frontier.hostStates(1).map((host) => host.inFlight)).toEqual([1, 1, 1]);
    const processes = await liveProcesses(pools[0]!, crawlId);
    expect(processes.map((p) => p.id)).toEqual([survivor.processId]);
    const { rows } = await pools[0]!.pool.query(`SELECT end_reason, returned_urls FROM processes WHERE id = $1`, [killed.processId]);
    expect(rows).toEqual([{ end_reason: 'lease-expired', returned_urls: 3 }]);
  }, 15_000);

  it('a process on this machine whose pid is gone is swept at once, without waiting for its lease', async () => {
    const policy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 1_000, delayFactor: 0 };
    const { procs, url, crawlId } = await crawlWith(1, policy);
    const crashed = procs[0]!;
    await crashed.writer.commit({ nowMs: 0, candidates: [candidate('a.test', 'x')] });
    await crashed.frontier.claimBatch(1, 0);
    crashed.detach();
    // A pid that no longer runs: a child that exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    await pools[0]!.pool.query(`UPDATE processes SET pid = $2, hostname = $3 WHERE id = $1`, [crashed.processId, Number(gone), os.hostname()]);
    const resumed = await join(url, crawlId, policy, { role: 'resume' });
    expect(resumed.frontier.counts()).toMatchObject({ pending: 1, inFlight: 0 });
    expect((await resumed.frontier.claimBatch(1, 1)).map((u) => u.url)).toEqual(['http://a.test/x']);
  });

  it('counts are crawl-wide, and only the last process to end sets the crawl status', async () => {
    const policy = { maxInFlightPerHost: 5, minDelayMs: 0, maxDelayMs: 1_000, delayFactor: 0 };
    const { procs, crawlId } = await crawlWith(2, policy);
    const [a, b] = procs as [PostgresCrawlStores, PostgresCrawlStores];
    await a.writer.commit({ nowMs: 0, candidates: Array.from({ length: 10 }, (_, i) => candidate('a.test', String(i))) });
    const fromA = await a.frontier.claimBatch(2, 0);
    await b.frontier.claimBatch(3, 0);
    await a.writer.commit({ nowMs: 1, outcomes: [{ kind: 'done', url: fromA[0]!, disposition: { fetchMs: 0, nowMs: 1, httpStatus: 200 } }] });
    await b.frontier.refresh();
    for (const stores of [a, b]) expect(stores.frontier.counts()).toEqual({ pending: 5, inFlight: 4, done: 1, error: 0, blocked: 0, held: 0 });
    const repository = new PostgresCrawlRepository(pools[0]!);
    expect(await repository.stateCounts(crawlId)).toEqual({ pending: 5, in_flight: 4, done: 1, error: 0, blocked: 0, held: 0 });
    await a.writer.setStatus('finished', 10);
    expect((await repository.getCrawl(crawlId)).status).toBe('running');
    await b.writer.setStatus('finished', 20);
    expect(await repository.getCrawl(crawlId)).toMatchObject({ status: 'finished', finishedAtMs: 20, fetched: 1, queued: 9 });
    await a.close();
    await b.close();
    // Closing gave back what each still held, and wrote each one's pages done.
    expect(await repository.stateCounts(crawlId)).toMatchObject({ pending: 9, in_flight: 0 });
    const { rows: ended } = await pools[0]!.pool.query(`SELECT id, end_reason, pages_done, in_flight, returned_urls FROM processes WHERE crawl_id = $1 ORDER BY started_at_ms, id`, [crawlId]);
    expect(ended).toEqual([
      { id: a.processId, end_reason: 'finished', pages_done: 1, in_flight: 0, returned_urls: 0 },
      { id: b.processId, end_reason: 'finished', pages_done: 0, in_flight: 0, returned_urls: 0 },
    ]);
    const { rows } = await pools[0]!.pool.query<{ n: number }>(`SELECT sum(in_flight)::bigint AS n FROM hosts WHERE crawl_id = $1`, [crawlId]);
    expect(rows[0]!.n).toBe(0);
  });

  it('fractional ms (durations from performance.now()) are stored as whole ms: a host becomes eligible no earlier than the formula says', async () => {
    const policy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 10_000, delayFactor: 10 };
    const [stores] = (await crawlWith(1, policy)).procs as [PostgresCrawlStores];
    await stores.writer.commit({ nowMs: 0.4, candidates: [candidate('a.test', '1'), candidate('a.test', '2')] });
    const [first] = await stores.frontier.claimBatch(1, 0.6);
    const disposition = { fetchMs: 10.25, nowMs: 1_000.7, httpStatus: 200 };
    stores.frontier.releaseHost(first!, disposition);
    const row = { urlId: first!.id, finalUrl: first!.url, httpStatus: 200, contentType: null, bodyBytes: 1, truncated: false, fetchMs: 10.25, title: null, location: null, fetchedAtMs: 1_000.7, fingerprint: null, minhash: null, textChars: null, noindex: false, linksOverCap: 0 };
    await stores.writer.commit({ nowMs: 1_000.7, pages: [{ row, text: null, content: null }], outcomes: [{ kind: 'done', url: first!, disposition }], status: { status: 'running', finishedAtMs: null } });
    // 1_000.7 + 10 × 10.25 = 1_103.2: eligible at 1_104.
    expect(stores.frontier.hostStates(0)).toMatchObject([{ host: 'a.test', nextEligibleAtMs: 1_104 }]);
    expect(await stores.frontier.claimBatch(1, 1_103.9)).toEqual([]);
    expect(await stores.frontier.claimBatch(1, 1_104)).toHaveLength(1);
    const { rows } = await pools[0]!.pool.query(`SELECT u.fetched_at_ms, p.fetched_at_ms AS page_at, p.fetch_ms FROM urls u JOIN pages p ON p.url_id = u.id`);
    expect(rows).toEqual([{ fetched_at_ms: 1_001, page_at: 1_001, fetch_ms: 10 }]);
    await stores.writer.setStatus('stopped', 2_000.5);
    expect((await stores.writer.summary()).finishedAtMs).toBe(2_001);
  });

  it('a sitemap host slot is reserved crawl-wide: taken once granted, refused while the host is busy, given back with its delay', async () => {
    const policy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 10_000, delayFactor: 10 };
    const { procs } = await crawlWith(2, policy, { pollMs: 20 });
    const [a, b] = procs as [PostgresCrawlStores, PostgresCrawlStores];
    expect(a.frontier.takeHostSlot('maps.test', 0)).toEqual({ taken: false, retryAtMs: 20 });
    await sleep(50);
    expect(a.frontier.takeHostSlot('maps.test', 0)).toEqual({ taken: true });
    // The other process cannot take the host's one slot, nor claim a URL of it.
    await b.writer.commit({ nowMs: 0, candidates: [candidate('maps.test', 'page')] });
    expect(await b.frontier.claimBatch(5, 0)).toEqual([]);
    b.frontier.takeHostSlot('maps.test', 0);
    await sleep(50);
    expect(b.frontier.takeHostSlot('maps.test', 0)).toMatchObject({ taken: false });
    a.frontier.returnHostSlot('maps.test', { fetchMs: 100, nowMs: 500 });
    await sleep(50);
    expect(await b.frontier.claimBatch(5, 1_499)).toEqual([]);
    expect((await b.frontier.claimBatch(5, 1_500)).map((u) => u.url)).toEqual(['http://maps.test/page']);
  });
});

/**
 * The contract every crawl store passes (store/ports.ts): the frontier's URL-seen test, claims,
 * outcomes, host fairness and politeness bookkeeping, the per-host in-flight limit, the unit of
 * work's atomicity, and crash semantics. A backend registers it from its own test file with a
 * harness (SQLite: store/sqlite/crawl-stores.contract.test.ts; PostgreSQL next).
 */
import { describe, expect, it } from 'vitest';
import type { Awaitable, CrawlStores, FrontierCandidate, PolitenessPolicy } from '../ports';

/** How the suite opens a backend's stores. */
export interface StoreHarness {
  /** A fresh crawl in an empty store, its frontier under `policy`. */
  open(policy: PolitenessPolicy): Awaitable<CrawlStores>;
  /**
   * The same crawl as a new process sees it after `stores`' process died (no outcome recorded for
   * what it held in flight, nothing in memory kept).
   */
  reopen(stores: CrawlStores, policy: PolitenessPolicy): Awaitable<CrawlStores>;
  /** Rows stored for the crawl, read past the ports (for atomicity). */
  storedRows(stores: CrawlStores): Awaitable<{ urls: number; pages: number; links: number }>;
  /** Releases everything opened. */
  close(): Awaitable<void>;
}

/** One slot per host, no delay: claims are limited by the in-flight limit only. */
const OPEN: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 30_000, delayFactor: 0 };

function candidate(host: string, path: string, depth = 0, key?: string): FrontierCandidate {
  const url = `http://${host}/${path}`;
  return { url, normalized: url, normalizedKey: key ?? `key:${url}`, host, registrableDomain: host, depth, discoveredFrom: null };
}

function many(host: string, n: number): FrontierCandidate[] {
  return Array.from({ length: n }, (_, i) => candidate(host, `p${i}`));
}

/** Registers the contract suite under `name` for the backend `harness` opens. */
export function frontierStoreContract(name: string, harness: () => StoreHarness): void {
  describe(`crawl store contract: ${name}`, () => {
    /** Opens stores, runs `body`, closes them whatever happens. */
    async function withStores(policy: PolitenessPolicy, body: (stores: CrawlStores, h: StoreHarness) => Promise<void>): Promise<void> {
      const h = harness();
      try {
        await body(await h.open(policy), h);
      } finally {
        await h.close();
      }
    }

    describe('URL-seen test', () => {
      it('gives each candidate its id, counts only new keys, and keeps one URL per key (also within one batch)', () =>
        withStores(OPEN, async ({ frontier, unitOfWork }) => {
          const first = await unitOfWork.run(() => frontier.add([candidate('a.test', 'x'), candidate('a.test', 'x'), candidate('a.test', 'y')], 10));
          expect(first.added).toBe(2);
          expect(first.ids[0]).toBe(first.ids[1]);
          expect(first.ids[2]).not.toBe(first.ids[0]);
          const respelled = { ...candidate('a.test', 'X-other-spelling'), normalizedKey: 'key:http://a.test/x' };
          const second = await unitOfWork.run(() => frontier.add([respelled, candidate('a.test', 'z')], 20));
          expect(second.added).toBe(1);
          expect(second.ids[0]).toBe(first.ids[0]);
          expect(frontier.counts()).toEqual({ pending: 3, inFlight: 0, done: 0, error: 0 });
        }));

      it('still knows a URL after its fetch was recorded, and never hands it out again', () =>
        withStores(OPEN, async ({ frontier, unitOfWork }) => {
          await unitOfWork.run(() => frontier.add([candidate('a.test', 'x')], 0));
          const [url] = await unitOfWork.run(() => frontier.claimBatch(1, 0));
          await unitOfWork.run(() => frontier.complete(url!, { fetchMs: 1, nowMs: 1, httpStatus: 200 }));
          expect(await unitOfWork.run(() => frontier.add([candidate('a.test', 'x')], 2))).toEqual({ ids: [url!.id], added: 0 });
          expect(await unitOfWork.run(() => frontier.claimBatch(10, 10_000))).toEqual([]);
          expect(frontier.nextEligibleAtMs()).toBeNull();
        }));
    });

    describe('claims and outcomes', () => {
      it('claims up to max URLs, each with its fields, in flight until its outcome is recorded', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 10 }, async ({ frontier, unitOfWork }) => {
          await unitOfWork.run(() => frontier.add([...many('a.test', 3), { ...candidate('a.test', 'deep', 2), redirectHops: 1 }], 0));
          const claimed = await unitOfWork.run(() => frontier.claimBatch(2, 0));
          expect(claimed).toHaveLength(2);
          expect(claimed[0]).toEqual({ id: expect.any(Number), url: 'http://a.test/p0', host: 'a.test', depth: 0, attempts: 0, redirectHops: 0 });
          expect(frontier.counts()).toEqual({ pending: 2, inFlight: 2, done: 0, error: 0 });
          await unitOfWork.run(() => {
            frontier.complete(claimed[0]!, { fetchMs: 5, nowMs: 5, httpStatus: 200 });
            frontier.fail(claimed[1]!, { code: 'HTTP_404', message: 'HTTP 404' }, { fetchMs: 5, nowMs: 5, httpStatus: 404 });
          });
          expect(frontier.counts()).toEqual({ pending: 2, inFlight: 0, done: 1, error: 1 });
          const rest = await unitOfWork.run(() => frontier.claimBatch(10, 10));
          // Breadth first: the depth-2 URL comes last.
          expect(rest.map((url) => [url.url, url.redirectHops])).toEqual([
            ['http://a.test/p2', 0],
            ['http://a.test/deep', 1],
          ]);
        }));

      it('refetch puts a settled URL back first in its host\'s queue (Re-fetch now); a queued, in-flight or unknown URL is left alone', () =>
        withStores(OPEN, async ({ frontier, unitOfWork }) => {
          await unitOfWork.run(() => frontier.add([candidate('a.test', 'x'), ...many('a.test', 3).map((c) => ({ ...c, depth: 1 }))], 0));
          const [x] = await unitOfWork.run(() => frontier.claimBatch(1, 0));
          await unitOfWork.run(() => frontier.complete(x!, { fetchMs: 0, nowMs: 1, httpStatus: 200 }));
          expect(await unitOfWork.run(() => frontier.refetch(x!.id, 2))).toBe('queued');
          expect(frontier.counts()).toEqual({ pending: 4, inFlight: 0, done: 0, error: 0 });
          expect(await unitOfWork.run(() => frontier.refetch(x!.id, 2))).toBe('already-queued');
          const [again] = await unitOfWork.run(() => frontier.claimBatch(1, 2));
          expect(again!.id).toBe(x!.id);
          expect(await unitOfWork.run(() => frontier.refetch(x!.id, 3))).toBe('in-flight');
          expect(await unitOfWork.run(() => frontier.refetch(987_654, 3))).toBe('not-found');
        }));

      it('a requeued URL is handed out again, with one more attempt, after its host waited', () =>
        withStores(OPEN, async ({ frontier, unitOfWork }) => {
          await unitOfWork.run(() => frontier.add([candidate('a.test', 'x')], 0));
          const [url] = await unitOfWork.run(() => frontier.claimBatch(1, 0));
          await unitOfWork.run(() => frontier.requeue(url!, { fetchMs: 0, nowMs: 100, extraDelayMs: 2_000, extraDelayReason: 'Retry-After backoff' }));
          expect(frontier.counts()).toEqual({ pending: 1, inFlight: 0, done: 0, error: 0 });
          expect(frontier.nextEligibleAtMs()).toBe(2_100);
          expect(frontier.hostStates(1_000)).toEqual([{ host: 'a.test', inFlight: 0, nextEligibleAtMs: 2_100, waitingReason: 'Retry-After backoff' }]);
          expect(await unitOfWork.run(() => frontier.claimBatch(1, 2_099))).toEqual([]);
          const [again] = await unitOfWork.run(() => frontier.claimBatch(1, 2_100));
          expect(again).toMatchObject({ id: url!.id, attempts: 1 });
        }));
    });

    describe('per-host in-flight limit', () => {
      it('hands out at most maxInFlightPerHost URLs of a host until one is released', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 2 }, async ({ frontier, unitOfWork }) => {
          await unitOfWork.run(() => frontier.add(many('a.test', 5), 0));
          const claimed = await unitOfWork.run(() => frontier.claimBatch(10, 0));
          expect(claimed).toHaveLength(2);
          expect(await unitOfWork.run(() => frontier.claimBatch(10, 0))).toEqual([]);
          expect(frontier.hostStates(0)).toEqual([{ host: 'a.test', inFlight: 2, nextEligibleAtMs: 0, waitingReason: 'connection limit' }]);
          // The slot is free as soon as the fetch is over, before its outcome is recorded.
          frontier.releaseHost(claimed[0]!, { fetchMs: 0, nowMs: 1 });
          expect(await unitOfWork.run(() => frontier.claimBatch(10, 1))).toHaveLength(1);
          // Recording the outcome later does not free the slot a second time.
          await unitOfWork.run(() => frontier.complete(claimed[0]!, { fetchMs: 0, nowMs: 2, httpStatus: 200 }));
          expect(await unitOfWork.run(() => frontier.claimBatch(10, 2))).toEqual([]);
        }));
    });

    describe('host fairness', () => {
      it('a host with 1000 pending URLs does not starve a host with one', () =>
        withStores(OPEN, async ({ frontier, unitOfWork }) => {
          await unitOfWork.run(() => frontier.add([...many('big.test', 1000), candidate('small.test', 'only')], 0));
          const claimed = await unitOfWork.run(() => frontier.claimBatch(10, 0));
          // One slot per host: a batch holds one URL of each host with work.
          expect(claimed.map((url) => url.host).sort()).toEqual(['big.test', 'small.test']);
        }));

      it('while a slow giant host waits its politeness delay, a small host is served', () =>
        withStores({ ...OPEN, delayFactor: 10 }, async ({ frontier, unitOfWork }) => {
          await unitOfWork.run(() => frontier.add([...many('big.test', 100), ...many('small.test', 3)], 0));
          let now = 0;
          const served: string[] = [];
          for (let step = 0; step < 6; step += 1) {
            const claimed = await unitOfWork.run(() => frontier.claimBatch(10, now));
            for (const url of claimed) {
              served.push(url.host);
              // big.test answers in 100 ms (waits 1 s), small.test in 1 ms (waits 10 ms).
              const fetchMs = url.host === 'big.test' ? 100 : 1;
              await unitOfWork.run(() => frontier.complete(url, { fetchMs, nowMs: now, httpStatus: 200 }));
            }
            now += 20;
          }
          expect(served.filter((host) => host === 'small.test')).toHaveLength(3);
          expect(served.filter((host) => host === 'big.test')).toHaveLength(1);
        }));
    });

    describe('politeness bookkeeping', () => {
      it('after a fetch its host is next eligible at now + clamp(max(minDelayMs, k × fetchMs, extraDelayMs), maxDelayMs)', () =>
        withStores({ maxInFlightPerHost: 1, minDelayMs: 500, maxDelayMs: 5_000, delayFactor: 10 }, async ({ frontier, unitOfWork }) => {
          await unitOfWork.run(() => frontier.add([...many('a.test', 2), ...many('b.test', 2), ...many('c.test', 2), ...many('d.test', 2)], 0));
          const first = await unitOfWork.run(() => frontier.claimBatch(10, 0));
          expect(first).toHaveLength(4);
          const byHost = new Map(first.map((url) => [url.host, url]));
          await unitOfWork.run(() => {
            frontier.complete(byHost.get('a.test')!, { fetchMs: 200, nowMs: 1_000, httpStatus: 200 }); // k × fetchMs: 2000
            frontier.complete(byHost.get('b.test')!, { fetchMs: 10, nowMs: 1_000, httpStatus: 200 }); // minDelayMs: 500
            frontier.complete(byHost.get('c.test')!, { fetchMs: 10, nowMs: 1_000, httpStatus: 200, extraDelayMs: 3_000 }); // Crawl-delay: 3000
            frontier.complete(byHost.get('d.test')!, { fetchMs: 10_000, nowMs: 1_000, httpStatus: 200 }); // capped: 5000
          });
          const eligible = Object.fromEntries(frontier.hostStates(1_000).map((state) => [state.host, [state.nextEligibleAtMs, state.waitingReason]]));
          expect(eligible).toEqual({
            'a.test': [3_000, 'politeness delay'],
            'b.test': [1_500, 'politeness delay'],
            'c.test': [4_000, 'robots Crawl-delay'],
            'd.test': [6_000, 'politeness delay'],
          });
          expect(frontier.nextEligibleAtMs()).toBe(1_500);
          expect(frontier.politenessDelayMs(200)).toBe(2_000);
          expect((await unitOfWork.run(() => frontier.claimBatch(10, 1_499))).length).toBe(0);
          expect((await unitOfWork.run(() => frontier.claimBatch(10, 1_500))).map((url) => url.host)).toEqual(['b.test']);
          expect((await unitOfWork.run(() => frontier.claimBatch(10, 6_000))).map((url) => url.host).sort()).toEqual(['a.test', 'c.test', 'd.test']);
        }));
    });

    describe('unit of work', () => {
      it('returns what its work returns', () =>
        withStores(OPEN, async ({ unitOfWork }) => {
          expect(await unitOfWork.run(() => 42)).toBe(42);
        }));

      it('a failed unit of work leaves nothing stored: no URL, page or link', () =>
        withStores(OPEN, async (stores, h) => {
          const { frontier, writer, unitOfWork } = stores;
          await unitOfWork.run(() => frontier.add([candidate('a.test', 'seed')], 0));
          const [seed] = await unitOfWork.run(() => frontier.claimBatch(1, 0));
          const before = await h.storedRows(stores);
          const boom = new Error('disk full');
          const failed = (async () =>
            unitOfWork.run(() => {
              frontier.complete(seed!, { fetchMs: 1, nowMs: 1, httpStatus: 200 });
              writer.insertPage({ urlId: seed!.id, finalUrl: seed!.url, httpStatus: 200, contentType: 'text/html', bodyBytes: 1, truncated: false, fetchMs: 1, title: null, location: null, fetchedAtMs: 1, fingerprint: null, minhash: null, textChars: null, noindex: false, linksOverCap: 0 });
              const { ids } = frontier.add(many('b.test', 3), 1);
              writer.insertLink({ fromUrlId: seed!.id, rawUrl: 'http://b.test/p0', toUrlId: ids[0]!, kind: 'a', refusedBy: null });
              throw boom;
            }))();
          await expect(failed).rejects.toBe(boom);
          expect(await h.storedRows(stores)).toEqual(before);
          // A store is dropped after a failed unit (the run aborts); the next one sees the seed pending again.
          const reopened = await h.reopen(stores, OPEN);
          expect(reopened.frontier.counts()).toEqual({ pending: 1, inFlight: 0, done: 0, error: 0 });
        }));
    });

    describe('crash semantics', () => {
      it('a store reopened after a crash returns in-flight URLs to pending and keeps recorded outcomes', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 5 }, async (stores, h) => {
          const { frontier, unitOfWork } = stores;
          const ids = (await unitOfWork.run(() => frontier.add(many('a.test', 4), 0))).ids;
          const claimed = await unitOfWork.run(() => frontier.claimBatch(3, 0));
          await unitOfWork.run(() => frontier.complete(claimed[0]!, { fetchMs: 1, nowMs: 1, httpStatus: 200 }));
          // The process dies with claimed[1] and claimed[2] in flight.
          const reopened = await h.reopen(stores, { ...OPEN, maxInFlightPerHost: 5 });
          expect(reopened.frontier.counts()).toEqual({ pending: 3, inFlight: 0, done: 1, error: 0 });
          const again = await reopened.unitOfWork.run(() => reopened.frontier.claimBatch(10, 0));
          expect(again.map((url) => url.id)).toEqual(ids.filter((id) => id !== claimed[0]!.id));
          // The URL-seen test survives the crash: nothing known is added again.
          expect((await reopened.unitOfWork.run(() => reopened.frontier.add(many('a.test', 4), 0))).added).toBe(0);
        }));
    });
  });
}

/**
 * The contract every crawl store passes (store/ports.ts): the frontier's URL-seen test, claims,
 * outcomes, host fairness and politeness bookkeeping, the per-host in-flight limit, commit batches
 * (ids resolved by normalized key, redirect loops, the content-seen test, atomicity), and crash
 * semantics. A backend registers it from its own test file with a
 * harness (SQLite: store/sqlite/crawl-stores.contract.test.ts; PostgreSQL next).
 */
import { describe, expect, it } from 'vitest';
import type { Awaitable, ClaimedUrl, CrawlStores, Disposition, FrontierCandidate, PageRow, PolitenessPolicy, UrlOutcome } from '../ports';
import { MINHASH_SIZE } from '../../dedupe/shingles';
import type { PageContent } from '../../worker/protocol';
import { bodyBytes, storedBody } from '../../bodies/stored-body';
import { seenEntryId, seenEntrySources } from '../../dedupe/seen-cache';
import { URL_SOURCE_BITS } from '../../../shared/types/url-sources';

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
  /** URL ids of the crawl's pages with a stored text excerpt, ascending, read past the ports. */
  storedTexts(stores: CrawlStores): Awaitable<number[]>;
  /** The crawl's stored bodies (issue 14 part 1), read past the ports, by URL id. */
  storedBodies(stores: CrawlStores): Awaitable<StoredBodyRow[]>;
  /** Releases everything opened. */
  close(): Awaitable<void>;
}

/** A stored body as the harness reads it back. */
export interface StoredBodyRow {
  urlId: number;
  encoding: string;
  rawBytes: number;
  truncated: boolean;
  payloadDigest: string;
  bytes: Uint8Array;
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

/** Enqueues `candidates` at `nowMs` (a batch of new URLs alone). @returns how many were new */
async function add(stores: CrawlStores, candidates: FrontierCandidate[], nowMs: number): Promise<number> {
  return (await stores.writer.commit({ nowMs, candidates })).added;
}

/** Records outcomes (a batch of outcomes alone). */
async function record(stores: CrawlStores, nowMs: number, ...outcomes: UrlOutcome[]): Promise<void> {
  await stores.writer.commit({ nowMs, outcomes });
}

const done = (url: ClaimedUrl, disposition: Disposition): UrlOutcome => ({ kind: 'done', url, disposition });

function pageRow(url: ClaimedUrl, fields: Partial<PageRow> = {}): PageRow {
  return { urlId: url.id, finalUrl: url.url, httpStatus: 200, contentType: 'text/html', bodyBytes: 1, truncated: false, fetchMs: 1, title: null, location: null, fetchedAtMs: 1, fingerprint: null, minhash: null, textChars: null, noindex: false, linksOverCap: 0, ...fields };
}

function content(fingerprint: string): PageContent {
  return { fingerprint, minhash: new Uint32Array(MINHASH_SIZE).fill(7), words: 100, textChars: 600, excerpt: 'same text' };
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
      it('counts only new keys and keeps one URL per key, also within one batch', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 10 }, async (stores) => {
          const { frontier } = stores;
          expect(await add(stores, [candidate('a.test', 'x'), candidate('a.test', 'x'), candidate('a.test', 'y')], 10)).toBe(2);
          const respelled = { ...candidate('a.test', 'X-other-spelling'), normalizedKey: 'key:http://a.test/x' };
          expect(await add(stores, [respelled, candidate('a.test', 'z')], 20)).toBe(1);
          expect(frontier.counts()).toEqual({ pending: 3, inFlight: 0, done: 0, error: 0, blocked: 0, held: 0 });
          // The first spelling met is the URL fetched.
          expect((await frontier.claimBatch(10, 20)).map((url) => url.url)).toEqual(['http://a.test/x', 'http://a.test/y', 'http://a.test/z']);
        }));

      it('still knows a URL after its fetch was recorded, and never hands it out again', () =>
        withStores(OPEN, async (stores) => {
          const { frontier } = stores;
          await add(stores, [candidate('a.test', 'x')], 0);
          const [url] = await frontier.claimBatch(1, 0);
          await record(stores, 1, done(url!, { fetchMs: 1, nowMs: 1, httpStatus: 200 }));
          expect(await add(stores, [candidate('a.test', 'x')], 2)).toBe(0);
          expect(await frontier.claimBatch(10, 10_000)).toEqual([]);
          expect(frontier.nextEligibleAtMs()).toBeNull();
        }));
    });

    describe('claims and outcomes', () => {
      it('claims up to max URLs, each with its fields, in flight until its outcome is recorded', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 10 }, async (stores) => {
          const { frontier } = stores;
          await add(stores, [...many('a.test', 3), { ...candidate('a.test', 'deep', 2), redirectHops: 1 }], 0);
          const claimed = await frontier.claimBatch(2, 0);
          expect(claimed).toHaveLength(2);
          expect(claimed[0]).toEqual({ id: expect.any(Number), url: 'http://a.test/p0', host: 'a.test', depth: 0, attempts: 0, redirectHops: 0 });
          expect(frontier.counts()).toEqual({ pending: 2, inFlight: 2, done: 0, error: 0, blocked: 0, held: 0 });
          await record(stores, 5, done(claimed[0]!, { fetchMs: 5, nowMs: 5, httpStatus: 200 }), { kind: 'failed', url: claimed[1]!, error: { code: 'HTTP_404', message: 'HTTP 404' }, disposition: { fetchMs: 5, nowMs: 5, httpStatus: 404 } });
          expect(frontier.counts()).toEqual({ pending: 2, inFlight: 0, done: 1, error: 1, blocked: 0, held: 0 });
          const rest = await frontier.claimBatch(10, 10);
          // Breadth first: the depth-2 URL comes last.
          expect(rest.map((url) => [url.url, url.redirectHops])).toEqual([
            ['http://a.test/p2', 0],
            ['http://a.test/deep', 1],
          ]);
        }));

      it('a blocked URL is counted apart from errors, never handed out again, and frees its host slot', () =>
        withStores(OPEN, async (stores, h) => {
          const { frontier } = stores;
          await add(stores, [candidate('a.test', 'private/x'), candidate('a.test', 'y')], 0);
          const [blocked] = await frontier.claimBatch(1, 0);
          const reason = { code: 'ROBOTS_DISALLOWED', message: 'robots.txt disallows it' };
          await record(stores, 0, { kind: 'blocked', url: blocked!, reason, robotsLine: '2: Disallow: /private/', disposition: { fetchMs: 0, nowMs: 0 } });
          expect(frontier.counts()).toEqual({ pending: 1, inFlight: 0, done: 0, error: 0, blocked: 1, held: 0 });
          // Its host slot is free at once (nothing was fetched), and the URL is not handed out again.
          const next = await frontier.claimBatch(10, 0);
          expect(next.map((url) => url.url)).toEqual(['http://a.test/y']);
          expect(await add(stores, [candidate('a.test', 'private/x')], 1)).toBe(0);
          // A new process counts it as blocked too.
          const reopened = await h.reopen(stores, OPEN);
          expect(reopened.frontier.counts()).toEqual({ pending: 1, inFlight: 0, done: 0, error: 0, blocked: 1, held: 0 });
        }));

      it('refetch puts a settled URL back first in its host\'s queue (Re-fetch now); a queued, in-flight or unknown URL is left alone', () =>
        withStores(OPEN, async (stores) => {
          const { frontier } = stores;
          await add(stores, [candidate('a.test', 'x'), ...many('a.test', 3).map((c) => ({ ...c, depth: 1 }))], 0);
          const [x] = await frontier.claimBatch(1, 0);
          await record(stores, 1, done(x!, { fetchMs: 0, nowMs: 1, httpStatus: 200 }));
          expect(await frontier.refetch(x!.id, 2)).toBe('queued');
          expect(frontier.counts()).toEqual({ pending: 4, inFlight: 0, done: 0, error: 0, blocked: 0, held: 0 });
          expect(await frontier.refetch(x!.id, 2)).toBe('already-queued');
          const [again] = await frontier.claimBatch(1, 2);
          expect(again!.id).toBe(x!.id);
          expect(await frontier.refetch(x!.id, 3)).toBe('in-flight');
          expect(await frontier.refetch(987_654, 3)).toBe('not-found');
        }));

      it('a requeued URL is handed out again, with one more attempt, after its host waited', () =>
        withStores(OPEN, async (stores) => {
          const { frontier } = stores;
          await add(stores, [candidate('a.test', 'x')], 0);
          const [url] = await frontier.claimBatch(1, 0);
          await record(stores, 100, { kind: 'requeued', url: url!, disposition: { fetchMs: 0, nowMs: 100, extraDelayMs: 2_000, extraDelayReason: 'Retry-After backoff' } });
          expect(frontier.counts()).toEqual({ pending: 1, inFlight: 0, done: 0, error: 0, blocked: 0, held: 0 });
          expect(frontier.nextEligibleAtMs()).toBe(2_100);
          // toMatchObject: a shared store also names the host's holder (HostState.holder).
          expect(frontier.hostStates(1_000)).toMatchObject([{ host: 'a.test', inFlight: 0, nextEligibleAtMs: 2_100, waitingReason: 'Retry-After backoff' }]);
          expect(await frontier.claimBatch(1, 2_099)).toEqual([]);
          const [again] = await frontier.claimBatch(1, 2_100);
          expect(again).toMatchObject({ id: url!.id, attempts: 1 });
        }));
    });

    describe('per-host in-flight limit', () => {
      it('hands out at most maxInFlightPerHost URLs of a host until one is released', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 2 }, async (stores) => {
          const { frontier } = stores;
          await add(stores, many('a.test', 5), 0);
          const claimed = await frontier.claimBatch(10, 0);
          expect(claimed).toHaveLength(2);
          expect(await frontier.claimBatch(10, 0)).toEqual([]);
          expect(frontier.hostStates(0)).toMatchObject([{ host: 'a.test', inFlight: 2, nextEligibleAtMs: 0, waitingReason: 'connection limit' }]);
          // The slot is free as soon as the fetch is over, before its outcome is recorded.
          frontier.releaseHost(claimed[0]!, { fetchMs: 0, nowMs: 1 });
          expect(await frontier.claimBatch(10, 1)).toHaveLength(1);
          // Recording the outcome later does not free the slot a second time.
          await record(stores, 2, done(claimed[0]!, { fetchMs: 0, nowMs: 2, httpStatus: 200 }));
          expect(await frontier.claimBatch(10, 2)).toEqual([]);
        }));
    });

    describe('host fairness', () => {
      it('a host with 1000 pending URLs does not starve a host with one', () =>
        withStores(OPEN, async (stores) => {
          await add(stores, [...many('big.test', 1000), candidate('small.test', 'only')], 0);
          const claimed = await stores.frontier.claimBatch(10, 0);
          // One slot per host: a batch holds one URL of each host with work.
          expect(claimed.map((url) => url.host).sort()).toEqual(['big.test', 'small.test']);
        }));

      it('while a slow giant host waits its politeness delay, a small host is served', () =>
        withStores({ ...OPEN, delayFactor: 10 }, async (stores) => {
          await add(stores, [...many('big.test', 100), ...many('small.test', 3)], 0);
          let now = 0;
          const served: string[] = [];
          for (let step = 0; step < 6; step += 1) {
            const claimed = await stores.frontier.claimBatch(10, now);
            for (const url of claimed) {
              served.push(url.host);
              // big.test answers in 100 ms (waits 1 s), small.test in 1 ms (waits 10 ms).
              const fetchMs = url.host === 'big.test' ? 100 : 1;
              await record(stores, now, done(url, { fetchMs, nowMs: now, httpStatus: 200 }));
            }
            now += 20;
          }
          expect(served.filter((host) => host === 'small.test')).toHaveLength(3);
          expect(served.filter((host) => host === 'big.test')).toHaveLength(1);
        }));
    });

    describe('politeness bookkeeping', () => {
      it('after a fetch its host is next eligible at now + clamp(max(minDelayMs, k × fetchMs, extraDelayMs), maxDelayMs)', () =>
        withStores({ maxInFlightPerHost: 1, minDelayMs: 500, maxDelayMs: 5_000, delayFactor: 10 }, async (stores) => {
          const { frontier } = stores;
          await add(stores, [...many('a.test', 2), ...many('b.test', 2), ...many('c.test', 2), ...many('d.test', 2)], 0);
          const first = await frontier.claimBatch(10, 0);
          expect(first).toHaveLength(4);
          const byHost = new Map(first.map((url) => [url.host, url]));
          await record(
            stores,
            1_000,
            done(byHost.get('a.test')!, { fetchMs: 200, nowMs: 1_000, httpStatus: 200 }), // k × fetchMs: 2000
            done(byHost.get('b.test')!, { fetchMs: 10, nowMs: 1_000, httpStatus: 200 }), // minDelayMs: 500
            done(byHost.get('c.test')!, { fetchMs: 10, nowMs: 1_000, httpStatus: 200, extraDelayMs: 3_000 }), // Crawl-delay: 3000
            done(byHost.get('d.test')!, { fetchMs: 10_000, nowMs: 1_000, httpStatus: 200 }), // capped: 5000
          );
          const eligible = Object.fromEntries(frontier.hostStates(1_000).map((state) => [state.host, [state.nextEligibleAtMs, state.waitingReason]]));
          expect(eligible).toEqual({
            'a.test': [3_000, 'politeness delay'],
            'b.test': [1_500, 'politeness delay'],
            'c.test': [4_000, 'robots Crawl-delay'],
            'd.test': [6_000, 'politeness delay'],
          });
          expect(frontier.nextEligibleAtMs()).toBe(1_500);
          expect(frontier.politenessDelayMs(200)).toBe(2_000);
          expect((await frontier.claimBatch(10, 1_499)).length).toBe(0);
          expect((await frontier.claimBatch(10, 1_500)).map((url) => url.host)).toEqual(['b.test']);
          expect((await frontier.claimBatch(10, 6_000)).map((url) => url.host).sort()).toEqual(['a.test', 'c.test', 'd.test']);
        }));
    });

    describe('commit batches', () => {
      it('resolves link and alias targets by normalized key, to new and already known URLs alike', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 10 }, async (stores, h) => {
          const { frontier, writer } = stores;
          await add(stores, [candidate('a.test', 'seed'), candidate('a.test', 'known')], 0);
          const [seed] = await frontier.claimBatch(1, 0);
          const result = await writer.commit({
            nowMs: 1,
            candidates: [candidate('b.test', 'new', 1), candidate('a.test', 'known', 1)],
            pages: [{ row: pageRow(seed!), text: 'seed text', content: null }],
            outcomes: [done(seed!, { fetchMs: 1, nowMs: 1, httpStatus: 200 })],
            links: [
              { fromUrlId: seed!.id, rawUrl: '/new', toKey: 'key:http://b.test/new', kind: 'a', refusedBy: null },
              { fromUrlId: seed!.id, rawUrl: 'known', toKey: 'key:http://a.test/known', kind: 'a', refusedBy: null },
              { fromUrlId: seed!.id, rawUrl: 'mailto:x@a.test', toKey: null, kind: 'a', refusedBy: 'protocol' },
              // A target the scheduler knows by id (CommitResult.seen of an earlier batch): no key, no candidate.
              { fromUrlId: seed!.id, rawUrl: 'http://a.test/seed', toKey: null, toUrlId: seed!.id, kind: 'canonical', refusedBy: null },
            ],
            aliases: [{ toKey: 'key:http://b.test/new', rawUrl: '/new', fromUrlId: seed!.id }],
          });
          const { seen, ...rest } = result;
          expect(rest).toEqual({ added: 1, addedHosts: ['b.test'], duplicates: 0, redirectLoops: [] });
          // A store that tells the URL-seen entries tells one per candidate: its id, and its source bits (these candidates: seeds).
          if (seen) {
            expect(seen).toHaveLength(2);
            expect([seenEntrySources(seen[0]!), seenEntrySources(seen[1]!)]).toEqual([URL_SOURCE_BITS.seed, URL_SOURCE_BITS.seed]);
            expect(seenEntryId(seen[0]!)).not.toBe(seenEntryId(seen[1]!));
            expect(seenEntryId(seen[1]!)).not.toBe(seed!.id);
          }
          expect(await h.storedRows(stores)).toEqual({ urls: 3, pages: 1, links: 4 });
          expect(frontier.counts()).toEqual({ pending: 2, inFlight: 0, done: 1, error: 0, blocked: 0, held: 0 });
        }));

      it('a page fetched again replaces its link rows instead of adding to them', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 10 }, async (stores, h) => {
          const { frontier, writer } = stores;
          await add(stores, [candidate('a.test', 'seed')], 0);
          const fetchSeed = async (nowMs: number) => {
            const [seed] = await frontier.claimBatch(1, nowMs);
            await writer.commit({
              nowMs,
              candidates: [candidate('a.test', 'x', 1)],
              pages: [{ row: pageRow(seed!), text: null, content: null }],
              outcomes: [done(seed!, { fetchMs: 1, nowMs, httpStatus: 200 })],
              links: [{ fromUrlId: seed!.id, rawUrl: 'http://a.test/x', toKey: 'key:http://a.test/x', kind: 'a', refusedBy: null }],
            });
            return seed!;
          };
          const seed = await fetchSeed(1);
          expect(await frontier.refetch(seed.id, 2)).toBe('queued');
          // First in its host's queue: the claim hands out the seed again, not /x.
          expect((await fetchSeed(2)).id).toBe(seed.id);
          expect(await h.storedRows(stores)).toEqual({ urls: 2, pages: 1, links: 1 });
        }));

      it('a page fetched again without text drops the excerpt its earlier fetch kept, and one with text replaces it', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 10 }, async (stores, h) => {
          const { frontier, writer } = stores;
          await add(stores, [candidate('a.test', 'seed')], 0);
          const fetchSeed = async (nowMs: number, text: string | null) => {
            const [seed] = await frontier.claimBatch(1, nowMs);
            await writer.commit({ nowMs, pages: [{ row: pageRow(seed!), text, content: null }], outcomes: [done(seed!, { fetchMs: 1, nowMs, httpStatus: 200 })] });
            return seed!;
          };
          const seed = await fetchSeed(1, 'first text');
          expect(await h.storedTexts(stores)).toEqual([seed.id]);
          expect(await frontier.refetch(seed.id, 2)).toBe('queued');
          await fetchSeed(2, 'second text');
          expect(await h.storedTexts(stores)).toEqual([seed.id]);
          expect(await frontier.refetch(seed.id, 3)).toBe('queued');
          await fetchSeed(3, null);
          expect(await h.storedTexts(stores)).toEqual([]);
        }));

      it('keeps a page’s body, replaces it when the page is fetched again, and drops it when the new fetch brings none', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 10 }, async (stores, h) => {
          const { frontier, writer } = stores;
          await add(stores, [candidate('a.test', 'seed'), candidate('a.test', 'other')], 0);
          const fetchSeed = async (nowMs: number, body: Buffer | null) => {
            const [seed] = await frontier.claimBatch(1, nowMs);
            await writer.commit({
              nowMs,
              pages: [{ row: pageRow(seed!), text: null, content: null, body: body && storedBody(body, false, 1 << 20) }],
              outcomes: [done(seed!, { fetchMs: 1, nowMs, httpStatus: 200 })],
            });
            return seed!;
          };
          const first = Buffer.from('<p>first fetch</p>'.repeat(50));
          const seed = await fetchSeed(1, first);
          const read = async () => (await h.storedBodies(stores)).map((row) => ({ ...row, bytes: Buffer.from(bodyBytes(row.encoding, row.bytes)).toString() }));
          expect(await read()).toEqual([{ urlId: seed.id, encoding: 'br', rawBytes: first.length, truncated: false, payloadDigest: storedBody(first, false, 1 << 20).payloadDigest, bytes: first.toString() }]);
          expect(await frontier.refetch(seed.id, 2)).toBe('queued');
          expect((await fetchSeed(2, Buffer.from('second'))).id).toBe(seed.id);
          expect((await read()).map((row) => [row.urlId, row.bytes])).toEqual([[seed.id, 'second']]);
          expect(await frontier.refetch(seed.id, 3)).toBe('queued');
          await fetchSeed(3, null);
          expect(await h.storedBodies(stores)).toEqual([]);
        }));

      it('a redirect to a URL whose stored redirects lead back fails as REDIRECT_LOOP; its link is stored either way', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 10 }, async (stores) => {
          const { frontier, writer } = stores;
          const a = candidate('a.test', 'a');
          const b = candidate('a.test', 'b');
          await add(stores, [a], 0);
          const [urlA] = await frontier.claimBatch(1, 0);
          const toB = await writer.commit({ nowMs: 1, candidates: [b], outcomes: [{ kind: 'redirected', url: urlA!, disposition: { fetchMs: 1, nowMs: 1, httpStatus: 301 }, target: { key: b.normalizedKey, url: b.url }, rawUrl: '/b', maxHops: 21 }] });
          expect(toB).toMatchObject({ added: 1, addedHosts: ['a.test'], duplicates: 0, redirectLoops: [] });
          const [urlB] = await frontier.claimBatch(1, 1);
          const back = await writer.commit({ nowMs: 2, candidates: [a], outcomes: [{ kind: 'redirected', url: urlB!, disposition: { fetchMs: 1, nowMs: 2, httpStatus: 301 }, target: { key: a.normalizedKey, url: a.url }, rawUrl: '/a', maxHops: 21 }] });
          expect(back).toMatchObject({ added: 0, addedHosts: [], duplicates: 0, redirectLoops: [urlB!.id] });
          expect(frontier.counts()).toMatchObject({ done: 1, error: 1, inFlight: 0 });
          expect(frontier.counts()).toEqual({ pending: 0, inFlight: 0, done: 1, error: 1, blocked: 0, held: 0 });
        }));

      it('runs the content-seen test on the pages that take part, and counts the duplicates', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 10 }, async (stores) => {
          const { frontier, writer } = stores;
          await add(stores, many('a.test', 3), 0);
          const [p0, p1, p2] = await frontier.claimBatch(3, 0);
          const disposition = { fetchMs: 1, nowMs: 1, httpStatus: 200 };
          const same = content('f'.repeat(64));
          const result = await writer.commit({
            nowMs: 1,
            pages: [
              { row: pageRow(p0!, { fingerprint: same.fingerprint, minhash: same.minhash, textChars: same.textChars }), text: null, content: same },
              { row: pageRow(p1!, { fingerprint: same.fingerprint, minhash: same.minhash, textChars: same.textChars }), text: null, content: same },
              // Same text, but not part of the test (an error page).
              { row: pageRow(p2!, { httpStatus: 404, fingerprint: same.fingerprint, minhash: same.minhash, textChars: same.textChars }), text: null, content: null },
            ],
            outcomes: [done(p0!, disposition), done(p1!, disposition), { kind: 'failed', url: p2!, error: { code: 'HTTP_404', message: 'HTTP 404' }, disposition: { ...disposition, httpStatus: 404 } }],
          });
          expect(result.duplicates).toBe(1);
          expect(await writer.duplicateCount()).toBe(1);
        }));

      it('a batch that fails leaves nothing stored: no URL, page, link or outcome', () =>
        withStores(OPEN, async (stores, h) => {
          const { frontier, writer } = stores;
          await add(stores, [candidate('a.test', 'seed')], 0);
          const [seed] = await frontier.claimBatch(1, 0);
          const before = await h.storedRows(stores);
          // The last link names a key that is neither in the batch nor known: the whole batch is refused.
          const failed = writer.commit({
            nowMs: 1,
            candidates: many('b.test', 3),
            pages: [{ row: pageRow(seed!), text: null, content: null }],
            outcomes: [done(seed!, { fetchMs: 1, nowMs: 1, httpStatus: 200 })],
            links: [
              { fromUrlId: seed!.id, rawUrl: 'http://b.test/p0', toKey: 'key:http://b.test/p0', kind: 'a', refusedBy: null },
              { fromUrlId: seed!.id, rawUrl: 'http://c.test/', toKey: 'key:http://c.test/', kind: 'a', refusedBy: null },
            ],
          });
          await expect(failed).rejects.toThrow(/unknown normalized key/);
          expect(await h.storedRows(stores)).toEqual(before);
          // A store is dropped after a failed batch (the run aborts); the next one sees the seed pending again.
          const reopened = await h.reopen(stores, OPEN);
          expect(reopened.frontier.counts()).toEqual({ pending: 1, inFlight: 0, done: 0, error: 0, blocked: 0, held: 0 });
        }));

      it('sets the crawl status with a batch, and alone', () =>
        withStores(OPEN, async (stores) => {
          const { writer } = stores;
          await writer.commit({ nowMs: 1, candidates: [candidate('a.test', 'seed')], status: { status: 'running', finishedAtMs: null } });
          expect((await writer.summary()).status).toBe('running');
          await writer.setStatus('finished', 5);
          expect(await writer.summary()).toMatchObject({ status: 'finished', finishedAtMs: 5 });
        }));
    });

    describe('crash semantics', () => {
      it('a store reopened after a crash returns in-flight URLs to pending and keeps recorded outcomes', () =>
        withStores({ ...OPEN, maxInFlightPerHost: 5 }, async (stores, h) => {
          const { frontier } = stores;
          await add(stores, many('a.test', 4), 0);
          const claimed = await frontier.claimBatch(3, 0);
          await record(stores, 1, done(claimed[0]!, { fetchMs: 1, nowMs: 1, httpStatus: 200 }));
          // The process dies with claimed[1] and claimed[2] in flight.
          const reopened = await h.reopen(stores, { ...OPEN, maxInFlightPerHost: 5 });
          expect(reopened.frontier.counts()).toEqual({ pending: 3, inFlight: 0, done: 1, error: 0, blocked: 0, held: 0 });
          // At 1, after the recorded fetch's politeness delay (0 here): a shared store keeps it across processes.
          const again = await reopened.frontier.claimBatch(10, 1);
          expect(again.map((url) => url.url)).toEqual(['http://a.test/p1', 'http://a.test/p2', 'http://a.test/p3']);
          expect(again.map((url) => url.id)).not.toContain(claimed[0]!.id);
          // The URL-seen test survives the crash: nothing known is added again.
          expect(await add(reopened, many('a.test', 4), 0)).toBe(0);
        }));
    });
  });
}

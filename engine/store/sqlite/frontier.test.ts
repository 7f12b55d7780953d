import type { WritableDB } from './database';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import { openDatabase } from './connection';
import { CrawlRepository } from './crawl-repository';
import { SqliteFrontier, type ClaimedUrl, type FrontierCandidate, type PolitenessPolicy } from './frontier';

const OPEN: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 30_000, delayFactor: 0 };

function candidate(host: string, path: string, depth = 0, key?: string): FrontierCandidate {
  const url = `http://${host}/${path}`;
  return { url, normalized: url, normalizedKey: key ?? `key:${url}`, host, registrableDomain: host, depth, discoveredFrom: null };
}

function many(host: string, n: number, depth = 0): FrontierCandidate[] {
  return Array.from({ length: n }, (_, i) => candidate(host, `p${i}`, depth));
}

describe('SqliteFrontier', () => {
  let db: WritableDB;
  let repo: CrawlRepository;
  let crawlId: number;

  beforeEach(() => {
    db = openDatabase(':memory:');
    repo = new CrawlRepository(db);
    crawlId = repo.createCrawl(['http://a.test/'], { ...DEFAULT_CRAWL_SETTINGS }, 1);
  });

  afterEach(() => {
    db.close();
  });

  function dbStates(): Record<string, number> {
    return repo.stateCounts(crawlId);
  }

  describe('URL-seen test', () => {
    it('keeps one row per normalizedKey, returns every candidate\'s id and counts only new URLs', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      const first = frontier.add([candidate('a.test', 'x'), candidate('a.test', 'y')], 10);
      expect(first.added).toBe(2);
      expect(new Set(first.ids).size).toBe(2);

      // Same key again (even with a different raw URL), plus one new URL.
      const dup = { ...candidate('a.test', 'X-other-spelling'), normalizedKey: 'key:http://a.test/x' };
      const second = frontier.add([dup, candidate('a.test', 'z')], 20);
      expect(second.added).toBe(1);
      // The duplicate resolves to the existing URL's id; the new one gets a fresh id.
      expect(second.ids[0]).toBe(first.ids[0]);
      expect(first.ids).not.toContain(second.ids[1]);

      const rows = db.prepare(`SELECT normalized_key AS k, url FROM urls WHERE crawl_id = ? ORDER BY id`).all(crawlId);
      expect(rows).toEqual([
        { k: 'key:http://a.test/x', url: 'http://a.test/x' },
        { k: 'key:http://a.test/y', url: 'http://a.test/y' },
        { k: 'key:http://a.test/z', url: 'http://a.test/z' },
      ]);
      expect(frontier.counts()).toEqual({ pending: 3, inFlight: 0, done: 0, error: 0, blocked: 0, held: 0 });
    });

    it('dedupes within a single add call', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      const { ids, added } = frontier.add([candidate('a.test', 'x'), candidate('a.test', 'x'), candidate('a.test', 'x')], 0);
      expect(added).toBe(1);
      expect(new Set(ids).size).toBe(1);
      expect(frontier.counts().pending).toBe(1);
    });

    it('still reports a URL as seen after it was fetched', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      frontier.add([candidate('a.test', 'x')], 0);
      const [claimed] = frontier.claimBatch(1, 0);
      frontier.complete(claimed!, { fetchMs: 1, nowMs: 1, httpStatus: 200 });
      expect(frontier.add([candidate('a.test', 'x')], 2)).toEqual({ ids: [claimed!.id], added: 0 });
      expect(frontier.claimBatch(10, 1_000)).toEqual([]);
    });

    it('scopes the seen test to the crawl: the same key in another crawl is new', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      const otherCrawl = repo.createCrawl(['http://a.test/'], { ...DEFAULT_CRAWL_SETTINGS }, 2);
      const other = new SqliteFrontier(db, otherCrawl, OPEN);
      expect(frontier.add([candidate('a.test', 'x')], 0).added).toBe(1);
      expect(other.add([candidate('a.test', 'x')], 0).added).toBe(1);
      expect(other.counts().pending).toBe(1);
    });
  });

  describe('claimBatch and politeness', () => {
    it('returns the claimed URL fields and marks the row in_flight', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      const [id] = frontier.add([candidate('a.test', 'x', 3)], 0).ids;
      const claimed = frontier.claimBatch(5, 0);
      expect(claimed).toEqual([{ id, url: 'http://a.test/x', host: 'a.test', depth: 3, attempts: 0, redirectHops: 0 }]);
      expect(db.prepare(`SELECT state, attempts FROM urls WHERE id = ?`).get(id)).toEqual({ state: 'in_flight', attempts: 1 });
    });

    it('hands out at most maxInFlightPerHost URLs of one host at once', () => {
      const frontier = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 2 });
      frontier.add(many('a.test', 5), 0);
      const first = frontier.claimBatch(10, 0);
      expect(first.map((c) => c.url)).toEqual(['http://a.test/p0', 'http://a.test/p1']);
      expect(frontier.claimBatch(10, 0)).toEqual([]);
      expect(frontier.claimBatch(10, 1_000_000)).toEqual([]);

      frontier.complete(first[0]!, { fetchMs: 0, nowMs: 10 });
      const next = frontier.claimBatch(10, 10);
      expect(next.map((c) => c.url)).toEqual(['http://a.test/p2']);
      expect(frontier.claimBatch(10, 10)).toEqual([]);
    });

    it('respects max', () => {
      const frontier = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 64 });
      frontier.add(many('a.test', 10), 0);
      expect(frontier.claimBatch(3, 0)).toHaveLength(3);
      expect(frontier.claimBatch(0, 0)).toEqual([]);
    });

    it('does not hand out URLs before they were added (nowMs earlier than the wake time)', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      frontier.add([candidate('a.test', 'x')], 500);
      expect(frontier.nextEligibleAtMs()).toBe(500);
      expect(frontier.claimBatch(1, 499)).toEqual([]);
      expect(frontier.claimBatch(1, 500)).toHaveLength(1);
    });

    it('waits delayFactor × fetchMs after a fetch when that is the largest term', () => {
      const policy: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 100, maxDelayMs: 10_000, delayFactor: 5 };
      const frontier = new SqliteFrontier(db, crawlId, policy);
      frontier.add(many('a.test', 3), 0);
      const [first] = frontier.claimBatch(1, 0);
      frontier.complete(first!, { fetchMs: 50, nowMs: 1_000, httpStatus: 200 }); // 5 × 50 = 250 > 100
      expect(frontier.nextEligibleAtMs()).toBe(1_250);
      expect(frontier.claimBatch(1, 1_249)).toEqual([]);
      expect(frontier.claimBatch(1, 1_250).map((c) => c.url)).toEqual(['http://a.test/p1']);
    });

    it('waits minDelayMs when k × fetchMs is smaller', () => {
      const policy: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 100, maxDelayMs: 10_000, delayFactor: 5 };
      const frontier = new SqliteFrontier(db, crawlId, policy);
      frontier.add(many('a.test', 2), 0);
      const [first] = frontier.claimBatch(1, 0);
      frontier.complete(first!, { fetchMs: 10, nowMs: 1_000 }); // 5 × 10 = 50 < 100
      expect(frontier.claimBatch(1, 1_099)).toEqual([]);
      expect(frontier.claimBatch(1, 1_100)).toHaveLength(1);
    });

    it('waits extraDelayMs (Retry-After / Crawl-delay) when it is the largest term', () => {
      const policy: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 100, maxDelayMs: 10_000, delayFactor: 5 };
      const frontier = new SqliteFrontier(db, crawlId, policy);
      frontier.add(many('a.test', 2), 0);
      const [first] = frontier.claimBatch(1, 0);
      frontier.fail(first!, { code: 'HTTP_503', message: 'busy' }, { fetchMs: 10, nowMs: 1_000, httpStatus: 503, extraDelayMs: 700 });
      expect(frontier.claimBatch(1, 1_699)).toEqual([]);
      expect(frontier.claimBatch(1, 1_700)).toHaveLength(1);
    });

    it('caps the delay at maxDelayMs', () => {
      const policy: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 100, maxDelayMs: 2_000, delayFactor: 5 };
      const frontier = new SqliteFrontier(db, crawlId, policy);
      frontier.add(many('a.test', 3), 0);
      const [first] = frontier.claimBatch(1, 0);
      frontier.complete(first!, { fetchMs: 10_000, nowMs: 1_000 }); // 50 000 → capped 2 000
      expect(frontier.claimBatch(1, 2_999)).toEqual([]);
      const [second] = frontier.claimBatch(1, 3_000);
      expect(second).toBeDefined();
      frontier.complete(second!, { fetchMs: 1, nowMs: 3_000, extraDelayMs: 60_000 }); // extra capped too
      expect(frontier.claimBatch(1, 4_999)).toEqual([]);
      expect(frontier.claimBatch(1, 5_000)).toHaveLength(1);
    });

    it('exposes the same formula through politenessDelayMs', () => {
      const frontier = new SqliteFrontier(db, crawlId, { maxInFlightPerHost: 1, minDelayMs: 100, maxDelayMs: 2_000, delayFactor: 5 });
      expect(frontier.politenessDelayMs(0)).toBe(100);
      expect(frontier.politenessDelayMs(50)).toBe(250);
      expect(frontier.politenessDelayMs(10, 700)).toBe(700);
      expect(frontier.politenessDelayMs(10_000)).toBe(2_000);
      expect(frontier.politenessDelayMs(1, 99_999)).toBe(2_000);
    });

    it('the delay of one host does not hold back another host', () => {
      const policy: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 1_000, maxDelayMs: 10_000, delayFactor: 0 };
      const frontier = new SqliteFrontier(db, crawlId, policy);
      frontier.add(many('a.test', 2), 0);
      const [a0] = frontier.claimBatch(1, 0);
      frontier.complete(a0!, { fetchMs: 1, nowMs: 10 }); // a.test eligible at 1 010
      frontier.add([candidate('b.test', 'only')], 20);
      expect(frontier.claimBatch(5, 20).map((c) => c.host)).toEqual(['b.test']);
      expect(frontier.claimBatch(5, 1_010).map((c) => c.host)).toEqual(['a.test']);
    });

    it('prefers shallower URLs of a host (breadth first), then discovery order', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      frontier.add([candidate('a.test', 'deep', 2), candidate('a.test', 'shallow1', 1), candidate('a.test', 'shallow2', 1)], 0);
      const order: string[] = [];
      for (let t = 0; t < 3; t++) {
        const [c] = frontier.claimBatch(1, t);
        order.push(c!.url);
        frontier.complete(c!, { fetchMs: 0, nowMs: t });
      }
      expect(order).toEqual(['http://a.test/shallow1', 'http://a.test/shallow2', 'http://a.test/deep']);
    });

    it('releaseHost frees the host slot and starts its delay before the outcome is recorded', () => {
      const policy: PolitenessPolicy = { maxInFlightPerHost: 1, minDelayMs: 100, maxDelayMs: 10_000, delayFactor: 0 };
      const frontier = new SqliteFrontier(db, crawlId, policy);
      frontier.add(many('a.test', 3), 0);
      const [first] = frontier.claimBatch(5, 0);
      expect(frontier.claimBatch(5, 0)).toEqual([]); // one slot per host, taken
      frontier.releaseHost(first!, { fetchMs: 5, nowMs: 10 });
      frontier.releaseHost(first!, { fetchMs: 5, nowMs: 50 }); // a second release changes nothing
      expect(frontier.nextEligibleAtMs()).toBe(110);
      const [second] = frontier.claimBatch(5, 110);
      expect(second?.url).toBe('http://a.test/p1');
      // The outcome, recorded later, counts the page but does not release the host a second time.
      frontier.complete(first!, { fetchMs: 5, nowMs: 10 });
      expect(frontier.claimBatch(5, 10_000)).toEqual([]);
      expect(frontier.counts()).toEqual({ pending: 1, inFlight: 1, done: 1, error: 0, blocked: 0, held: 0 });
      expect(dbStates()).toMatchObject({ pending: 1, in_flight: 1, done: 1 });
    });

    it('a URL requeued after its host went idle is claimable again', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      frontier.add([candidate('a.test', 'only')], 0);
      const [url] = frontier.claimBatch(1, 0);
      frontier.releaseHost(url!, { fetchMs: 1, nowMs: 5 });
      expect(frontier.claimBatch(1, 5)).toEqual([]); // nothing else pending: the host leaves the heap
      frontier.requeue(url!, { fetchMs: 1, nowMs: 5, extraDelayMs: 1_000, extraDelayReason: 'Retry-After backoff' });
      expect(frontier.claimBatch(1, 6)).toEqual([]);
      expect(frontier.claimBatch(1, 1_005).map((c) => c.url)).toEqual(['http://a.test/only']);
    });

    it('nextEligibleAtMs is null when nothing is pending', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      expect(frontier.nextEligibleAtMs()).toBeNull();
      frontier.add([candidate('a.test', 'x')], 0);
      const [c] = frontier.claimBatch(1, 0);
      frontier.complete(c!, { fetchMs: 0, nowMs: 1 });
      expect(frontier.claimBatch(1, 100)).toEqual([]);
      expect(frontier.nextEligibleAtMs()).toBeNull();
    });
  });

  describe('fairness between hosts', () => {
    it('a host with 1000 URLs does not starve a host with 1 (one slot per host)', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      frontier.add(many('big.test', 1_000), 0);
      frontier.add([candidate('small.test', 'only')], 0);
      const claimed = frontier.claimBatch(10, 0);
      expect(claimed.map((c) => c.host).sort()).toEqual(['big.test', 'small.test']);
    });

    it('a host with 1000 URLs does not starve a host with 1 (many slots per host)', () => {
      const frontier = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 64 });
      frontier.add(many('big.test', 1_000), 0);
      frontier.add([candidate('small.test', 'only')], 0);
      const claimed = frontier.claimBatch(2, 0);
      expect(claimed.map((c) => c.host)).toEqual(['big.test', 'small.test']);
    });

    it('hosts with equal eligibility take turns', () => {
      const frontier = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 64 });
      frontier.add(many('a.test', 100), 0);
      frontier.add(many('b.test', 100), 0);
      frontier.add(many('c.test', 100), 0);
      const hosts = frontier.claimBatch(9, 0).map((c) => c.host);
      expect(hosts).toEqual(['a.test', 'b.test', 'c.test', 'a.test', 'b.test', 'c.test', 'a.test', 'b.test', 'c.test']);
    });

    it('with a politeness delay, a fast small host keeps being served while a slow big host waits', () => {
      const frontier = new SqliteFrontier(db, crawlId, { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 30_000, delayFactor: 5 });
      frontier.add(many('big.test', 1_000), 0);
      const served: string[] = [];
      for (let now = 0; now <= 1_000; now += 100) {
        frontier.add([candidate('small.test', `s${now}`)], now);
        for (const c of frontier.claimBatch(10, now)) {
          served.push(`${c.host}@${now}`);
          // big.test answers in 1 s (next fetch 5 s later); small.test in 10 ms (next fetch 50 ms later)
          frontier.complete(c, { fetchMs: c.host === 'big.test' ? 1_000 : 10, nowMs: now });
        }
      }
      expect(served.filter((s) => s.startsWith('big.test'))).toEqual(['big.test@0']);
      expect(served.filter((s) => s.startsWith('small.test'))).toHaveLength(11);
      expect(frontier.nextEligibleAtMs()).toBe(5_000);
    });
  });

  describe('timeline columns (migration 0013)', () => {
    it('records when a URL was claimed, when its outcome was written, and the error of a retried try', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      frontier.add([candidate('a.test', 'x')], 10);
      const timeline = () => db.prepare(`SELECT claimed_at_ms AS claimed, committed_at_ms AS committed, retry_reason AS retryReason, state FROM urls`).get();
      const [first] = frontier.claimBatch(1, 100);
      expect(timeline()).toEqual({ claimed: 100, committed: null, retryReason: null, state: 'in_flight' });
      frontier.requeue(first!, { fetchMs: 5, nowMs: 105 }, { code: 'TIMEOUT', message: 'no answer in 30 s' }, 150);
      expect(timeline()).toEqual({ claimed: 100, committed: 150, retryReason: 'TIMEOUT: no answer in 30 s', state: 'pending' });
      const [second] = frontier.claimBatch(1, 200);
      // A stop requeues without a reason: the last retry reason stays.
      frontier.requeue(second!, { fetchMs: 0, nowMs: 201 });
      const [third] = frontier.claimBatch(1, 300);
      frontier.complete(third!, { fetchMs: 5, nowMs: 305, httpStatus: 200 }, 400);
      expect(timeline()).toEqual({ claimed: 300, committed: 400, retryReason: 'TIMEOUT: no answer in 30 s', state: 'done' });
    });
  });

  describe('counts', () => {
    it('stay consistent with the table through add, claim, complete and fail', () => {
      const frontier = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 4 });
      const expectCounts = (pending: number, inFlight: number, done: number, error: number) => {
        expect(frontier.counts()).toEqual({ pending, inFlight, done, error, blocked: 0, held: 0 });
        expect(dbStates()).toEqual({ pending, in_flight: inFlight, done, error, blocked: 0, held: 0 });
      };
      expectCounts(0, 0, 0, 0);
      frontier.add([...many('a.test', 4), ...many('b.test', 2)], 0);
      expectCounts(6, 0, 0, 0);
      frontier.add(many('a.test', 4), 0); // all seen
      expectCounts(6, 0, 0, 0);
      const claimed = frontier.claimBatch(5, 0);
      expect(claimed).toHaveLength(5);
      expectCounts(1, 5, 0, 0);
      frontier.complete(claimed[0]!, { fetchMs: 1, nowMs: 1, httpStatus: 200 });
      frontier.complete(claimed[1]!, { fetchMs: 1, nowMs: 1, httpStatus: 404 });
      frontier.fail(claimed[2]!, { code: 'TIMEOUT', message: 'slow' }, { fetchMs: 1, nowMs: 1 });
      expectCounts(1, 2, 2, 1);
      frontier.add([candidate('c.test', 'new')], 2);
      expectCounts(2, 2, 2, 1);
      for (const c of frontier.claimBatch(10, 2)) frontier.complete(c, { fetchMs: 1, nowMs: 3 });
      frontier.complete(claimed[3]!, { fetchMs: 1, nowMs: 3 });
      frontier.fail(claimed[4]!, { code: 'FETCH_FAILED', message: 'x' }, { fetchMs: 1, nowMs: 3 });
      expectCounts(0, 0, 5, 2);
    });

    it('records status and error details on the row', () => {
      const frontier = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 2 });
      frontier.add(many('a.test', 2), 0);
      const [ok, bad] = frontier.claimBatch(2, 0);
      frontier.complete(ok!, { fetchMs: 5, nowMs: 42, httpStatus: 200 });
      frontier.fail(bad!, { code: 'TIMEOUT', message: 'No complete response' }, { fetchMs: 5, nowMs: 43, httpStatus: null });
      const rows = db.prepare(`SELECT state, fetched_at_ms AS at, http_status AS status, error_code AS code, error_reason AS reason FROM urls ORDER BY id`).all();
      expect(rows).toEqual([
        { state: 'done', at: 42, status: 200, code: null, reason: null },
        { state: 'error', at: 43, status: null, code: 'TIMEOUT', reason: 'No complete response' },
      ]);
    });

    it('records a blocked URL with its reason and robots.txt line, unfetched; Clear error cache re-queues it', () => {
      const frontier = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 2 });
      frontier.add(many('a.test', 2), 0);
      const [blocked, failed] = frontier.claimBatch(2, 0);
      frontier.block(blocked!, { code: 'ROBOTS_DISALLOWED', message: 'robots.txt disallows it' }, '7: Disallow: /p0', { fetchMs: 0, nowMs: 42 });
      frontier.fail(failed!, { code: 'TIMEOUT', message: 'No complete response' }, { fetchMs: 5, nowMs: 43 });
      const rows = db.prepare(`SELECT state, fetched_at_ms AS at, error_code AS code, error_reason AS reason, robots_line AS line FROM urls ORDER BY id`).all();
      expect(rows).toEqual([
        { state: 'blocked', at: null, code: 'ROBOTS_DISALLOWED', reason: 'robots.txt disallows it', line: '7: Disallow: /p0' },
        { state: 'error', at: 43, code: 'TIMEOUT', reason: 'No complete response', line: null },
      ]);
      expect(repo.getCrawl(crawlId)).toMatchObject({ errors: 1, blocked: 1 });
      expect(repo.requeueErrors(crawlId)).toBe(2);
      expect(db.prepare(`SELECT state, robots_line AS line FROM urls ORDER BY id`).all()).toEqual([
        { state: 'pending', line: null },
        { state: 'pending', line: null },
      ]);
    });
  });

  describe('resume', () => {
    it('a new frontier over the same db puts in_flight rows back to pending and hands them out again', () => {
      const first = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 2 });
      first.add([...many('a.test', 3), candidate('b.test', 'x')], 0);
      const claimed = first.claimBatch(3, 0); // a0, b/x, a1 (order by heap)
      expect(claimed).toHaveLength(3);
      const doneOne = claimed.find((c) => c.host === 'b.test')!;
      first.complete(doneOne, { fetchMs: 1, nowMs: 1 });
      expect(dbStates()).toEqual({ pending: 1, in_flight: 2, done: 1, error: 0, blocked: 0, held: 0 });

      // The process dies here; a new frontier opens the same database.
      const resumed = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 2 });
      expect(dbStates()).toEqual({ pending: 3, in_flight: 0, done: 1, error: 0, blocked: 0, held: 0 });
      expect(resumed.counts()).toEqual({ pending: 3, inFlight: 0, done: 1, error: 0, blocked: 0, held: 0 });
      expect(resumed.nextEligibleAtMs()).toBe(0);

      const again: ClaimedUrl[] = [];
      for (let t = 0; t < 10 && again.length < 3; t++) {
        for (const c of resumed.claimBatch(10, t)) {
          again.push(c);
          resumed.complete(c, { fetchMs: 0, nowMs: t });
        }
      }
      expect(again.map((c) => c.url).sort()).toEqual(['http://a.test/p0', 'http://a.test/p1', 'http://a.test/p2']);
      expect(resumed.counts()).toEqual({ pending: 0, inFlight: 0, done: 4, error: 0, blocked: 0, held: 0 });
      const attempts = db.prepare(`SELECT url, attempts FROM urls WHERE host = 'a.test' ORDER BY id`).all();
      expect(attempts).toEqual([
        { url: 'http://a.test/p0', attempts: 2 },
        { url: 'http://a.test/p1', attempts: 2 },
        { url: 'http://a.test/p2', attempts: 1 },
      ]);
    });

    it('resume keeps the URL-seen test: re-adding known URLs adds nothing', () => {
      const first = new SqliteFrontier(db, crawlId, OPEN);
      first.add(many('a.test', 3), 0);
      const resumed = new SqliteFrontier(db, crawlId, OPEN);
      expect(resumed.add(many('a.test', 3), 1).added).toBe(0);
      expect(resumed.counts().pending).toBe(3);
    });

    it('resume only touches its own crawl', () => {
      const otherCrawl = repo.createCrawl(['http://o.test/'], { ...DEFAULT_CRAWL_SETTINGS }, 2);
      const other = new SqliteFrontier(db, otherCrawl, OPEN);
      other.add([candidate('o.test', 'x')], 0);
      other.claimBatch(1, 0);
      new SqliteFrontier(db, crawlId, OPEN);
      expect(repo.stateCounts(otherCrawl)).toEqual({ pending: 0, in_flight: 1, done: 0, error: 0, blocked: 0, held: 0 });
    });
  });

  describe('per-host buffer refill', () => {
    it('hands out every URL of a host with more than 64 pending, in order, across refills (bulk claim)', () => {
      const frontier = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 1_000 });
      const { ids } = frontier.add(many('a.test', 150), 0);
      const claimed = frontier.claimBatch(1_000, 0);
      expect(claimed.map((c) => c.id)).toEqual(ids);
      expect(frontier.claimBatch(1_000, 0)).toEqual([]);
      expect(frontier.counts()).toEqual({ pending: 0, inFlight: 150, done: 0, error: 0, blocked: 0, held: 0 });
    });

    it('hands out every URL of a host with more than 64 pending, one at a time', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      const { ids } = frontier.add(many('a.test', 200), 0);
      const seen: number[] = [];
      for (let t = 0; t < 400; t++) {
        const batch = frontier.claimBatch(10, t);
        expect(batch.length).toBeLessThanOrEqual(1);
        for (const c of batch) {
          seen.push(c.id);
          frontier.complete(c, { fetchMs: 0, nowMs: t });
        }
      }
      expect(seen).toEqual(ids);
      expect(frontier.counts()).toEqual({ pending: 0, inFlight: 0, done: 200, error: 0, blocked: 0, held: 0 });
      expect(frontier.nextEligibleAtMs()).toBeNull();
    });

    it('URLs added after a host ran dry are picked up again', () => {
      const frontier = new SqliteFrontier(db, crawlId, { ...OPEN, maxInFlightPerHost: 1_000 });
      frontier.add(many('a.test', 64), 0);
      expect(frontier.claimBatch(1_000, 0)).toHaveLength(64);
      expect(frontier.claimBatch(1_000, 0)).toEqual([]); // refill finds nothing: exhausted
      frontier.add([candidate('a.test', 'late-1'), candidate('a.test', 'late-2')], 5);
      expect(frontier.claimBatch(1_000, 5).map((c) => c.url)).toEqual(['http://a.test/late-1', 'http://a.test/late-2']);
    });

    it('URLs added to a host while its buffer is partly read are not lost', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      frontier.add(many('a.test', 10), 0);
      const [c] = frontier.claimBatch(1, 0); // buffer now holds p1..p9, exhausted
      frontier.add([candidate('a.test', 'extra')], 0);
      frontier.complete(c!, { fetchMs: 0, nowMs: 0 });
      const urls: string[] = [];
      for (let t = 1; t < 50; t++) {
        for (const x of frontier.claimBatch(5, t)) {
          urls.push(x.url);
          frontier.complete(x, { fetchMs: 0, nowMs: t });
        }
      }
      expect(urls).toHaveLength(10);
      expect(urls).toContain('http://a.test/extra');
      expect(frontier.counts()).toEqual({ pending: 0, inFlight: 0, done: 11, error: 0, blocked: 0, held: 0 });
    });
  });

  describe('refetch (the URL inspector\'s "Re-fetch now")', () => {
    it('puts a done or failed URL back to pending ahead of its host\'s other URLs, and leaves queued or in-flight URLs alone', () => {
      const frontier = new SqliteFrontier(db, crawlId, OPEN);
      const { ids } = frontier.add([candidate('a.test', 'done'), candidate('a.test', 'failed'), ...many('a.test', 20, 1)], 0);
      const [done] = frontier.claimBatch(1, 0);
      frontier.complete(done!, { fetchMs: 0, nowMs: 1, httpStatus: 200 });
      const [failed] = frontier.claimBatch(1, 1);
      frontier.fail(failed!, { code: 'HTTP_500', message: 'boom' }, { fetchMs: 0, nowMs: 2, httpStatus: 500 });
      expect(frontier.counts()).toEqual({ pending: 20, inFlight: 0, done: 1, error: 1, blocked: 0, held: 0 });

      expect(frontier.refetch(ids[1]!, 3)).toBe('queued');
      expect(frontier.counts()).toEqual({ pending: 21, inFlight: 0, done: 1, error: 0, blocked: 0, held: 0 });
      expect(frontier.refetch(ids[1]!, 3)).toBe('already-queued');
      // Claimed before the 20 URLs discovered earlier (their read-ahead buffer is read again).
      const [next] = frontier.claimBatch(1, 3);
      expect(next!.id).toBe(ids[1]);
      expect(next!.attempts).toBe(0);
      expect(frontier.refetch(ids[1]!, 3)).toBe('in-flight');
      expect(frontier.refetch(ids[0]!, 3)).toBe('queued');
      expect(frontier.counts()).toEqual({ pending: 21, inFlight: 1, done: 0, error: 0, blocked: 0, held: 0 });
      expect(frontier.refetch(99_999, 3)).toBe('not-found');
    });
  });
});

// The scheduler against the storage ports with a fake clock and a fake worker pool: no HTTP, no
// workers; SQLite :memory: stores; every fetch is answered by the test at a chosen time.
// schedule/ sees store/ports only (eslint.config.js): the SQLite stores come through engine/index.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings, type CrawlStatus } from '../../shared/types/crawl';
import { createSqliteCrawlStores, CrawlRepository, openDatabase, type WritableDB } from '../index';
import type { CrawlStores, FrontierCandidate, FrontierStore, UrlOutcome } from '../store/ports';
import type { FetchTask } from '../worker/worker-pool';
import { MAX_BACKLOG } from '../commit/result-committer';
import type { PageResult } from '../worker/protocol';
import { settle, type FetchOutcome, type SettledFetch } from './retry-policy';
import { RobotsGate } from './robots-gate';
import { Scheduler, type TaskPool } from './scheduler';

const START_MS = 1_700_000_000_000;

function candidate(host: string, path: string): FrontierCandidate {
  const url = `http://${host}/${path}`;
  return { url, normalized: url, normalizedKey: url, host, registrableDomain: host, depth: 0, discoveredFrom: null };
}

function page(url: string, status = 200, fetchMs = 0): PageResult {
  return { finalUrl: url, status, contentType: 'text/html', bodyBytes: 0, truncated: false, fetchMs, redirect: null, responseHeadersJson: '{}', title: null, metaDescription: null, h1: null, canonicalUrl: null, robotsDirectives: null, wordCount: null, lang: null, links: [], unresolvableLinks: 0, linksOverCap: 0, nofollow: false, noindex: false, retryAfter: null, content: null };
}

interface Dispatched {
  seq: number;
  atMs: number;
  task: FetchTask;
}

/**
 * A scheduler over SQLite stores, a pool of `slots` fake fetch slots and a result buffer committed
 * like the result committer does (outcomes only, no page rows).
 */
function harness(overrides: Partial<CrawlSettings>, options: { slots?: number; claimAheadPerSlot?: number; wrapClaim?: (claim: FrontierStore['claimBatch']) => FrontierStore['claimBatch'] } = {}) {
  vi.useFakeTimers({ now: START_MS });
  const settings: CrawlSettings = { ...DEFAULT_CRAWL_SETTINGS, obeyRobots: false, minDelayMs: 0, delayFactor: 0, ...overrides };
  const db: WritableDB = openDatabase(':memory:');
  const crawlId = new CrawlRepository(db).createCrawl(['http://a.test/'], settings, START_MS);
  const sqlite = createSqliteCrawlStores(db, crawlId, settings);
  const claimBatch = options.wrapClaim?.(sqlite.frontier.claimBatch) ?? sqlite.frontier.claimBatch;
  const stores: CrawlStores = { ...sqlite, frontier: { ...sqlite.frontier, claimBatch, claimAheadPerSlot: options.claimAheadPerSlot ?? 0 } };
  const dispatched: Dispatched[] = [];
  const open = new Map<number, FetchTask>();
  let seq = 0;
  const slots = options.slots ?? 10;
  const pool: TaskPool = {
    freeSlots: () => slots - open.size,
    inFlight: () => open.size,
    dispatch(task) {
      // As WorkerPool does: a dispatch past the free slots is the scheduler's bug.
      if (open.size >= slots) throw new Error('dispatch with no free slot');
      seq += 1;
      open.set(seq, task);
      dispatched.push({ seq, atMs: Date.now(), task });
      return seq;
    },
  };
  const buffer: UrlOutcome[] = [];
  const committer = {
    get pending() {
      return buffer.length;
    },
    get backlogged() {
      return buffer.length >= MAX_BACKLOG;
    },
    addOutcome(outcome: UrlOutcome) {
      buffer.push(outcome);
    },
    async commit() {
      const outcomes = buffer.splice(0);
      if (outcomes.length > 0) await stores.writer.commit({ nowMs: Date.now(), outcomes });
    },
  };
  const toOutcome = ({ url, message, disposition, retry }: SettledFetch): UrlOutcome =>
    retry ? { kind: 'requeued', url, disposition } : message.type === 'failed' ? { kind: 'failed', url, error: message.error, disposition } : { kind: 'done', url, disposition };
  const finished: CrawlStatus[] = [];
  let stopping: CrawlStatus | null = null;
  const gate = new RobotsGate({
    settings,
    frontier: stores.frontier,
    record: (outcome) => {
      stores.frontier.releaseHost(outcome.url, outcome.disposition);
      committer.addOutcome(outcome);
    },
    countRefusal: () => undefined,
    dispatchRobots: (urlId, url) => pool.dispatch({ urlId, url, purpose: 'robots' }),
  });
  const scheduler = new Scheduler({
    frontier: stores.frontier,
    gate,
    committer,
    maxPages: settings.maxPages,
    now: Date.now,
    running: () => finished.length === 0,
    stopping: () => stopping,
    finish: (status) => finished.push(status),
    abort: (error) => {
      throw error;
    },
  });
  return {
    db,
    stores,
    dispatched,
    finished,
    /** Seeds the frontier (one commit batch of new URLs). */
    async add(...candidates: FrontierCandidate[]) {
      await stores.writer.commit({ nowMs: Date.now(), candidates });
    },
    async start() {
      scheduler.start(pool);
      await vi.advanceTimersByTimeAsync(0);
    },
    /** The fetch `seq` ends now with `outcome` (as the crawl runner handles a worker's answer). */
    async answer(seq: number, outcome: (task: FetchTask) => FetchOutcome) {
      const task = open.get(seq)!;
      open.delete(seq);
      const url = scheduler.takeInFlight(task.urlId)!;
      const settled = settle(url, outcome(task), Date.now(), settings, gate.crawlDelayMs(url.host));
      stores.frontier.releaseHost(url, settled.disposition);
      buffer.push(toOutcome(settled));
      scheduler.pump();
      await vi.advanceTimersByTimeAsync(0);
    },
    async stop() {
      stopping = 'stopped';
      scheduler.pump();
      await vi.advanceTimersByTimeAsync(0);
    },
    pump: () => scheduler.pump(),
    /** Fetch tasks dispatched and not answered. */
    open: () => [...open.keys()],
    /** The robots.txt fetch `seq` ends now with a 404 (no rules: every URL allowed), as the crawl runner handles it. */
    async answerRobots(seq: number) {
      const task = open.get(seq)!;
      open.delete(seq);
      scheduler.addReady(gate.onRobots(seq, { url: task.url, status: 404, text: '', error: null, fetchMs: 0 }, Date.now()));
      scheduler.pump();
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

/** A claim wrapper that holds claims while `held.on` is true, until `release()`. */
function claimGate() {
  const held = { on: false, waiting: [] as (() => void)[] };
  return {
    held,
    release() {
      held.on = false;
      for (const resume of held.waiting.splice(0)) resume();
    },
    wrap: (claim: FrontierStore['claimBatch']): FrontierStore['claimBatch'] => async (max, nowMs) => {
      if (held.on) await new Promise<void>((resume) => held.waiting.push(resume));
      return claim(max, nowMs);
    },
  };
}

const ok = (task: FetchTask): FetchOutcome => ({ type: 'page', seq: 0, urlId: task.urlId, result: page(task.url) });
const timeout = (task: FetchTask): FetchOutcome => ({ type: 'failed', seq: 0, urlId: task.urlId, error: { code: 'TIMEOUT', message: 'timed out' }, fetchMs: 0 });

describe('Scheduler (fake clock, fake pool, SQLite :memory: stores)', () => {
  let db: WritableDB | null = null;
  afterEach(() => {
    db?.close();
    db = null;
    vi.useRealTimers();
  });

  it('spaces fetches from one host by its politeness delay, and finishes when the frontier is empty', async () => {
    const h = harness({ minDelayMs: 1_000 });
    db = h.db;
    await h.add(candidate('a.test', '1'), candidate('a.test', '2'), candidate('a.test', '3'));
    await h.start();
    for (let i = 0; i < 3; i += 1) {
      expect(h.dispatched).toHaveLength(i + 1);
      await vi.advanceTimersByTimeAsync(100);
      await h.answer(h.dispatched[i]!.seq, ok);
      await vi.advanceTimersByTimeAsync(999);
      expect(h.dispatched).toHaveLength(i + 1);
      await vi.advanceTimersByTimeAsync(1);
    }
    // Each fetch ends 100 ms after its dispatch; the next one waits minDelayMs from there.
    expect(h.dispatched.map((entry) => entry.atMs - START_MS)).toEqual([0, 1_100, 2_200]);
    expect(h.finished).toEqual(['finished']);
    expect(h.stores.frontier.counts()).toEqual({ pending: 0, inFlight: 0, done: 3, error: 0, blocked: 0, held: 0 });
  });

  it('never has more than maxInFlightPerHost fetches to one host, while other hosts use the free slots', async () => {
    const h = harness({ maxInFlightPerHost: 2 });
    db = h.db;
    await h.add(...['1', '2', '3', '4', '5'].map((p) => candidate('a.test', p)), candidate('b.test', '1'));
    await h.start();
    const hosts = () => h.dispatched.map((entry) => new URL(entry.task.url).host);
    expect(hosts().sort()).toEqual(['a.test', 'a.test', 'b.test']);
    await h.answer(h.dispatched.find((entry) => entry.task.url.includes('a.test'))!.seq, ok);
    expect(hosts().filter((host) => host === 'a.test')).toHaveLength(3);
    expect(h.stores.frontier.hostStates(Date.now()).find((state) => state.host === 'a.test')).toMatchObject({ inFlight: 2, waitingReason: 'connection limit' });
  });

  it('retries a transient failure after 1 s × 2^attempts, then records it as failed', async () => {
    const h = harness({ maxRetries: 2 });
    db = h.db;
    await h.add(candidate('a.test', 'flaky'));
    await h.start();
    await h.answer(h.dispatched[0]!.seq, timeout);
    expect(h.stores.frontier.counts()).toMatchObject({ pending: 1, inFlight: 0 });
    await vi.advanceTimersByTimeAsync(999);
    expect(h.dispatched).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.dispatched).toHaveLength(2);
    await h.answer(h.dispatched[1]!.seq, timeout);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(h.dispatched).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.dispatched.map((entry) => entry.atMs - START_MS)).toEqual([0, 1_000, 3_000]);
    await h.answer(h.dispatched[2]!.seq, timeout);
    expect(h.stores.frontier.counts()).toEqual({ pending: 0, inFlight: 0, done: 0, error: 1, blocked: 0, held: 0 });
    expect(h.finished).toEqual(['finished']);
  });

  it('waits the Retry-After of a 429 before asking the host again', async () => {
    const h = harness({});
    db = h.db;
    await h.add(candidate('a.test', 'busy'));
    await h.start();
    await h.answer(h.dispatched[0]!.seq, (task) => ({ type: 'page', seq: 0, urlId: task.urlId, result: { ...page(task.url, 429), retryAfter: '7' } }));
    await vi.advanceTimersByTimeAsync(6_999);
    expect(h.dispatched).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.dispatched).toHaveLength(2);
  });

  it('on stop, URLs waiting for their robots.txt go back to pending and the crawl ends stopped', async () => {
    const h = harness({ obeyRobots: true });
    db = h.db;
    await h.add(candidate('a.test', '1'), candidate('b.test', '1'));
    await h.start();
    // Each origin's robots.txt is fetched first; its URL waits for it, claimed.
    expect(h.dispatched.map((entry) => [entry.task.purpose, entry.task.url]).sort()).toEqual([
      ['robots', 'http://a.test/robots.txt'],
      ['robots', 'http://b.test/robots.txt'],
    ]);
    expect(h.stores.frontier.counts()).toMatchObject({ pending: 0, inFlight: 2 });
    await h.stop();
    expect(h.stores.frontier.counts()).toEqual({ pending: 2, inFlight: 0, done: 0, error: 0, blocked: 0, held: 0 });
    expect(h.finished).toEqual(['stopped']);
  });

  it('stops claiming at maxPages, leaving the rest pending', async () => {
    const h = harness({ maxPages: 2 });
    db = h.db;
    await h.add(...['a', 'b', 'c', 'd'].map((host) => candidate(`${host}.test`, '1')));
    await h.start();
    expect(h.dispatched).toHaveLength(2);
    await h.answer(h.dispatched[0]!.seq, ok);
    await h.answer(h.dispatched[1]!.seq, ok);
    expect(h.dispatched).toHaveLength(2);
    expect(h.finished).toEqual(['stopped']);
    expect(h.stores.frontier.counts()).toEqual({ pending: 2, inFlight: 0, done: 2, error: 0, blocked: 0, held: 0 });
  });

  it('claims ahead of free slots (claimAheadPerSlot), and fills a freed slot from those URLs while a claim is being written', async () => {
    const claims = claimGate();
    const h = harness({ maxInFlightPerHost: 10 }, { slots: 2, claimAheadPerSlot: 1, wrapClaim: claims.wrap });
    db = h.db;
    await h.add(...Array.from({ length: 10 }, (_, i) => candidate('a.test', String(i))));
    await h.start();
    // Two slots fetching, two URLs claimed ahead (one a slot).
    expect(h.dispatched).toHaveLength(2);
    expect(h.stores.frontier.counts()).toMatchObject({ inFlight: 4, pending: 6 });
    claims.held.on = true;
    await h.answer(h.dispatched[0]!.seq, ok);
    // The freed slot took a URL in hand; the step now waits on a claim to top them up again.
    expect(h.dispatched).toHaveLength(3);
    expect(claims.held.waiting).toHaveLength(1);
    await h.answer(h.dispatched[1]!.seq, ok);
    // Filled while that claim is still being written: no slot waits on the store.
    expect(h.dispatched).toHaveLength(4);
    expect(h.open()).toHaveLength(2);
    claims.release();
    await vi.advanceTimersByTimeAsync(0);
    // The claimed URL found no free slot: it waits in hand, and the pool was never over-filled.
    expect(h.open()).toHaveLength(2);
    while (h.finished.length === 0 && h.open().length > 0) await h.answer(h.open()[0]!, ok);
    expect(h.dispatched.map((entry) => entry.task.url).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `http://a.test/${i}`).sort());
    expect(h.finished).toEqual(['finished']);
  });

  it('with every slot busy, claims ahead again only once half the URLs in hand are gone, then all of them in one claim', async () => {
    const sizes: number[] = [];
    const wrap =
      (claim: FrontierStore['claimBatch']): FrontierStore['claimBatch'] =>
      async (max, nowMs) => {
        const claimed = await claim(max, nowMs);
        sizes.push(claimed.length);
        return claimed;
      };
    const h = harness({ maxInFlightPerHost: 100 }, { slots: 4, claimAheadPerSlot: 2, wrapClaim: wrap });
    db = h.db;
    await h.add(...Array.from({ length: 40 }, (_, i) => candidate('a.test', String(i))));
    await h.start();
    // Four fetching, eight in hand: one claim of twelve.
    expect(sizes).toEqual([12]);
    expect(h.stores.frontier.counts()).toMatchObject({ pending: 28 });
    for (let answered = 1; answered <= 3; answered += 1) {
      await h.answer(h.open()[0]!, ok);
      // The freed slot took a URL in hand; fewer than half (4 of 8) are gone: no claim.
      expect(h.open()).toHaveLength(4);
      expect(sizes).toEqual([12]);
      expect(h.stores.frontier.counts()).toMatchObject({ pending: 28 });
    }
    await h.answer(h.open()[0]!, ok);
    // Half gone: the four are claimed in one batch.
    expect(sizes).toEqual([12, 4]);
    expect(h.stores.frontier.counts()).toMatchObject({ pending: 24 });
    while (h.finished.length === 0 && h.open().length > 0) await h.answer(h.open()[0]!, ok);
    expect(h.dispatched.map((entry) => entry.task.url).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `http://a.test/${i}`).sort());
    expect(h.finished).toEqual(['finished']);
  });

  it('claims nothing ahead under a page limit, and on stop the URLs claimed ahead go back to pending', async () => {
    const limited = harness({ maxPages: 3, maxInFlightPerHost: 10 }, { slots: 2, claimAheadPerSlot: 2 });
    db = limited.db;
    await limited.add(...Array.from({ length: 8 }, (_, i) => candidate('a.test', String(i))));
    await limited.start();
    expect(limited.stores.frontier.counts()).toMatchObject({ inFlight: 2, pending: 6 });
    db.close();
    const h = harness({ maxInFlightPerHost: 10 }, { slots: 2, claimAheadPerSlot: 2 });
    db = h.db;
    await h.add(...Array.from({ length: 8 }, (_, i) => candidate('a.test', String(i))));
    await h.start();
    expect(h.stores.frontier.counts()).toMatchObject({ inFlight: 6, pending: 2 });
    await h.stop();
    expect(h.finished).toEqual([]);
    for (const seq of h.open()) await h.answer(seq, ok);
    expect(h.finished).toEqual(['stopped']);
    expect(h.stores.frontier.counts()).toEqual({ pending: 6, inFlight: 0, done: 2, error: 0, blocked: 0, held: 0 });
  });

  it('a URL claimed ahead whose robots.txt must be fetched waits for a free slot to fetch it', async () => {
    const h = harness({ obeyRobots: true, maxInFlightPerHost: 10 }, { slots: 1, claimAheadPerSlot: 2 });
    db = h.db;
    await h.add(candidate('a.test', '1'), candidate('b.test', '1'), candidate('c.test', '1'));
    await h.start();
    // One slot: one robots.txt fetch; the other origins' URLs are claimed ahead, their robots.txt not yet asked for.
    expect(h.dispatched.map((entry) => entry.task.purpose)).toEqual(['robots']);
    expect(h.stores.frontier.counts()).toMatchObject({ inFlight: 3, pending: 0 });
    // Each answer frees the one slot: the next robots.txt fetch (or a cleared page) takes it, never two at once.
    for (let answered = 0; answered < 6 && h.open().length > 0; answered += 1) {
      const seq = h.open()[0]!;
      const entry = h.dispatched.find((dispatched) => dispatched.seq === seq)!;
      if (entry.task.purpose === 'robots') await h.answerRobots(seq);
      else await h.answer(seq, ok);
      expect(h.open().length).toBeLessThanOrEqual(1);
    }
    expect(h.dispatched.filter((entry) => entry.task.purpose === 'robots').map((entry) => entry.task.url).sort()).toEqual([
      'http://a.test/robots.txt',
      'http://b.test/robots.txt',
      'http://c.test/robots.txt',
    ]);
    expect(h.dispatched.filter((entry) => entry.task.purpose === 'page')).toHaveLength(3);
    expect(h.finished).toEqual(['finished']);
  });

  it('with a store that answers later, never runs two claims at once', async () => {
    let running = 0;
    let most = 0;
    const h = harness(
      {},
      {
        slots: 4,
        wrapClaim: (claim) => async (max, nowMs) => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          try {
            return await claim(max, nowMs);
          } finally {
            running -= 1;
          }
        },
      },
    );
    db = h.db;
    await h.add(...Array.from({ length: 12 }, (_, i) => candidate(`h${i}.test`, '1')));
    h.pump();
    await h.start();
    for (let i = 0; i < 5; i += 1) h.pump();
    await vi.advanceTimersByTimeAsync(50);
    while (h.finished.length === 0) {
      const next = h.dispatched.find((entry) => !entry.task.url.startsWith('done:'));
      if (!next) break;
      next.task.url = `done:${next.task.url}`;
      await h.answer(next.seq, ok);
      h.pump();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(most).toBe(1);
    expect(h.dispatched).toHaveLength(12);
    expect(h.finished).toEqual(['finished']);
  });
});

// The result committer against a fake crawl writer: what one batch holds (outcomes, pages, link
// rows and aliases named by normalized key, candidates), that commits never overlap with a store
// that answers later, and that a failed commit reaches onError. No SQLite, no timers of its own.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../shared/types/crawl';
import { LinkPipeline } from '../links/link-pipeline';
import type { SettledFetch } from '../schedule/retry-policy';
import type { ClaimedUrl, CommitBatch, CommitResult, CrawlWriter } from '../store/ports';
import type { PageResult } from '../worker/protocol';
import { MAX_BACKLOG, MAX_UNCOMMITTED, ResultCommitter } from './result-committer';
import { seenEntry } from '../dedupe/seen-cache';
import { URL_SOURCE_BITS } from '../../shared/types/url-sources';

const identify = (raw: string) => {
  const url = new URL(raw);
  url.hash = '';
  return { ok: true as const, value: { url: raw, normalized: url.href, normalizedKey: `key:${url.href}`, host: url.hostname, registrableDomain: url.hostname } };
};

function claimed(id: number, path = `p${id}`): ClaimedUrl {
  return { id, url: `http://a.test/${path}`, host: 'a.test', depth: 0, attempts: 0, redirectHops: 0 };
}

function page(url: string, fields: Partial<PageResult> = {}): PageResult {
  return { finalUrl: url, status: 200, contentType: 'text/html', bodyBytes: 10, truncated: false, fetchMs: 3, redirect: null, responseHeadersJson: '{}', title: 'T', metaDescription: null, h1: null, canonicalUrl: null, robotsDirectives: null, wordCount: null, lang: null, links: [], unresolvableLinks: 0, linksOverCap: 0, nofollow: false, noindex: false, retryAfter: null, content: null, ...fields };
}

function settledPage(url: ClaimedUrl, result: PageResult): SettledFetch {
  return { url, message: { type: 'page', seq: 1, urlId: url.id, result }, disposition: { fetchMs: 3, nowMs: 1_000, httpStatus: result.status }, retry: false };
}

/** A writer that records each batch and answers when the test says so. */
function slowWriter() {
  const batches: CommitBatch[] = [];
  const answers: ((result: CommitResult | Error) => void)[] = [];
  let open = 0;
  let most = 0;
  const writer: Pick<CrawlWriter, 'commit'> = {
    commit(batch) {
      batches.push(batch);
      open += 1;
      most = Math.max(most, open);
      return new Promise((resolve, reject) =>
        answers.push((result) => {
          open -= 1;
          if (result instanceof Error) reject(result);
          else resolve(result);
        }),
      );
    },
  };
  return { writer, batches, answers, most: () => most };
}

function committer(writer: Pick<CrawlWriter, 'commit'>, events: { duplicates: number[]; errors: Error[] }) {
  const links = new LinkPipeline({ settings: { ...DEFAULT_CRAWL_SETTINGS, scope: 'any' }, seeds: ['http://a.test/'], identify, countRefusal: () => undefined });
  return new ResultCommitter({
    stores: { writer: writer as CrawlWriter },
    settings: DEFAULT_CRAWL_SETTINGS,
    links,
    onDuplicates: (count) => events.duplicates.push(count),
    onWindowCommitted: () => undefined,
    onError: (error) => events.errors.push(error),
    now: () => 5_000,
  });
}

describe('ResultCommitter', () => {
  afterEach(() => vi.useRealTimers());

  it('hands the store one batch of data: outcome, page row, link rows and aliases by normalized key, candidates', async () => {
    const { writer, batches, answers } = slowWriter();
    const events = { duplicates: [] as number[], errors: [] as Error[] };
    const c = committer(writer, events);
    const from = claimed(1);
    c.add(
      settledPage(
        from,
        page(from.url, {
          links: [
            { url: 'http://a.test/x', kind: 'a', anchorText: 'X', rel: 'noopener' },
            { url: 'http://a.test/x#part', kind: 'a', anchorText: 'X again' },
            { url: 'mailto:me@a.test', kind: 'a' },
          ],
        }),
      ),
    );
    const done = c.commit();
    answers[0]!({ added: 1, addedHosts: [], duplicates: 2, redirectLoops: [] });
    await done;
    const batch = batches[0]!;
    expect(batch.nowMs).toBe(5_000);
    expect(batch.outcomes).toEqual([{ kind: 'done', url: from, disposition: { fetchMs: 3, nowMs: 1_000, httpStatus: 200 } }]);
    expect(batch.pages).toHaveLength(1);
    expect(batch.pages![0]!.row).toMatchObject({ urlId: 1, httpStatus: 200, title: 'T', fetchedAtMs: 1_000 });
    // Both spellings are candidates (the store's URL-seen test keeps one URL); one link row per target and kind.
    expect(batch.candidates!.map((candidate) => [candidate.normalizedKey, candidate.depth, candidate.discoveredFrom])).toEqual([
      ['key:http://a.test/x', 1, 1],
      ['key:http://a.test/x', 1, 1],
    ]);
    expect(batch.links).toEqual([
      { fromUrlId: 1, rawUrl: 'http://a.test/x', toKey: 'key:http://a.test/x', kind: 'a', refusedBy: null, anchorText: 'X', rel: 'noopener' },
      { fromUrlId: 1, rawUrl: 'mailto:me@a.test', toKey: null, kind: 'a', refusedBy: 'protocol', anchorText: null, rel: null },
    ]);
    expect(batch.aliases).toEqual([
      { toKey: 'key:http://a.test/x', rawUrl: 'http://a.test/x', fromUrlId: 1 },
      // A spelling that differs only by its #fragment is counted with the spelling without it (engine/links/aliases.ts).
      { toKey: 'key:http://a.test/x', rawUrl: 'http://a.test/x', fromUrlId: 1, fragmentSpellings: 1 },
    ]);
    expect(events.duplicates).toEqual([2]);
  });

  it('a page with text hands over its excerpt once, as the page text; the content-seen test gets fingerprint, sketch and sizes; a 404 takes no part', async () => {
    const { writer, batches, answers } = slowWriter();
    const c = committer(writer, { duplicates: [], errors: [] });
    const minhash = new Uint32Array(64).fill(9);
    const content = { fingerprint: 'f'.repeat(64), minhash, words: 3, textChars: 17, excerpt: 'one two three' };
    const ok = claimed(1);
    const missing = claimed(2);
    c.add(settledPage(ok, page(ok.url, { content })));
    c.add(settledPage(missing, page(missing.url, { status: 404, content })));
    const done = c.commit();
    answers[0]!({ added: 0, addedHosts: [], duplicates: 0, redirectLoops: [] });
    await done;
    const [kept, notFound] = batches[0]!.pages!;
    expect(kept!.text).toBe('one two three');
    expect(kept!.content).toEqual({ fingerprint: 'f'.repeat(64), minhash, words: 3, textChars: 17 });
    expect(kept!.content).not.toHaveProperty('excerpt');
    expect(kept!.row).toMatchObject({ fingerprint: 'f'.repeat(64), textChars: 17 });
    // An error page keeps its text for the inspector but is not a content-seen candidate.
    expect(notFound!.text).toBe('one two three');
    expect(notFound!.content).toBeNull();
  });

  it('a link to a URL the store said it holds as linked names its id and offers no candidate; one held only as a seed is still offered', async () => {
    const { writer, batches, answers } = slowWriter();
    const c = committer(writer, { duplicates: [], errors: [] });
    const first = claimed(1);
    c.add(settledPage(first, page(first.url, { links: [{ url: 'http://a.test/x', kind: 'a' }, { url: 'http://a.test/seed', kind: 'a' }] })));
    const committed = c.commit();
    // The store's URL-seen entries, in candidate order: /x is URL 40 (linked), /seed is URL 41 known as a seed only.
    answers[0]!({ added: 1, addedHosts: ['a.test'], duplicates: 0, redirectLoops: [], seen: Float64Array.of(seenEntry(40, URL_SOURCE_BITS.link), seenEntry(41, URL_SOURCE_BITS.seed)) });
    await committed;
    const second = claimed(2);
    c.add(settledPage(second, page(second.url, { links: [{ url: 'http://a.test/x', kind: 'a' }, { url: 'http://a.test/seed', kind: 'a' }, { url: 'http://a.test/new', kind: 'a' }] })));
    const next = c.commit();
    answers[1]!({ added: 1, addedHosts: ['a.test'], duplicates: 0, redirectLoops: [] });
    await next;
    const batch = batches[1]!;
    expect(batch.candidates!.map((candidate) => candidate.normalizedKey)).toEqual(['key:http://a.test/seed', 'key:http://a.test/new']);
    expect(batch.links!.map((link) => [link.toKey, link.toUrlId])).toEqual([
      [null, 40],
      ['key:http://a.test/seed', undefined],
      ['key:http://a.test/new', undefined],
    ]);
    // A third page: /x is answered from its target's memo now (and its alias, stored by the first page, is not sent again).
    const third = claimed(3);
    c.add(settledPage(third, page(third.url, { links: [{ url: 'http://a.test/seed', kind: 'a' }, { url: 'http://a.test/x', kind: 'a' }] })));
    const last = c.commit();
    answers[2]!({ added: 0, addedHosts: [], duplicates: 0, redirectLoops: [] });
    await last;
    expect(batches[2]!.candidates!.map((candidate) => candidate.normalizedKey)).toEqual(['key:http://a.test/seed']);
    expect(batches[2]!.links!.map((link) => [link.toKey, link.toUrlId])).toEqual([
      ['key:http://a.test/seed', undefined],
      [null, 40],
    ]);
    expect(batches[2]!.aliases).toEqual([]);
  });

  it('a redirect answer becomes a redirected outcome naming its target by key, the target a candidate', async () => {
    const { writer, batches, answers } = slowWriter();
    const c = committer(writer, { duplicates: [], errors: [] });
    const from = claimed(7);
    c.add(settledPage(from, page(from.url, { status: 301, redirect: { location: 'http://a.test/moved', raw: '/moved' } })));
    const done = c.commit();
    answers[0]!({ added: 1, addedHosts: [], duplicates: 0, redirectLoops: [] });
    await done;
    const batch = batches[0]!;
    expect(batch.outcomes).toEqual([
      { kind: 'redirected', url: from, disposition: { fetchMs: 3, nowMs: 1_000, httpStatus: 301 }, target: { key: 'key:http://a.test/moved', url: 'http://a.test/moved' }, rawUrl: 'http://a.test/moved', maxHops: DEFAULT_CRAWL_SETTINGS.maxRedirects + 1 },
    ]);
    expect(batch.candidates).toMatchObject([{ normalizedKey: 'key:http://a.test/moved', depth: 0, redirectHops: 1 }]);
    expect(batch.links).toEqual([]);
  });

  it('never runs two commits at once with a store that answers later; what arrives meanwhile goes in the next batch', async () => {
    const { writer, batches, answers, most } = slowWriter();
    const events = { duplicates: [] as number[], errors: [] as Error[] };
    const c = committer(writer, events);
    for (let id = 1; id <= MAX_UNCOMMITTED; id += 1) c.add(settledPage(claimed(id), page(claimed(id).url)));
    // Full: the first batch went to the store, which has not answered yet.
    expect(batches).toHaveLength(1);
    c.addOutcome({ kind: 'requeued', url: claimed(100), disposition: { fetchMs: 0, nowMs: 1_000 } });
    const second = c.commit();
    expect(batches).toHaveLength(1);
    answers[0]!({ added: 0, addedHosts: [], duplicates: 0, redirectLoops: [] });
    await vi.waitFor(() => expect(batches).toHaveLength(2));
    expect(batches[1]!.outcomes).toEqual([{ kind: 'requeued', url: claimed(100), disposition: { fetchMs: 0, nowMs: 1_000 } }]);
    answers[1]!({ added: 0, addedHosts: [], duplicates: 0, redirectLoops: [] });
    await second;
    expect(most()).toBe(1);
    expect(batches[0]!.outcomes).toHaveLength(MAX_UNCOMMITTED);
    expect(c.pending).toBe(0);
  });

  it('a commit the store refuses reaches onError, and the promise still settles', async () => {
    const { writer, answers } = slowWriter();
    const events = { duplicates: [] as number[], errors: [] as Error[] };
    const c = committer(writer, events);
    c.add(settledPage(claimed(1), page(claimed(1).url)));
    const done = c.commit();
    const full = Object.assign(new Error('database or disk is full'), { code: 'DISK_FULL' });
    answers[0]!(full);
    await done;
    expect(events.errors).toEqual([full]);
  });

  it('reports a backlog once MAX_BACKLOG results wait behind a store that has not answered, and clears it when the store catches up', async () => {
    const { writer, batches, answers } = slowWriter();
    const events = { duplicates: [] as number[], errors: [] as Error[] };
    const c = committer(writer, events);
    // The first MAX_UNCOMMITTED results go to the store, which keeps them; the rest wait.
    for (let id = 1; id < MAX_UNCOMMITTED + MAX_BACKLOG; id += 1) c.add(settledPage(claimed(id), page(claimed(id).url)));
    expect(c.pending).toBe(MAX_BACKLOG - 1);
    expect(c.backlogged).toBe(false);
    c.add(settledPage(claimed(MAX_UNCOMMITTED + MAX_BACKLOG), page(claimed(MAX_UNCOMMITTED + MAX_BACKLOG).url)));
    expect(c.backlogged).toBe(true);
    const caughtUp = c.commit();
    answers[0]!({ added: 0, addedHosts: [], duplicates: 0, redirectLoops: [] });
    await vi.waitFor(() => expect(batches).toHaveLength(2));
    // Everything waiting went in one batch: no backlog while the store writes it.
    expect(batches[1]!.outcomes).toHaveLength(MAX_BACKLOG);
    expect(c.backlogged).toBe(false);
    answers[1]!({ added: 0, addedHosts: [], duplicates: 0, redirectLoops: [] });
    await caughtUp;
    expect(events.errors).toEqual([]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { WritableDB } from '../../engine/store/sqlite/database';
import { insertCrawl, type TestUrl } from '../../engine/store/sqlite/queries/test-rows';
import { estimatedJaccard, MINHASH_SIZE, textSketch } from '../../engine/dedupe/shingles';
import { sketchFromBlob, sketchToBlob } from '../../engine/dedupe/content-verdict';
import type { CrawlSettings } from '../../shared/types/crawl';
import { normalizedKey } from '../../shared/url/key';
import { PROFILES } from '../../shared/url/profiles';
import { CHANGE_KINDS, diffCrawls, newestCrawlIds, pageColumns, settledUrlsSql, sketchSimilarity, type CrawlDiff, type DiffSource } from './crawl-diff';

/** A page row of a test URL (absent: the URL has none, e.g. pending or a network error). */
interface TestPage {
  status?: number;
  title?: string | null;
  fingerprint?: string | null;
  minhash?: Uint32Array | null;
  location?: string | null;
}

interface DiffUrl extends TestUrl {
  page?: TestPage;
  errorCode?: string;
}

/** Inserts a crawl of `rows` (keys under `settings`' profile, standard by default) with their page rows. */
function crawlOf(db: WritableDB, rows: readonly DiffUrl[], settings: Partial<CrawlSettings> = {}): number {
  return db.transaction(() => {
    const { crawlId, ids } = insertCrawl(db, rows, settings);
    const page = db.prepare(
      `INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, title, fetched_at_ms, fingerprint, minhash, location)
       VALUES (?, ?, ?, ?, 100, 5, ?, 1, ?, ?, ?)`,
    );
    const error = db.prepare(`UPDATE urls SET error_code = ? WHERE id = ?`);
    rows.forEach((row, index) => {
      const id = ids[index]!;
      if (row.page) {
        const p = row.page;
        page.run(id, crawlId, row.url, p.status ?? row.status ?? 200, p.title ?? null, p.fingerprint ?? null, p.minhash ? sketchToBlob(p.minhash) : null, p.location ?? null);
      }
      if (row.errorCode) error.run(row.errorCode, id);
    });
    return crawlId;
  })();
}

/** A sketch of MINHASH_SIZE values `base + i`, with the first `changed` values replaced: similarity (64 - changed) / 64 to the unchanged one. */
function sketch(base: number, changed = 0): Uint32Array {
  return Uint32Array.from({ length: MINHASH_SIZE }, (_, i) => (i < changed ? 0xdead0000 + i : base + i));
}

const kindsOf = (diff: CrawlDiff): string[][] => diff.changes.map((change) => [change.kind, change.url]);

describe('diffCrawls: the join on the normalized key', () => {
  it('spellings of one URL (tracking parameters, host case, fragment, directory index, query order) make no phantom add or remove', () => {
    const db = openDatabase(':memory:');
    const page = (title: string): TestPage => ({ title, fingerprint: `fp-${title}`, minhash: sketch(title.length) });
    const before = crawlOf(db, [
      { url: 'http://a.test/', page: page('Home') },
      { url: 'http://a.test/a.html', page: page('A') },
      { url: 'http://a.test/docs/', page: page('Docs') },
      { url: 'http://a.test/search?a=1&b=2', page: page('Search') },
      { url: 'http://a.test/%7Euser/', page: page('User') },
    ]);
    const after = crawlOf(db, [
      { url: 'HTTP://A.TEST:80/', page: page('Home') },
      { url: 'http://a.test/a.html?utm_source=news&fbclid=xyz#top', page: page('A') },
      { url: 'http://a.test/docs/index.html', page: page('Docs') },
      { url: 'http://a.test/search?b=2&a=1&utm_medium=mail', page: page('Search') },
      { url: 'http://a.test/~user/', page: page('User') },
    ]);
    // A join on the fetched spelling would see five removes and five adds.
    const spellings = (crawlId: number) => db.prepare(`SELECT url FROM urls WHERE crawl_id = ? ORDER BY url`).pluck().all(crawlId);
    expect(spellings(after).filter((url) => spellings(before).includes(url))).toEqual([]);
    const diff = diffCrawls({ db, crawlId: before }, { db, crawlId: after });
    expect(diff.changes).toEqual([]);
    expect(diff).toMatchObject({ common: 5, rekeyed: false, before: { crawlId: before, urls: 5, profile: 'standard' }, after: { crawlId: after, urls: 5 } });
    expect(Object.values(diff.counts).every((count) => count === 0)).toBe(true);
  });

  it('detects each kind of change, and only settled URLs take part', () => {
    const db = openDatabase(':memory:');
    const before = crawlOf(db, [
      { url: 'http://s.test/same', page: { title: 'Same', fingerprint: 'f-same', minhash: sketch(1) } },
      { url: 'http://s.test/gone', page: { title: 'Gone', fingerprint: 'f-gone' } },
      { url: 'http://s.test/missing', page: { title: 'Here', fingerprint: 'f-missing' } },
      { url: 'http://s.test/title', page: { title: 'Old title', fingerprint: 'f-title', minhash: sketch(2) } },
      { url: 'http://s.test/content', page: { title: 'Content', fingerprint: 'f-content-1', minhash: sketch(3) } },
      { url: 'http://s.test/edit', page: { title: 'Edit', fingerprint: 'f-edit-1', minhash: sketch(4) } },
      { url: 'http://s.test/moved', status: 301, page: { status: 301, location: 'http://s.test/one' } },
      { url: 'http://s.test/now-redirects', page: { title: 'Page', fingerprint: 'f-page' } },
      { url: 'http://s.test/down', page: { title: 'Down', fingerprint: 'f-down' } },
      { url: 'http://s.test/still-broken', state: 'error', status: 404, errorCode: 'HTTP_404', page: { status: 404, title: 'Not found' } },
      { url: 'http://s.test/queued-before', state: 'pending' },
    ]);
    const after = crawlOf(db, [
      { url: 'http://s.test/same', page: { title: 'Same', fingerprint: 'f-same', minhash: sketch(1) } },
      { url: 'http://s.test/new', page: { title: 'New', fingerprint: 'f-new' } },
      { url: 'http://s.test/missing', state: 'error', status: 404, errorCode: 'HTTP_404', page: { status: 404, title: 'Not found', fingerprint: 'f-404' } },
      { url: 'http://s.test/title', page: { title: 'New title', fingerprint: 'f-title', minhash: sketch(2) } },
      { url: 'http://s.test/content', page: { title: 'Content', fingerprint: 'f-content-2', minhash: sketch(3, 40) } },
      { url: 'http://s.test/edit', page: { title: 'Edit', fingerprint: 'f-edit-2', minhash: sketch(4, 3) } },
      { url: 'http://s.test/moved', status: 301, page: { status: 301, location: 'http://s.test/two' } },
      { url: 'http://s.test/now-redirects', status: 308, page: { status: 308, location: 'http://s.test/page' } },
      { url: 'http://s.test/down', state: 'error', status: null, errorCode: 'CONNECTION_REFUSED' },
      { url: 'http://s.test/still-broken', state: 'error', status: 404, errorCode: 'HTTP_404', page: { status: 404, title: 'Not found' } },
      { url: 'http://s.test/new-broken', state: 'error', status: null, errorCode: 'DNS_FAILED' },
      { url: 'http://s.test/queued-after', state: 'pending' },
      { url: 'http://s.test/queued-before', state: 'in_flight' },
    ]);
    const diff = diffCrawls({ db, crawlId: before }, { db, crawlId: after });
    expect(kindsOf(diff)).toEqual([
      ['added', 'http://s.test/new'],
      ['added', 'http://s.test/new-broken'],
      ['removed', 'http://s.test/gone'],
      ['status', 'http://s.test/down'],
      ['status', 'http://s.test/missing'],
      ['status', 'http://s.test/now-redirects'],
      ['title', 'http://s.test/title'],
      ['content', 'http://s.test/content'],
      ['near-changed', 'http://s.test/edit'],
      ['redirect', 'http://s.test/moved'],
      ['redirect', 'http://s.test/now-redirects'],
      ['new-error', 'http://s.test/down'],
      ['new-error', 'http://s.test/missing'],
      ['new-error', 'http://s.test/new-broken'],
    ]);
    expect(diff.counts).toEqual({ added: 2, removed: 1, status: 3, title: 1, content: 1, 'near-changed': 1, redirect: 2, 'new-error': 3 });
    expect(Object.keys(diff.counts)).toEqual([...CHANGE_KINDS]);
    const find = (kind: string, url: string) => diff.changes.find((change) => change.kind === kind && change.url === url)!;
    expect(find('content', 'http://s.test/content').similarity).toBeCloseTo(24 / 64);
    expect(find('near-changed', 'http://s.test/edit').similarity).toBeCloseTo(61 / 64);
    expect(find('status', 'http://s.test/down')).toMatchObject({ before: { status: 200, state: 'done' }, after: { status: null, state: 'error', errorCode: 'CONNECTION_REFUSED' } });
    expect(find('redirect', 'http://s.test/moved')).toMatchObject({ before: { location: 'http://s.test/one' }, after: { location: 'http://s.test/two' } });
    expect(find('title', 'http://s.test/title')).toMatchObject({ before: { title: 'Old title' }, after: { title: 'New title' } });
    expect(find('removed', 'http://s.test/gone')).toMatchObject({ before: { title: 'Gone' }, after: null });
    expect(find('title', 'http://s.test/title')).not.toHaveProperty('similarity');
    // Settled URLs only: 10 of 11 before (one pending), 11 of 13 after (one pending, one in flight).
    expect(diff).toMatchObject({ before: { urls: 10 }, after: { urls: 11 }, common: 9 });

    // Keyset pages of two rows walk page boundaries to the same result.
    expect(diffCrawls({ db, crawlId: before }, { db, crawlId: after }, { pageSize: 2 })).toEqual(diff);
    // Swapped, the adds are removes and the errors fixed are not new errors.
    const reverse = diffCrawls({ db, crawlId: after }, { db, crawlId: before });
    expect(reverse.counts).toMatchObject({ added: 1, removed: 2, 'new-error': 0 });
  });

  it('near-changed or content by the similarity threshold: the before crawl’s nearDuplicateThreshold, or the option', () => {
    const db = openDatabase(':memory:');
    const rows = (fingerprint: string, minhash: Uint32Array | null): DiffUrl[] => [{ url: 'http://n.test/p', page: { title: 'P', fingerprint, minhash } }];
    // 61 of 64 values equal: similarity 0.953.
    const near = crawlOf(db, rows('one', sketch(9)));
    const edited = crawlOf(db, rows('two', sketch(9, 3)));
    expect(diffCrawls({ db, crawlId: near }, { db, crawlId: edited }).changes).toMatchObject([{ kind: 'near-changed', similarity: 61 / 64 }]);
    expect(diffCrawls({ db, crawlId: near }, { db, crawlId: edited }, { nearDuplicateThreshold: 0.96 }).changes).toMatchObject([{ kind: 'content', similarity: 61 / 64 }]);
    const strict = crawlOf(db, rows('one', sketch(9)), { nearDuplicateThreshold: 0.97 });
    const diff = diffCrawls({ db, crawlId: strict }, { db, crawlId: edited });
    expect(diff.nearDuplicateThreshold).toBe(0.97);
    expect(diff.changes).toMatchObject([{ kind: 'content', similarity: 61 / 64 }]);
    // No sketch on one side (too little text): content, similarity unknown.
    const bare = crawlOf(db, rows('three', null));
    expect(diffCrawls({ db, crawlId: near }, { db, crawlId: bare }).changes).toMatchObject([{ kind: 'content', similarity: null }]);
    // Same fingerprint: no content change whatever the sketches.
    const same = crawlOf(db, rows('one', sketch(9, 60)));
    expect(diffCrawls({ db, crawlId: near }, { db, crawlId: same }).changes).toEqual([]);
  });

  it('computes the similarity of stored sketches as estimatedJaccard does on real page texts', () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${(i * 7919) % 211}`);
    const a = textSketch(words.join(' '))!.minhash;
    const small = textSketch([...words.slice(0, 150), 'changed', ...words.slice(151)].join(' '))!.minhash;
    const large = textSketch(words.map((word, i) => (i % 3 === 0 ? `other${i}` : word)).join(' '))!.minhash;
    for (const b of [a, small, large]) {
      expect(sketchSimilarity(sketchToBlob(a), sketchToBlob(b))).toBe(estimatedJaccard(sketchFromBlob(sketchToBlob(a)), sketchFromBlob(sketchToBlob(b))));
    }
    expect(sketchSimilarity(sketchToBlob(a), sketchToBlob(a))).toBe(1);
    expect(sketchSimilarity(sketchToBlob(a), sketchToBlob(small))!).toBeGreaterThanOrEqual(0.9);
    expect(sketchSimilarity(sketchToBlob(a), sketchToBlob(large))!).toBeLessThan(0.5);
    expect(sketchSimilarity(null, sketchToBlob(a))).toBeNull();
    expect(sketchSimilarity(Buffer.alloc(8), sketchToBlob(a))).toBeNull();
  });

  it('re-keys the after crawl under the before crawl’s identity when their profiles differ, folding what that identity folds', () => {
    const db = openDatabase(':memory:');
    const page = (title: string): TestPage => ({ title, fingerprint: title });
    // The aggressive profile folds www, https, the extension and a trailing slash; standard does not.
    const before = crawlOf(db, [{ url: 'http://www.r.test/doc.html', page: page('Doc') }, { url: 'http://www.r.test/list/', page: page('List') }], { normalizationProfile: PROFILES.aggressive });
    const after = crawlOf(db, [
      { url: 'https://r.test/doc', page: page('Doc') },
      { url: 'http://r.test/list/', page: page('List') },
      { url: 'http://r.test/list.html', page: page('List') },
    ]);
    const keys = (crawlId: number) => db.prepare(`SELECT normalized_key FROM urls WHERE crawl_id = ?`).pluck().all(crawlId) as string[];
    expect(keys(after).filter((key) => keys(before).includes(key))).toEqual([]);
    const diff = diffCrawls({ db, crawlId: before }, { db, crawlId: after });
    expect(diff).toMatchObject({ rekeyed: true, foldedByRekey: 1, common: 2, changes: [], before: { profile: 'aggressive' }, after: { profile: 'standard', urls: 3 } });
    // The other way round, standard keys tell every spelling apart: nothing in common.
    const back = diffCrawls({ db, crawlId: after }, { db, crawlId: before });
    expect(back).toMatchObject({ rekeyed: true, foldedByRekey: 0, common: 0 });
    expect(kindsOf(back)).toEqual([
      ['added', 'http://www.r.test/doc.html'],
      ['added', 'http://www.r.test/list/'],
      ['removed', 'http://r.test/list.html'],
      ['removed', 'http://r.test/list/'],
      ['removed', 'https://r.test/doc'],
    ]);
  });

  it('compares crawls of two databases, read-only, and refuses unknown or identical sides with a code', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-diff-'));
    try {
      const files = [path.join(dir, 'old.db'), path.join(dir, 'new.db')];
      const titles = ['Before', 'After'];
      files.forEach((file, index) => {
        const db = openDatabase(file);
        crawlOf(db, [{ url: 'http://f.test/', page: { title: titles[index]!, fingerprint: 'same' } }]);
        db.close();
      });
      const [oldDb, newDb] = files.map((file) => openDatabase(file, { readonly: true }));
      const before: DiffSource = { db: oldDb!, crawlId: newestCrawlIds(oldDb!, 1)[0]! };
      const after: DiffSource = { db: newDb!, crawlId: newestCrawlIds(newDb!, 1)[0]! };
      expect(before.crawlId).toBe(1);
      expect(after.crawlId).toBe(1);
      expect(kindsOf(diffCrawls(before, after))).toEqual([['title', 'http://f.test/']]);
      expect(() => diffCrawls(before, { db: newDb!, crawlId: 7 })).toThrow(expect.objectContaining({ code: 'CRAWL_NOT_FOUND' }));
      expect(() => diffCrawls(before, before)).toThrow(expect.objectContaining({ code: 'NOTHING_TO_COMPARE' }));
      oldDb!.close();
      newDb!.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads each side in normalized-key order from the unique index: no sort', () => {
    const db = openDatabase(':memory:');
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${settledUrlsSql(pageColumns(db))}`).all(1, '', 10) as { detail: string }[]).map((step) => step.detail);
    expect(plan.join('\n')).toMatch(/SEARCH u USING INDEX sqlite_autoindex_urls_\d \(crawl_id=\? AND normalized_key>\?\)/);
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  it('compares two crawls of 100,000 URLs in seconds', () => {
    const db = openDatabase(':memory:');
    const count = 100_000;
    /** A crawl of synthetic pages written straight into urls and pages (insertCrawl normalizes each URL: too slow here). */
    const bigCrawl = (urls: readonly { url: string; title: string; fingerprint: string; minhash: Uint32Array }[]): number =>
      db.transaction(() => {
        const { crawlId } = insertCrawl(db, []);
        const url = db.prepare(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms, http_status) VALUES (?, ?, ?, ?, 'big.test', 'done', 1, 0, 1, 200)`);
        const page = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, title, fetched_at_ms, fingerprint, minhash) VALUES (?, ?, ?, 200, 100, 5, ?, 1, ?, ?)`);
        for (const row of urls) {
          const id = url.run(crawlId, normalizedKey(row.url), row.url, row.url).lastInsertRowid;
          page.run(id, crawlId, row.url, row.title, row.fingerprint, sketchToBlob(row.minhash));
        }
        return crawlId;
      })();
    const rows = (version: number) =>
      Array.from({ length: count }, (_, i) => {
        const changed = version === 2 && i % 1000 === 0;
        return { url: `http://big.test/section${i % 97}/page${i}.html`, title: changed && i % 2000 === 0 ? `Changed ${i}` : `Page ${i}`, fingerprint: changed ? `f${i}-v2` : `f${i}`, minhash: sketch(i, changed ? 2 : 0) };
      });
    const before = bigCrawl(rows(1));
    // The first 50 pages removed, 50 new ones added.
    const after = bigCrawl([...rows(2).slice(50), ...Array.from({ length: 50 }, (_, i) => ({ url: `http://big.test/new/${i}`, title: 'New', fingerprint: `n${i}`, minhash: sketch(-i) }))]);
    const started = performance.now();
    const diff = diffCrawls({ db, crawlId: before }, { db, crawlId: after });
    const elapsedMs = performance.now() - started;
    console.log(`crawl diff of 2 x ${count} URLs: ${elapsedMs.toFixed(0)} ms`);
    // i % 1000 === 0 for i ≥ 50: 99 near-changed (2 of 64 values changed), 49 of them retitled (i % 2000 === 0).
    expect(diff.counts).toMatchObject({ added: 50, removed: 50, 'near-changed': 99, title: 49, content: 0, status: 0 });
    expect(diff.common).toBe(count - 50);
    expect(elapsedMs).toBeLessThan(10_000);
  });
});

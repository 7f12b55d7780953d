/** The SQLite content-seen test across runs (the band-bucket filter seeded from the stored bands, bucket-filter.ts) and its pending band rows (pending-bands.ts). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BAND_INDEX_ROW_BYTES } from '../../dedupe/band-index';
import { sketchToBlob } from '../../dedupe/content-verdict';
import { LSH_BANDS, MINHASH_SIZE, textSketch } from '../../dedupe/shingles';
import type { PageContent } from '../../worker/protocol';
import { openDatabase } from './connection';
import { ContentDedupe, UNINDEXED_PAGES_SQL } from './content-dedupe';
import { PENDING_BAND_ROWS } from './pending-bands';
import { insertCrawl } from './queries/test-rows';

function words(seed: number, count: number): string {
  let state = seed;
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out.push(`w${(state >>> 8) % 400}`);
  }
  return out.join(' ');
}

function contentOf(text: string): PageContent {
  const sketch = textSketch(text)!;
  return { fingerprint: createHash('sha256').update(sketch.normalized).digest('hex'), minhash: sketch.minhash, words: sketch.words, textChars: sketch.normalized.length, excerpt: '' };
}

describe('ContentDedupe across runs', () => {
  it('a run opened later finds the near-duplicate of a page an earlier run indexed, and skips no band that holds it', () => {
    const db = openDatabase(':memory:');
    const crawl = insertCrawl(db, [{ url: 'http://dup.test/a' }, { url: 'http://dup.test/b' }, { url: 'http://dup.test/c' }]);
    const [a, b, c] = crawl.ids as [number, number, number];
    const insertPage = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, fingerprint, minhash) VALUES (?, ?, 'x', 200, 1, 1, 1, ?, ?)`);
    const base = words(1, 300);
    const record = (index: ContentDedupe, urlId: number, text: string) => {
      const content = contentOf(text);
      insertPage.run(urlId, crawl.crawlId, content.fingerprint, sketchToBlob(content.minhash));
      return index.record(urlId, content, 1);
    };
    expect(record(new ContentDedupe(db, crawl.crawlId, { threshold: 0.8 }), a, base)).toEqual({ kind: 'unique' });
    // A new run: a new index over the same file.
    const resumed = new ContentDedupe(db, crawl.crawlId, { threshold: 0.8 });
    const near = base.replace(/^(\S+ ){10}\S+/, (head) => `${head} changed`);
    expect(record(resumed, b, near)).toMatchObject({ kind: 'near', duplicateOf: a });
    expect(record(resumed, c, words(2, 300))).toEqual({ kind: 'unique' });
    db.close();
  });
});

describe('ContentDedupe band rows (pending-bands.ts)', () => {
  function setup(pages: number) {
    const db = openDatabase(':memory:');
    const crawl = insertCrawl(
      db,
      Array.from({ length: pages }, (_, i) => ({ url: `http://dup.test/${i}` })),
    );
    const insertPage = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, fingerprint, minhash) VALUES (?, ?, 'x', 200, 1, 1, 1, ?, ?)`);
    const bandRows = () => db.prepare(`SELECT count(*) FROM minhash_bands WHERE crawl_id = ?`).pluck().get(crawl.crawlId) as number;
    const record = (index: ContentDedupe, urlId: number, content: PageContent) => {
      insertPage.run(urlId, crawl.crawlId, content.fingerprint, sketchToBlob(content.minhash));
      return db.transaction(() => index.record(urlId, content, 1))();
    };
    return { db, crawl, bandRows, record };
  }

  it('wait in memory, are probed there, and go at the flush to the in-memory index (nothing written) or, without one, to the table; an exact duplicate adds none', () => {
    for (const bandIndexBytes of [undefined, 0]) {
      const { db, crawl, bandRows, record } = setup(3);
      const [a, b, c] = crawl.ids as [number, number, number];
      const index = new ContentDedupe(db, crawl.crawlId, { threshold: 0.8 }, bandIndexBytes);
      const base = words(1, 300);
      expect(record(index, a, contentOf(base))).toEqual({ kind: 'unique' });
      expect(bandRows()).toBe(0);
      // Found through the pending rows alone.
      expect(record(index, b, contentOf(base.replace(/^(\S+ ){10}\S+/, (head) => `${head} changed`)))).toMatchObject({ kind: 'near', duplicateOf: a });
      expect(record(index, c, contentOf(base))).toMatchObject({ kind: 'exact', duplicateOf: a });
      db.transaction(() => index.flush())();
      expect(bandRows()).toBe(bandIndexBytes === 0 ? 2 * LSH_BANDS : 0);
      db.close();
    }
  });

  it('reads the pages to derive rows for as a range of the pages key, without sorting them', () => {
    const { db } = setup(3);
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${UNINDEXED_PAGES_SQL}`).all(1, 0) as { detail: string }[];
    const details = plan.map((row) => row.detail).join('\n');
    expect(details).toMatch(/SEARCH p USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    expect(details).not.toMatch(/TEMP B-TREE/);
    db.close();
  });

  it('a store opened later (after a crash, or after a run whose rows stayed in memory) derives the rows its indexed pages lack, and no others', () => {
    const { db, crawl, bandRows, record } = setup(3);
    const [a, b, c] = crawl.ids as [number, number, number];
    const crashed = new ContentDedupe(db, crawl.crawlId, { threshold: 0.8 });
    record(crashed, a, contentOf(words(1, 300)));
    record(crashed, b, contentOf(words(1, 300)));
    record(crashed, c, contentOf(words(3, 300)));
    expect(bandRows()).toBe(0);
    // Without an in-memory index the derived rows go to the table at the flush, where they can be counted.
    const reopened = new ContentDedupe(db, crawl.crawlId, { threshold: 0.8 }, 0);
    db.transaction(() => reopened.flush())();
    // a and c were indexed; b, an exact duplicate of a, was not.
    expect(bandRows()).toBe(2 * LSH_BANDS);
    expect(db.prepare(`SELECT DISTINCT url_id FROM minhash_bands ORDER BY url_id`).pluck().all()).toEqual([a, c]);
    db.close();
  });

  it(`move by themselves once ${PENDING_BAND_ROWS} wait: into the in-memory index while it holds every row, and all of them to the table when it would outgrow its bytes`, () => {
    const pages = 2 * (PENDING_BAND_ROWS / LSH_BANDS) + 1;
    let state = 7;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
    const contents = Array.from({ length: pages }, (_, i): PageContent => ({ fingerprint: `f${i}`, minhash: Uint32Array.from({ length: MINHASH_SIZE }, random), words: 1, textChars: 1, excerpt: '' }));
    // Room for one flush's rows: the second flush outgrows the index.
    for (const [bandIndexBytes, afterFirst] of [[0, PENDING_BAND_ROWS], [BAND_INDEX_ROW_BYTES * (PENDING_BAND_ROWS + 1), 0]] as const) {
      const { db, crawl, bandRows, record } = setup(pages);
      const ids = crawl.ids as number[];
      const index = new ContentDedupe(db, crawl.crawlId, { threshold: 0.8 }, bandIndexBytes);
      ids.forEach((urlId, i) => {
        record(index, urlId, contents[i]!);
        // The page that filled the buffer moved it all; the next one waits.
        if (i === PENDING_BAND_ROWS / LSH_BANDS - 1) expect(bandRows()).toBe(afterFirst);
      });
      // Table or not, the second flush writes every row the crawl has but the last page's.
      expect(bandRows()).toBe(2 * PENDING_BAND_ROWS);
      expect(db.prepare(`SELECT count(DISTINCT url_id) FROM minhash_bands`).pluck().get()).toBe(pages - 1);
      db.close();
    }
  });

  it('give the same verdicts from the in-memory band index as from the table, across a flush and a reopen, and when the index is dropped mid-run', () => {
    // Sketches drawn from a few bases, a few values changed: buckets crowd, as shared boilerplate makes them.
    const pages = PENDING_BAND_ROWS / LSH_BANDS + 600;
    let state = 5;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
    const bases = Array.from({ length: 12 }, () => Uint32Array.from({ length: MINHASH_SIZE }, random));
    const contents = Array.from({ length: pages }, (_, i): PageContent => {
      const minhash = Uint32Array.from(bases[random() % bases.length]!);
      for (let change = random() % 24; change > 0; change -= 1) minhash[random() % MINHASH_SIZE] = random();
      return { fingerprint: `f${i}`, minhash, words: 100, textChars: 1, excerpt: '' };
    });
    const verdicts = (bandIndexBytes: number | undefined) => {
      const { db, crawl, record } = setup(pages);
      const ids = crawl.ids as number[];
      const reopenAt = pages - 300;
      let index = new ContentDedupe(db, crawl.crawlId, { threshold: 0.8 }, bandIndexBytes);
      const out = ids.map((urlId, i) => {
        // A new run over the same file partway: its index starts from the stored and derived rows.
        if (i === reopenAt) index = new ContentDedupe(db, crawl.crawlId, { threshold: 0.8 }, bandIndexBytes);
        return record(index, urlId, contents[i]!);
      });
      db.close();
      return out;
    };
    const fromMemory = verdicts(undefined);
    expect(fromMemory.filter((verdict) => verdict.kind === 'near').length).toBeGreaterThan(pages / 2);
    expect(fromMemory).toEqual(verdicts(0));
    // An index that outgrows its bytes at the first flush: dropped mid-run (the bucket filter starts
    // from the table then), and again when the run reopens over the stored rows.
    expect(fromMemory).toEqual(verdicts(BAND_INDEX_ROW_BYTES * (PENDING_BAND_ROWS - 1)));
  });
});

describe('ContentDedupe exact probe (fingerprints in memory)', () => {
  /** A page fetched (again: its row replaced) with `fingerprint` and HTTP `status`; recorded, as the writer does, when 2xx. */
  function run(exactMax: number | undefined, reopenAt: number) {
    const db = openDatabase(':memory:');
    const crawl = insertCrawl(db, Array.from({ length: 8 }, (_, i) => ({ url: `http://exact.test/${i + 1}` })));
    const ids = crawl.ids as number[];
    const upsert = db.prepare(
      `INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, fingerprint, minhash) VALUES (?, ?, 'x', ?, 1, 1, 1, ?, ?)
       ON CONFLICT (url_id) DO UPDATE SET http_status = excluded.http_status, fingerprint = excluded.fingerprint, minhash = excluded.minhash`,
    );
    const sketchOf = (fingerprint: string) => Uint32Array.from({ length: MINHASH_SIZE }, (_, i) => (fingerprint.charCodeAt(1) * 7919 + i * 104729) >>> 0);
    let index = new ContentDedupe(db, crawl.crawlId, { threshold: 0.9 }, undefined, exactMax);
    const steps: [page: number, fingerprint: string, status: number][] = [
      [1, 'F1', 200],
      [2, 'F2', 200],
      [3, 'F1', 200],
      // An error page's text takes no part: a 2xx page with the same text is not its duplicate.
      [4, 'F3', 404],
      [5, 'F3', 200],
      // Page 1 fetched again with other content: F1's smallest page is 3 now.
      [1, 'F4', 200],
      [6, 'F1', 200],
      // Page 3 fetched again, unchanged: its duplicate is the smallest other page with F1.
      [3, 'F1', 200],
      [7, 'F2', 200],
      [8, 'F4', 200],
    ];
    const verdicts = steps.map(([page, fingerprint, status], step) => {
      // A new run partway: its fingerprints come from the stored pages.
      if (step === reopenAt) index = new ContentDedupe(db, crawl.crawlId, { threshold: 0.9 }, undefined, exactMax);
      const urlId = ids[page - 1]!;
      const minhash = sketchOf(fingerprint);
      upsert.run(urlId, crawl.crawlId, status, fingerprint, sketchToBlob(minhash));
      if (status >= 300) return null;
      const verdict = index.record(urlId, { fingerprint, minhash, words: 1, textChars: 1 }, 1);
      return verdict.kind === 'exact' ? `exact of ${ids.indexOf(verdict.duplicateOf) + 1}` : verdict.kind;
    });
    const indexed = db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'pages_by_fingerprint'`).pluck().get() === 1;
    db.close();
    return { verdicts, indexed };
  }

  it('answers as the table does, across pages fetched again, error pages and a reopen, and past its bound from pages_by_fingerprint', () => {
    const expected = ['unique', 'unique', 'exact of 1', null, 'unique', 'unique', 'exact of 3', 'exact of 6', 'exact of 2', 'exact of 1'];
    for (const reopenAt of [-1, 4, 8]) {
      expect(run(undefined, reopenAt)).toEqual({ verdicts: expected, indexed: false });
      // Room for two fingerprints: the third makes the index, and so does a reopen over more.
      expect(run(2, reopenAt)).toEqual({ verdicts: expected, indexed: true });
    }
  });
});


/** The SQLite content-seen test across runs: the band-bucket filter is seeded from the stored bands (bucket-filter.ts). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sketchToBlob } from '../../dedupe/content-verdict';
import { textSketch } from '../../dedupe/shingles';
import type { PageContent } from '../../worker/protocol';
import { openDatabase } from './connection';
import { ContentDedupe } from './content-dedupe';
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

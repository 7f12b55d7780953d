import { describe, expect, it } from 'vitest';
import { openDatabase } from '../connection';
import { DustQueries } from './dust-queries';
import { insertCrawl } from './test-rows';

describe('DustQueries.pages', () => {
  it('gives each fetched 2xx page a content identity: its near group (for every page of its fingerprint) or its fingerprint', () => {
    const db = openDatabase(':memory:');
    const urls = ['/a', '/a-copy', '/b', '/b-near', '/b-exact', '/missing', '/c'].map((path) => ({ url: `http://n.test${path}` }));
    const { crawlId, ids } = insertCrawl(db, urls);
    const page = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, fingerprint) VALUES (?, ?, 'x', ?, 0, 1, 1, ?)`);
    const fingerprints = ['fa', 'fa', 'fb', 'fn', 'fb', 'fz', null];
    ids.forEach((id, index) => page.run(id, crawlId, index === 5 ? 404 : 200, fingerprints[index]));
    // /b-near is a near duplicate of /b (group first page /b).
    const group = Number(db.prepare(`INSERT INTO content_groups (crawl_id, kind, fingerprint, first_url_id, created_at_ms) VALUES (?, 'near', NULL, ?, 1)`).run(crawlId, ids[2]).lastInsertRowid);
    db.prepare(`INSERT INTO content_group_members (group_id, url_id, similarity) VALUES (?, ?, 0.9)`).run(group, ids[3]);
    const read = new DustQueries(db).pages(crawlId);
    expect(read).toEqual({
      pages: [
        { url: 'http://n.test/a', contentId: 'exact:fa' },
        { url: 'http://n.test/a-copy', contentId: 'exact:fa' },
        { url: 'http://n.test/b', contentId: `near:${group}` },
        { url: 'http://n.test/b-near', contentId: `near:${group}` },
        // Same fingerprint as /b: the same near group.
        { url: 'http://n.test/b-exact', contentId: `near:${group}` },
      ],
      truncated: false,
    });
    expect(new DustQueries(db).pages(crawlId, 2)).toMatchObject({ truncated: true, pages: [{ url: 'http://n.test/a' }, { url: 'http://n.test/a-copy' }] });
    db.close();
  });
});

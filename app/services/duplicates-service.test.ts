import { type WritableDB, openDatabase, DuplicateQueries } from '../../engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentGroupDetail, urlGroupDetail } from './duplicates-service';
import { insertCrawl, insertLink } from '../../engine/store/sqlite/queries/test-rows';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

function addContentGroup(crawlId: number, kind: 'exact' | 'near', first: number, members: [number, number][]): number {
  const id = Number(db.prepare(`INSERT INTO content_groups (crawl_id, kind, fingerprint, first_url_id, created_at_ms) VALUES (?, ?, ?, ?, 1)`).run(crawlId, kind, kind === 'exact' ? `fp${first}` : null, first).lastInsertRowid);
  for (const [urlId, similarity] of members) db.prepare(`INSERT INTO content_group_members (group_id, url_id, similarity) VALUES (?, ?, ?)`).run(id, urlId, similarity);
  return id;
}

describe('duplicate-URL groups', () => {
  it('lists URLs with two or more raw spellings; the detail labels each spelling and picks the clean one over the fetched session spelling', () => {
    const { crawlId, ids } = insertCrawl(db, [
      { url: 'http://s.test/' },
      { url: 'http://s.test/item?PHPSESSID=abc', from: 1, aliases: ['http://s.test/item?PHPSESSID=def', 'http://s.test/item#top'] },
      { url: 'http://s.test/b.html', from: 1 },
    ]);
    const queries = new DuplicateQueries(db);
    expect(queries.urlGroups(crawlId, { offset: 0, limit: 10 })).toEqual({ total: 1, offset: 0, rows: [{ urlId: ids[1], normalizedKey: expect.any(String), normalized: 'http://s.test/item', members: 3 }] });
    expect(queries.urlGroups(crawlId, { offset: 0, limit: 10, text: 'nothing' }).total).toBe(0);
    const detail = urlGroupDetail(queries, crawlId, ids[1]!, {});
    expect(detail.canonical).toBe('http://s.test/item');
    expect(detail).toMatchObject({ layer: 'heuristic', decidedBy: 'noSessionOrTracking' });
    // Without a clean spelling, the fetched one (status 200) wins among the session spellings.
    db.prepare(`DELETE FROM url_aliases WHERE raw_url = 'http://s.test/item#top'`).run();
    expect(urlGroupDetail(queries, crawlId, ids[1]!, {})).toMatchObject({ canonical: 'http://s.test/item?PHPSESSID=abc', layer: 'heuristic', decidedBy: 'fetchedOk' });
    expect(detail.profileName).toBe('standard');
    expect(Object.fromEntries(detail.members.map((m) => [m.rawUrl, m.causes]))).toEqual({
      'http://s.test/item#top': ['fragment'],
      'http://s.test/item?PHPSESSID=abc': ['tracking parameter', 'empty query'],
      'http://s.test/item?PHPSESSID=def': ['tracking parameter', 'empty query'],
    });
    expect(detail.members[0]!.firstSeenFrom).toBe('http://s.test/');
    expect(() => urlGroupDetail(queries, crawlId, 999, {})).toThrow(expect.objectContaining({ code: 'GROUP_NOT_FOUND' }));
  });
});

describe('the canonical layers of a URL group (seed 001)', () => {
  it('a stored redirect decides first, then the page’s rel=canonical on its own site, then the heuristics', () => {
    const { crawlId, ids } = insertCrawl(db, [
      { url: 'http://s.test/' },
      { url: 'http://s.test/old?utm_source=x', from: 1, aliases: ['http://s.test/old'] },
      { url: 'http://s.test/new', from: 1 },
      { url: 'http://s.test/page?sessionid=1', from: 1, aliases: ['http://s.test/page'] },
    ]);
    const queries = new DuplicateQueries(db);
    db.prepare(`UPDATE urls SET http_status = 301 WHERE id = ?`).run(ids[1]);
    insertLink(db, crawlId, { fromUrlId: ids[1]!, toUrlId: ids[2]!, rawUrl: null, kind: 'redirect' });
    expect(urlGroupDetail(queries, crawlId, ids[1]!, {})).toMatchObject({ canonical: 'http://s.test/new', layer: 'redirect', decidedBy: null, steps: [] });

    const page = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, canonical_url) VALUES (?, ?, ?, 200, 1, 1, 1, ?)`);
    page.run(ids[3], crawlId, 'http://s.test/page?sessionid=1', 'http://other.test/page');
    // A rel=canonical on another site is ignored: the heuristics pick the clean spelling.
    expect(urlGroupDetail(queries, crawlId, ids[3]!, {})).toMatchObject({ canonical: 'http://s.test/page', layer: 'heuristic', decidedBy: 'noSessionOrTracking' });
    db.prepare(`UPDATE pages SET canonical_url = 'http://s.test/page?view=print' WHERE url_id = ?`).run(ids[3]);
    expect(urlGroupDetail(queries, crawlId, ids[3]!, {})).toMatchObject({ canonical: 'http://s.test/page?view=print', layer: 'relCanonical', decidedBy: null });
  });
});

describe('content groups', () => {
  it('counts the first page once whether or not it is stored as a member, and lists it first', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://d.test/a' }, { url: 'http://d.test/a-copy' }, { url: 'http://d.test/n1' }, { url: 'http://d.test/n2' }]);
    for (const [index, title] of ['Story', 'Story (copy)', 'Near', 'Near'].entries()) {
      db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, title, fetched_at_ms, text_chars) VALUES (?, ?, 'x', 200, 1, 1, ?, 1, 100)`).run(ids[index], crawlId, title);
    }
    const exact = addContentGroup(crawlId, 'exact', ids[0]!, [[ids[0]!, 1], [ids[1]!, 1]]);
    const near = addContentGroup(crawlId, 'near', ids[2]!, [[ids[3]!, 0.93]]);
    const queries = new DuplicateQueries(db);
    const list = queries.contentGroups(crawlId, { offset: 0, limit: 10 });
    expect(list.rows.map((g) => [g.id, g.kind, g.firstUrl, g.members, g.minSimilarity])).toEqual([
      [exact, 'exact', 'http://d.test/a', 2, 1],
      [near, 'near', 'http://d.test/n1', 2, 0.93],
    ]);
    expect(queries.contentGroups(crawlId, { offset: 0, limit: 10, kind: 'near' }).total).toBe(1);
    const detail = contentGroupDetail(queries, crawlId, near);
    expect(detail.members.map((m) => [m.url, m.title, m.similarity])).toEqual([
      ['http://d.test/n1', 'Near', 1],
      ['http://d.test/n2', 'Near', 0.93],
    ]);
    expect(detail.texts).toEqual({ left: 'Near', right: 'Near', textSource: 'titles' });
    expect(() => contentGroupDetail(queries, crawlId + 1, near)).toThrow(expect.objectContaining({ code: 'GROUP_NOT_FOUND' }));
  });

  it('uses the stored page texts for the diff when the pages have them', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://d.test/n1' }, { url: 'http://d.test/n2' }]);
    const group = addContentGroup(crawlId, 'near', ids[0]!, [[ids[1]!, 0.95]]);
    db.prepare(`INSERT INTO page_texts VALUES (?, ?), (?, ?)`).run(ids[0], 'filed by the night clerk', ids[1], 'signed by the day judge');
    expect(contentGroupDetail(new DuplicateQueries(db), crawlId, group).texts).toEqual({ left: 'filed by the night clerk', right: 'signed by the day judge', textSource: 'page text' });
  });
});

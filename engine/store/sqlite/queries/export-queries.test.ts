// Export queries page by keyset: each page reads forward from the last key, never the whole crawl.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../connection';
import type { WritableDB } from '../database';
import { ExportQueries } from './export-queries';
import { insertCrawl } from './test-rows';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

/** The query plan of the statement `run` prepares whose SQL contains `marker`, for `params`. */
function planOf(run: (queries: ExportQueries) => void, marker: string, params: unknown[]): string[] {
  const statements: string[] = [];
  const traced = new Proxy(db, {
    get(target, property) {
      if (property !== 'prepare') return Reflect.get(target, property, target);
      return (sql: string) => {
        statements.push(sql);
        return target.prepare(sql);
      };
    },
  });
  run(new ExportQueries(traced));
  const sql = statements.find((text) => text.includes(marker))!;
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail);
}

describe('ExportQueries.contentGroups', () => {
  it('reads forward from the last key through the rowid, with no temporary B-tree', () => {
    const { crawlId } = insertCrawl(db, [{ url: 'http://a.test/' }]);
    const plan = planOf((queries) => queries.contentGroups(crawlId, 0, 10), 'FROM content_groups g JOIN urls f', [crawlId, 0, 10]);
    expect(plan).toContain('SEARCH g USING INTEGER PRIMARY KEY (rowid>?)');
    expect(plan.some((detail) => detail.includes('TEMP B-TREE'))).toBe(false);
  });
});

describe('ExportQueries.urlGroups', () => {
  it('pages duplicate-URL groups by URL id, each group with its sorted spellings', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/x', from: 1, depth: 1 }, { url: 'http://a.test/y', from: 1, depth: 1 }]);
    const alias = db.prepare(`INSERT INTO url_aliases (url_id, raw_url, first_seen_from) VALUES (?, ?, NULL)`);
    // insertCrawl stored each URL's own spelling: these are the extra ones.
    for (const raw of ['http://a.test/X', 'http://a.test/x?']) alias.run(ids[1], raw);
    alias.run(ids[2], 'http://a.test/./y');
    db.prepare(`UPDATE url_aliases SET fragment_spellings = 2 WHERE raw_url = 'http://a.test/X'`).run();
    const queries = new ExportQueries(db);
    const first = queries.urlGroups(crawlId, 0, 1);
    expect(first.rows.map((row) => [row.urlId, row.aliases.map((a) => [a.rawUrl, a.fragmentSpellings])])).toEqual([
      [ids[1], [['http://a.test/X', 2], ['http://a.test/x', 0], ['http://a.test/x?', 0]]],
    ]);
    const second = queries.urlGroups(crawlId, first.lastKey, 1);
    expect(second.rows.map((row) => [row.urlId, row.aliases.map((a) => a.rawUrl)])).toEqual([[ids[2], ['http://a.test/./y', 'http://a.test/y']]]);
    expect(queries.urlGroups(crawlId, second.lastKey, 1).rows).toEqual([]);
  });

  it('reads forward from the last key through the rowid, with no temporary B-tree (a page never scans the whole crawl)', () => {
    const { crawlId } = insertCrawl(db, [{ url: 'http://a.test/' }]);
    const plan = planOf((queries) => queries.urlGroups(crawlId, 0, 10), 'group_concat', [crawlId, 0, 10]);
    expect(plan).toContain('SEARCH u USING INTEGER PRIMARY KEY (rowid>?)');
    expect(plan.some((detail) => detail.includes('TEMP B-TREE'))).toBe(false);
  });
});

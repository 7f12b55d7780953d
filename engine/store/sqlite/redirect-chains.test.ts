import { describe, expect, it } from 'vitest';
import { openDatabase } from './connection';
import { insertCrawl } from './queries/test-rows';
import { RedirectChains } from './redirect-chains';
import { insertLink } from './queries/test-rows';

describe('RedirectChains', () => {
  it('closesLoop: a self-redirect, and a known target whose stored redirects lead back; not a target that leads elsewhere', () => {
    const db = openDatabase(':memory:');
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/1' }, { url: 'http://a.test/2' }, { url: 'http://a.test/3' }, { url: 'http://a.test/4' }]);
    const link = { run: (crawl: number, from: number | undefined, to: number | undefined) => insertLink(db, crawl, { fromUrlId: from!, rawUrl: 'x', toUrlId: to!, kind: 'redirect' }) };
    link.run(crawlId, ids[1], ids[2]); // 2 -> 3
    link.run(crawlId, ids[2], ids[0]); // 3 -> 1
    const chains = new RedirectChains(db);
    expect(chains.closesLoop(crawlId, ids[3]!, ids[3]!, 10)).toBe(true);
    expect(chains.closesLoop(crawlId, ids[0]!, ids[1]!, 10)).toBe(true); // 1 -> 2 -> 3 -> 1
    expect(chains.closesLoop(crawlId, ids[0]!, ids[1]!, 1)).toBe(false); // beyond maxSteps
    expect(chains.closesLoop(crawlId, ids[3]!, ids[1]!, 10)).toBe(false); // 4 -> 2 -> 3 -> 1: no way back to 4
    db.close();
  });

  it('seedRedirectTargets: URLs at depth 0 reached by redirects', () => {
    const db = openDatabase(':memory:');
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://www.a.test/' }, { url: 'http://www.a.test/x', depth: 1 }]);
    db.prepare(`UPDATE urls SET redirect_hops = 1 WHERE id IN (?, ?)`).run(ids[1], ids[2]);
    expect(new RedirectChains(db).seedRedirectTargets(crawlId)).toEqual([{ url: 'http://www.a.test/', registrableDomain: 'a.test' }]);
    db.close();
  });
});

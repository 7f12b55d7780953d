import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../../shared/url/profiles';
import { createCrawlNormalizer } from '../../../shared/url/dust/identity';
import type { DustRule } from '../../../shared/url/dust/rule';
import { openDatabase } from './connection';
import { CrawlRuleStore } from './crawl-rules';
import { insertCrawl, insertLink } from './queries/test-rows';

const STORY: DustRule = { kind: 'substitution', host: 'a.test', from: ['/story?id=', ''], to: ['/story_', '.html'], endAnchored: true };
const identity = createCrawlNormalizer(PROFILES.standard, [STORY]);
const at = (path: string) => `http://a.test${path}`;

function crawl() {
  const db = openDatabase(':memory:');
  const { crawlId, ids } = insertCrawl(db, [
    { url: at('/') },
    { url: at('/story?id=1'), depth: 1 },
    { url: at('/story_1.html'), depth: 1 },
    { url: at('/story?id=2'), state: 'pending', depth: 1, aliases: [at('/story?id=2&')] },
    { url: at('/story_2.html'), depth: 1 },
    { url: at('/story?id=3'), state: 'pending', depth: 1 },
    { url: at('/story_3.html'), state: 'pending', depth: 2 },
    { url: at('/story?id=4'), state: 'pending', depth: 1 },
    { url: at('/other'), state: 'pending', depth: 1 },
    { url: 'http://b.test/story?id=2', state: 'pending', depth: 1 },
  ]);
  const link = insertLink(db, crawlId, { fromUrlId: ids[0]!, toUrlId: ids[3]!, rawUrl: null });
  db.prepare(`INSERT INTO link_counts (url_id, crawl_id, inlinks, outlinks) VALUES (?, ?, 1, 0), (?, ?, 4, 0)`).run(ids[3], crawlId, ids[4], crawlId);
  return { db, crawlId, ids, link };
}

const rows = (db: ReturnType<typeof crawl>['db']) => ({
  urls: db.prepare(`SELECT * FROM urls ORDER BY id`).all(),
  aliases: db.prepare(`SELECT * FROM url_aliases ORDER BY url_id, raw_url`).all(),
  links: db.prepare(`SELECT * FROM links ORDER BY id`).all(),
  counts: db.prepare(`SELECT * FROM link_counts ORDER BY url_id`).all(),
});

describe('CrawlRuleStore', () => {
  it('merges queued URLs that now share a key into the fetched (else the canonical) one, re-keys the rest, counts fetched duplicates', () => {
    const { db, crawlId, ids, link } = crawl();
    const store = new CrawlRuleStore(db);
    const outcome = store.accept(crawlId, 'dust', STORY, identity, 1000);
    // ?id=2 (queued) into _2.html (fetched); ?id=3 (queued) into _3.html (queued, holds the key); ?id=4 re-keyed alone.
    expect(outcome).toMatchObject({ merged: 2, fetchesSaved: 2, fetchedDuplicates: 1, rekeyed: 1 });
    expect(outcome.examples).toEqual([
      { from: at('/story?id=2'), into: at('/story_2.html') },
      { from: at('/story?id=3'), into: at('/story_3.html') },
    ]);
    const left = db.prepare(`SELECT id FROM urls ORDER BY id`).pluck().all();
    expect(left).toEqual([ids[0], ids[1], ids[2], ids[4], ids[6], ids[7], ids[8], ids[9]]);
    // Both fetched spellings of story 1 keep their rows and keys (two pages): a duplicate counted, not merged.
    const keyOf = db.prepare(`SELECT normalized_key FROM urls WHERE id = ?`).pluck();
    expect(keyOf.get(ids[1])).not.toBe(keyOf.get(ids[2]));
    // The merged spellings are aliases of the URL kept; the link and its count follow.
    expect(db.prepare(`SELECT raw_url FROM url_aliases WHERE url_id = ? ORDER BY raw_url`).pluck().all(ids[4])).toEqual([at('/story?id=2'), at('/story?id=2&'), at('/story_2.html')]);
    expect(db.prepare(`SELECT to_url_id FROM links WHERE id = ?`).pluck().get(link)).toBe(ids[4]);
    expect(db.prepare(`SELECT inlinks FROM link_counts WHERE url_id = ?`).pluck().get(ids[4])).toBe(5);
    // A queued URL kept takes the shallower depth of what merged into it.
    expect(db.prepare(`SELECT depth FROM urls WHERE id = ?`).pluck().get(ids[6])).toBe(1);
    const story4 = identity(at('/story_4.html'));
    expect(keyOf.get(ids[7])).toBe(story4.ok ? story4.value.key : null);
    // Another host is untouched.
    expect(db.prepare(`SELECT state FROM urls WHERE id = ?`).pluck().get(ids[9])).toBe('pending');
    expect(store.activeRules(crawlId)).toEqual([STORY]);
  });

  it('undo gives every row, alias, link and count back exactly', () => {
    const { db, crawlId } = crawl();
    const before = rows(db);
    const store = new CrawlRuleStore(db);
    const { ruleId } = store.accept(crawlId, 'dust', STORY, identity, 1000);
    expect(store.undo(crawlId, ruleId, 2000)).toEqual({ restored: 2, rekeyed: 2 });
    expect(rows(db)).toEqual(before);
    expect(store.activeRules(crawlId)).toEqual([]);
    expect(store.list(crawlId)).toMatchObject([{ id: ruleId, undoneAtMs: 2000, merged: 2, description: 'a.test: /story?id={v}$ → /story_{v}.html$' }]);
  });

  it('refuses a malformed rule and one already in force', () => {
    const { db, crawlId } = crawl();
    const store = new CrawlRuleStore(db);
    expect(() => store.accept(crawlId, 'dust', { ...STORY, from: [''] } as DustRule, identity, 1)).toThrow(expect.objectContaining({ code: 'INVALID_DUST_RULE' }));
    store.accept(crawlId, 'dust', STORY, identity, 1);
    expect(() => store.accept(crawlId, 'dust', STORY, identity, 2)).toThrow(expect.objectContaining({ code: 'DUST_RULE_EXISTS' }));
    expect(() => store.undo(crawlId, 99, 3)).toThrow(expect.objectContaining({ code: 'DUST_RULE_NOT_FOUND' }));
  });
});

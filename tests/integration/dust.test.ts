import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlService } from '../../app/services/crawl-service';
import { DustService } from '../../app/services/dust-service';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { WritableDB } from '../../engine/store/sqlite/database';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { DUST_HOST, DUST_SITES, DUST_STORIES, dustRoute } from '../../testweb/scope-sites/dust';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer(DUST_SITES, { dynamic: dustRoute });
});
afterAll(async () => {
  await fixtures?.stop();
});

const STORY_RULE = `${DUST_HOST}: /story?id={v}$ → /story_{v}.html$`;
const PRINT_RULE = `${DUST_HOST}: /print/ → /`;
/** Index plus stories 1-7 at all three spellings: stories 8-12 left queued. */
const MAX_PAGES = 1 + 3 * 7;

/** Crawls the DUST host until maxPages, leaving URLs queued. */
async function pausedCrawl(db: WritableDB): Promise<{ crawlId: number; service: CrawlService }> {
  const service = new CrawlService(db);
  const overrides = [{ host: DUST_HOST, address: '127.0.0.1', port: fixtures.port }];
  const { crawlId, done } = service.start([`http://${DUST_HOST}/`], { hostOverrides: overrides, closedResolver: true, delayFactor: 0, maxPages: MAX_PAGES });
  expect((await done).status).toBe('stopped');
  return { crawlId, service };
}

/** State of each story spelling's URL row: 'done', 'pending' … or absent. */
function spellingStates(db: WritableDB, crawlId: number, spelling: (id: number) => string): (string | undefined)[] {
  const state = db.prepare(`SELECT state FROM urls WHERE crawl_id = ? AND url = ?`).pluck();
  return Array.from({ length: DUST_STORIES }, (_, index) => state.get(crawlId, `http://${DUST_HOST}${spelling(index + 1)}`) as string | undefined);
}

const snapshot = (db: WritableDB, crawlId: number) => ({
  urls: db.prepare(`SELECT id, url, normalized, normalized_key, state, depth, priority, discovered_from FROM urls WHERE crawl_id = ? ORDER BY id`).all(crawlId),
  aliases: db.prepare(`SELECT url_id, raw_url, first_seen_from, fragment_spellings FROM url_aliases ORDER BY url_id, raw_url`).all(),
  links: db.prepare(`SELECT id, to_url_id FROM links WHERE crawl_id = ? ORDER BY id`).all(crawlId),
});

describe('DUST rules mined from the crawl, accepted into it (issue 12 parts 5 and 6)', () => {
  it('proposes the story?id= ↔ story_ and /print/ rules with their support; accepting one re-keys the queued frontier; resuming skips the merged URLs', async () => {
    const db = openDatabase(':memory:');
    const { crawlId, service } = await pausedCrawl(db);
    const byQuery = spellingStates(db, crawlId, (id) => `/story?id=${id}`);
    const byPath = spellingStates(db, crawlId, (id) => `/story_${id}.html`);
    const printed = spellingStates(db, crawlId, (id) => `/print/story_${id}.html`);
    // Every spelling of every story was discovered from the index; some are still queued.
    expect([...byQuery, ...byPath, ...printed].every((state) => state !== undefined)).toBe(true);
    const queued = (state: string | undefined) => state === 'pending';
    expect(byQuery.filter(queued).length).toBeGreaterThan(0);

    const dust = new DustService(db, service);
    const report = dust.mine(crawlId);
    const both = (left: (string | undefined)[], right: (string | undefined)[]) => left.filter((state, index) => state === 'done' && right[index] === 'done').length;
    const story = report.proposals.find((proposal) => proposal.description === STORY_RULE);
    const print = report.proposals.find((proposal) => proposal.description === PRINT_RULE);
    // Support: one per story fetched at both spellings (distinct contents).
    expect(story).toMatchObject({ support: both(byQuery, byPath), refuted: 0, confidence: 1, accepted: false });
    expect(print).toMatchObject({ support: both(printed, byPath), refuted: 0, confidence: 1 });
    expect(story!.support).toBeGreaterThanOrEqual(3);
    expect(story!.examples[0]).toEqual({ from: `http://${DUST_HOST}/story?id=1`, to: `http://${DUST_HOST}/story_1.html` });
    expect(report.proposals.map((proposal) => proposal.description).sort()).toEqual([PRINT_RULE, STORY_RULE]);

    // Accept the story rule on the stopped crawl: each story with a queued spelling loses one URL.
    const pendingBefore = db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND state = 'pending'`).pluck().get(crawlId) as number;
    const expectedMerged = byQuery.filter((state, index) => queued(state) || queued(byPath[index])).length;
    const { outcome } = await dust.acceptProposal(crawlId, story!.number);
    expect(outcome).toMatchObject({ merged: expectedMerged, fetchesSaved: expectedMerged, fetchedDuplicates: both(byQuery, byPath) });
    expect(outcome.merged).toBeGreaterThan(0);
    expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND state = 'pending'`).pluck().get(crawlId)).toBe(pendingBefore - expectedMerged);
    // The merged spelling is an alias of the URL kept, and the index's link to it points there.
    const kept = db.prepare(`SELECT url_id FROM url_aliases WHERE raw_url = ?`).pluck().get(`http://${DUST_HOST}/story?id=${DUST_STORIES}`) as number;
    expect(db.prepare(`SELECT url FROM urls WHERE id = ?`).pluck().get(kept)).toBe(`http://${DUST_HOST}/story_${DUST_STORIES}.html`);
    expect(dust.mine(crawlId).rules).toMatchObject([{ description: STORY_RULE, merged: expectedMerged, undoneAtMs: null }]);
    expect(dust.mine(crawlId).proposals.find((proposal) => proposal.description === STORY_RULE)?.accepted).toBe(true);

    // Resumed, the crawl keys links with the rule: no queued ?id= spelling of a story is requested.
    const since = fixtures.requests.length;
    expect((await service.resume(crawlId, { maxPages: 0 }).done).status).toBe('finished');
    const requested = fixtures.requests.slice(since).map((request) => request.path);
    expect(requested.filter((path) => path.startsWith('/story?id='))).toEqual([]);
    const storiesLeft = byPath.filter((state, index) => queued(state) || queued(byQuery[index])).length;
    expect(requested.filter((path) => /^\/story_\d+\.html$/.test(path))).toHaveLength(storiesLeft);
    db.close();
  });

  it('undo restores every URL row, alias and link the re-key changed; undo goes newest first', async () => {
    const db = openDatabase(':memory:');
    const { crawlId, service } = await pausedCrawl(db);
    const dust = new DustService(db, service);
    const before = snapshot(db, crawlId);
    const proposals = dust.mine(crawlId).proposals;
    const story = await dust.acceptProposal(crawlId, proposals.find((proposal) => proposal.description === STORY_RULE)!.number);
    const print = await dust.acceptProposal(crawlId, proposals.find((proposal) => proposal.description === PRINT_RULE)!.number);
    expect(print.outcome.merged).toBeGreaterThan(0);
    expect(() => dust.undo(crawlId, story.outcome.ruleId)).toThrow(expect.objectContaining({ code: 'DUST_UNDO_ORDER' }));
    await expect(dust.acceptProposal(crawlId, print.proposal.number)).rejects.toMatchObject({ code: 'DUST_RULE_EXISTS' });
    expect(dust.undo(crawlId, print.outcome.ruleId).restored).toBe(print.outcome.merged);
    expect(dust.undo(crawlId, story.outcome.ruleId).restored).toBe(story.outcome.merged);
    expect(snapshot(db, crawlId)).toEqual(before);
    expect(dust.mine(crawlId).rules.map((rule) => rule.undoneAtMs !== null)).toEqual([true, true]);
    expect(() => dust.undo(crawlId, story.outcome.ruleId)).toThrow(expect.objectContaining({ code: 'DUST_RULE_NOT_FOUND' }));
    db.close();
  });

  it("a content group's difference is promoted to a rule: the rules that take one member to another", async () => {
    const db = openDatabase(':memory:');
    const { crawlId, service } = await pausedCrawl(db);
    const dust = new DustService(db, service);
    const groupId = db
      .prepare(`SELECT g.id FROM content_groups g JOIN urls u ON u.id = g.first_url_id WHERE g.crawl_id = ? AND u.url = ?`)
      .pluck()
      .get(crawlId, `http://${DUST_HOST}/story?id=1`) as number;
    const rules = dust.groupRules(crawlId, groupId);
    expect(rules.map((proposal) => proposal.description).sort()).toEqual([PRINT_RULE, STORY_RULE]);
    const print = rules.find((proposal) => proposal.description === PRINT_RULE)!;
    const outcome = await dust.accept(crawlId, print.rule, { source: 'content-group' });
    expect(outcome.merged).toBeGreaterThan(0);
    expect(dust.mine(crawlId).rules).toMatchObject([{ source: 'content-group', description: PRINT_RULE }]);
    expect(dust.groupRules(crawlId, groupId).find((proposal) => proposal.description === PRINT_RULE)?.accepted).toBe(true);
    expect(() => dust.groupRules(crawlId, 9999)).toThrow(expect.objectContaining({ code: 'GROUP_NOT_FOUND' }));
    db.close();
  });

  it('a running crawl is refused unless the user chooses pause, apply and resume', async () => {
    const db = openDatabase(':memory:');
    const { crawlId, service } = await pausedCrawl(db);
    const dust = new DustService(db, service);
    const rule = dust.mine(crawlId).proposals[0]!.rule;
    const overrides = [{ host: DUST_HOST, address: '127.0.0.1', port: fixtures.port }];
    // Slow enough to be still running when the accept comes.
    const run = service.resume(crawlId, { maxPages: 0, hostOverrides: overrides, minDelayMs: 200 });
    await expect(dust.accept(crawlId, rule)).rejects.toMatchObject({ code: 'CRAWL_RUNNING' });
    const outcome = await dust.accept(crawlId, rule, { whileRunning: 'pause-and-resume' });
    expect(outcome.ruleId).toBeGreaterThan(0);
    await run.done.catch(() => undefined);
    expect(service.isRunning(crawlId)).toBe(true);
    await service.whenStopped(crawlId);
    expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND state = 'pending'`).pluck().get(crawlId)).toBe(0);
    db.close();
  });
});

import { type WritableDB, openDatabase, CrawlReader, DuplicateQueries, InspectorQueries, VersionQueries } from '../../engine';
import { VersionIndex } from '../../engine/store/sqlite/version-index';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CrawlSettings } from '../../shared/types/crawl';
import { excludeLikeUrl, inspectUrl, refetchUrl, type CrawlControl, type InspectorSources } from './inspector-service';
import { insertCrawl } from '../../engine/store/sqlite/queries/test-rows';
import { insertLink } from '../../engine/store/sqlite/queries/test-rows';

let db: WritableDB;
let sources: InspectorSources;
beforeEach(() => {
  db = openDatabase(':memory:');
  sources = { queries: new InspectorQueries(db), duplicates: new DuplicateQueries(db), crawls: new CrawlReader(db), versions: new VersionQueries(db) };
});
afterEach(() => db.close());

function page(crawlId: number, urlId: number, fields: { status?: number; location?: string; headers?: string; canonical?: string; contentType?: string } = {}): void {
  db.prepare(
    `INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, fetched_at_ms, location, response_headers_json, canonical_url)
     VALUES (?, ?, 'x', ?, ?, 2048, 40, 1700000000000, ?, ?, ?)`,
  ).run(urlId, crawlId, fields.status ?? 200, fields.contentType ?? 'text/html', fields.location ?? null, fields.headers ?? null, fields.canonical ?? null);
}

function link(crawlId: number, from: number, raw: string, to: number | null, kind = 'a', refusedBy: string | null = null, anchor: string | null = null): void {
  insertLink(db, crawlId, { fromUrlId: from, rawUrl: raw, toUrlId: to, kind, refusedBy, anchorText: anchor });
}

function fakeControl(running: boolean): CrawlControl & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    isRunning: () => running,
    refetch: vi.fn(async () => 'queued' as const),
    stop: () => (calls.push('stop'), true),
    whenStopped: async () => void calls.push('whenStopped'),
    resume: (_crawlId, overrides) => calls.push(`resume ${JSON.stringify(overrides)}`),
    updateSettings: (crawlId: number, settings: CrawlSettings) => {
      calls.push('updateSettings');
      db.prepare(`UPDATE crawls SET settings_json = ? WHERE id = ?`).run(JSON.stringify(settings), crawlId);
    },
  };
}

describe('inspectUrl', () => {
  it('tells a redirecting URL’s story: each hop, the chain’s end as canonical, and the same chain seen from its target', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/old', from: 1, depth: 1, status: 301 }, { url: 'http://a.test/new', from: 2, depth: 1 }]);
    const [home, old, target] = ids as [number, number, number];
    page(crawlId, home);
    page(crawlId, old, { status: 301, location: 'http://a.test/new' });
    page(crawlId, target, { headers: '{"content-type":"text/html","x-two":["a","b"]}' });
    link(crawlId, home, 'http://a.test/old', old, 'a', null, 'Old page');
    link(crawlId, old, 'http://a.test/new', target, 'redirect');

    const inspected = inspectUrl(sources, crawlId, old, false);
    expect(inspected.redirects.role).toBe('redirects');
    expect(inspected.redirects.hops.map((hop) => [hop.url, hop.status])).toEqual([
      ['http://a.test/old', 301],
      ['http://a.test/new', 200],
    ]);
    expect(inspected.names.canonical).toMatchObject({ url: 'http://a.test/new', urlId: target, source: 'redirect', detail: '1 redirect to the end of the chain' });
    expect(inspected.response.headers).toBeNull();
    expect(inspected.inlinks.rows.map((row) => [row.fromUrl, row.anchorText])).toEqual([['http://a.test/', 'Old page']]);
    expect(inspected.timeline[0]).toMatchObject({ step: 'discovered', urlId: home, detail: 'Found through a link “Old page” on http://a.test/, depth 1; queued' });

    const fromTarget = inspectUrl(sources, crawlId, target, false);
    expect(fromTarget.redirects.role).toBe('target');
    expect(fromTarget.redirects.hops.map((hop) => hop.url)).toEqual(['http://a.test/old', 'http://a.test/new']);
    expect(fromTarget.response).toMatchObject({ status: 200, sizeBytes: 2048, fetchMs: 40, fetchedAtMs: 1700000000000, headers: { 'content-type': 'text/html', 'x-two': 'a, b' } });
    expect(fromTarget.names.canonical.source).toBe('none');
    expect(fromTarget.robots.verdict).toBe('allowed');
  });

  it('names the rel=canonical layer, the group heuristic among spellings, and a robots refusal with its message', () => {
    const { crawlId, ids } = insertCrawl(db, [
      { url: 'http://a.test/' },
      { url: 'http://a.test/p?x=1', from: 1 },
      { url: 'http://a.test/item?PHPSESSID=abc', from: 1, aliases: ['http://a.test/item?PHPSESSID=def'] },
      { url: 'http://a.test/private/x.html', from: 1, state: 'error' },
    ]);
    page(crawlId, ids[1]!, { canonical: 'http://a.test/' });
    page(crawlId, ids[2]!);
    db.prepare(`UPDATE urls SET error_code = 'ROBOTS_DISALLOWED', error_reason = 'robots.txt disallows http://a.test/private/x.html for crawlbench', attempts = 1 WHERE id = ?`).run(ids[3]);

    expect(inspectUrl(sources, crawlId, ids[1]!, false).names.canonical).toMatchObject({ url: 'http://a.test/', urlId: ids[0], source: 'relCanonical', detail: 'the page names another URL' });
    const grouped = inspectUrl(sources, crawlId, ids[2]!, false);
    expect(grouped.names.canonical).toMatchObject({ url: 'http://a.test/item?PHPSESSID=abc', source: 'groupHeuristic', heuristic: 'fetchedOk' });
    expect(grouped.names.spellings.map((spelling) => spelling.rawUrl)).toEqual(['http://a.test/item?PHPSESSID=abc', 'http://a.test/item?PHPSESSID=def']);
    expect(grouped.duplicates.urlGroup?.members).toHaveLength(2);
    // Once a clean spelling is met, it is the canonical URL, though the session spelling was fetched.
    db.prepare(`INSERT INTO url_aliases (url_id, raw_url, first_seen_from) VALUES (?, 'http://a.test/item', 1)`).run(ids[2]);
    expect(inspectUrl(sources, crawlId, ids[2]!, false).names.canonical).toMatchObject({ url: 'http://a.test/item', source: 'groupHeuristic', heuristic: 'noSessionOrTracking' });
    // A site rule comes before rel=canonical and the heuristics (shared/url/site-rules.default.ts).
    const so = insertCrawl(db, [{ url: 'https://stackoverflow.com/q/1732348' }]);
    expect(inspectUrl(sources, so.crawlId, so.ids[0]!, false).names.canonical).toMatchObject({ url: 'https://stackoverflow.com/questions/1732348', source: 'siteRule', urlId: null });
    const blocked = inspectUrl(sources, crawlId, ids[3]!, true);
    expect(blocked.robots).toEqual({ verdict: 'blocked', matchedLine: null, message: 'robots.txt disallows http://a.test/private/x.html for crawlbench' });
    expect(blocked.response).toMatchObject({ errorCode: 'ROBOTS_DISALLOWED', status: null, headers: null });
    expect(blocked.timeline.at(-1)).toMatchObject({ step: 'failed' });
    expect(() => inspectUrl(sources, crawlId, 9999, false)).toThrow(expect.objectContaining({ code: 'URL_NOT_FOUND' }));
  });

  it('shows the version template the crawl stored for the URL, and offers exclusions that fit (not the seed’s domain, not a page extension)', () => {
    const { crawlId, ids } = insertCrawl(db, [
      { url: 'http://docs.test/3.12/library/os.html' },
      { url: 'http://docs.test/3.11/library/os.html', from: 1 },
      { url: 'http://docs.test/3.12/library/sys.html', from: 1 },
      { url: 'http://cdn.test/files/Report.PDF', from: 1 },
    ]);
    // The crawl's writer indexes URLs as it stores them; these rows were written directly.
    new VersionIndex(db, crawlId).catchUp();
    const docs = inspectUrl(sources, crawlId, ids[0]!, false);
    expect(docs.names.versionTemplate).toEqual({ template: 'http://docs.test/%s/library/os.html', versions: ['3.11', '3.12'] });
    expect(docs.exclusions).toEqual([]);
    expect(inspectUrl(sources, crawlId, ids[2]!, false).names.versionTemplate).toBeNull();
    // Numbered pages are not versions.
    const paged = insertCrawl(db, [{ url: 'http://p.test/chain/1' }, { url: 'http://p.test/chain/2' }]);
    new VersionIndex(db, paged.crawlId).catchUp();
    expect(inspectUrl(sources, paged.crawlId, paged.ids[0]!, false).names.versionTemplate).toBeNull();
    expect(inspectUrl(sources, crawlId, ids[3]!, false).exclusions.map((option) => [option.rule, option.value])).toEqual([
      ['ignored-extension', 'pdf'],
      ['exclude-domains', 'cdn.test'],
    ]);
  });

  it('tells the timeline from the stored times: the wait in the frontier, the retry and its reason, the commit; a blocked URL quotes its robots.txt line', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/slow', from: 1, depth: 1 }, { url: 'http://a.test/private/x', from: 1, depth: 1 }]);
    const [, slow, secret] = ids as [number, number, number];
    db.prepare(`UPDATE urls SET enqueued_at_ms = 1000, state = 'done', http_status = 200, fetched_at_ms = 9000, attempts = 2, claimed_at_ms = 8000, committed_at_ms = 9500, retry_reason = 'TIMEOUT: no answer in 30 s' WHERE id = ?`).run(slow);
    db.prepare(`UPDATE urls SET enqueued_at_ms = 1000, state = 'blocked', error_code = 'ROBOTS_DISALLOWED', error_reason = 'robots.txt disallows it', attempts = 1, claimed_at_ms = 2200, committed_at_ms = 2300, robots_line = '2: Disallow: /private/' WHERE id = ?`).run(secret);
    const retried = inspectUrl(sources, crawlId, slow, false);
    expect(retried.timeline.map((step) => [step.step, step.atMs])).toEqual([
      ['discovered', 1000],
      ['claimed', 8000],
      ['fetched', 9000],
      ['committed', 9500],
    ]);
    expect(retried.timeline[1]!.detail).toBe('Claimed for fetching 2 times (1 retry; last retried after TIMEOUT: no answer in 30 s)');
    const blocked = inspectUrl(sources, crawlId, secret, false);
    expect(blocked.robots).toMatchObject({ verdict: 'blocked', matchedLine: '2: Disallow: /private/' });
    expect(blocked.timeline[1]!.detail).toBe('Claimed for fetching 1 time, after 1.2 s in the frontier');
    expect(blocked.timeline.at(-1)).toMatchObject({ step: 'committed', atMs: 2300 });
  });

  it('lists outlinks refused by a rule and counts them', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }]);
    link(crawlId, ids[0]!, 'mailto:x@a.test', null, 'a', 'protocol');
    link(crawlId, ids[0]!, 'http://elsewhere.test/', null, 'a', 'scope');
    const outlinks = inspectUrl(sources, crawlId, ids[0]!, false).outlinks;
    expect(outlinks).toMatchObject({ total: 2, refused: 2 });
    expect(outlinks.rows.map((row) => row.refusedBy)).toEqual(['protocol', 'scope']);
  });
});

describe('actions', () => {
  it('re-fetch needs a running crawl and says so plainly', async () => {
    await expect(refetchUrl(fakeControl(false), 1, 2, 'http://a.test/')).rejects.toMatchObject({ code: 'CRAWL_NOT_RUNNING', message: 'Crawl 1 is not running: resume it, then re-fetch this URL.' });
    const control = fakeControl(true);
    expect(await refetchUrl(control, 1, 2, 'http://a.test/')).toMatchObject({ outcome: 'queued' });
    expect(control.refetch).toHaveBeenCalledWith(1, 2);
  });

  it('exclude adds the extension to a stopped crawl’s settings, and restarts a running crawl with the domain excluded', async () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://cdn.test/x.pdf', from: 1 }], { ignoredExtensions: 'zip' });
    const stopped = fakeControl(false);
    const answer = await excludeLikeUrl(sources, stopped, crawlId, ids[1]!, 'ignored-extension');
    expect(answer).toMatchObject({ rule: 'ignored-extension', value: 'pdf', restarted: false });
    expect(answer.message).toContain('It applies when the crawl is resumed');
    expect(sources.crawls.getCrawl(crawlId).settings.ignoredExtensions).toBe('zip|pdf');
    // Added once: the option is gone now.
    await expect(excludeLikeUrl(sources, stopped, crawlId, ids[1]!, 'ignored-extension')).rejects.toMatchObject({ code: 'EXCLUSION_NOT_APPLICABLE' });

    const running = fakeControl(true);
    const domain = await excludeLikeUrl(sources, running, crawlId, ids[1]!, 'exclude-domains');
    expect(domain).toMatchObject({ value: 'cdn.test', restarted: true });
    expect(running.calls).toEqual(['stop', 'whenStopped', 'resume {"excludeDomains":["cdn.test"]}']);
    // The seed's own domain is never offered.
    await expect(excludeLikeUrl(sources, running, crawlId, ids[0]!, 'exclude-domains')).rejects.toMatchObject({ code: 'EXCLUSION_NOT_APPLICABLE' });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { exportCommand } from '../../cli/commands/export';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlFixtures, fixtureOverrides } from './harness';
import { CrawlService } from '../../app/services/crawl-service';
import { ExportService } from '../../app/services/export-service';
import { ExportQueries } from '../../engine/store/sqlite/queries/export-queries';
import { PagesQueries } from '../../engine/store/sqlite/queries/page-queries';
import { inspectUrl } from '../../app/services/inspector-service';
import { CrawlReader } from '../../engine/store/sqlite/crawl-repository';
import { DuplicateQueries } from '../../engine/store/sqlite/queries/duplicate-queries';
import { InspectorQueries } from '../../engine/store/sqlite/queries/inspector-queries';
import { VersionQueries } from '../../engine/store/sqlite/queries/version-queries';
import { groupCanonicalContext } from '../../app/services/canonical-context';
import type { SitemapFilter } from '../../shared/types/sitemaps';
import { PROFILES } from '../../shared/url/profiles';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { WritableDB } from '../../engine/store/sqlite/database';
import type { CrawlSettings, CrawlSummary } from '../../shared/types/crawl';
import { urlSourcesOf } from '../../shared/types/url-sources';
import { startFixtureServer, type FixtureRequest, type FixtureServer } from '../../testweb/fixture-server';
import { SITEMAPS_SITES } from '../../testweb/scope-sites/sitemaps';

/**
 * Issue 12 part 1: sitemaps found through robots.txt and the /sitemap.xml probe, read through an
 * index and a gzipped child, their URLs crawled with source `sitemap`; a malformed sitemap is an
 * error of its own and the crawl goes on; `sitemaps: 'off'` fetches none.
 */
let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer(SITEMAPS_SITES);
});
afterAll(async () => {
  await fixtures?.stop();
});

interface Crawled {
  db: WritableDB;
  crawlId: number;
  summary: CrawlSummary;
  requests: FixtureRequest[];
  requested(host: string): string[];
  url(href: string): { id: number; state: string; code: string | null; status: number | null; depth: number; sources: string[] } | undefined;
  sitemap(href: string): Record<string, unknown> | undefined;
}

/** The sitemap report as `crawlbench export --what sitemap-report` writes it (JSON lines), parsed. */
async function sitemapReport(c: Crawled): Promise<{ url: string; finding: string; reason: string; canonical: string | null; sitemap: string }[]> {
  const service = new ExportService(
    { queries: () => new ExportQueries(c.db), profileOf: () => PROFILES.standard, versions: () => new VersionQueries(c.db), canonicalContextOf: () => groupCanonicalContext({}, PROFILES.standard) },
    () => undefined,
    { pageSize: 3 },
  );
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  await service.exportToStream(out, c.crawlId, 'sitemapReport', 'jsonl');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { url: string; finding: string; reason: string; canonical: string | null; sitemap: string });
}

async function crawl(seeds: string[], settings: Partial<CrawlSettings> = {}): Promise<Crawled> {
  const { db, crawlId, summary, requests } = await crawlFixtures(fixtures, seeds, settings);
  return {
    db,
    crawlId,
    summary,
    requests,
    requested: (host) => requests.filter((r) => r.host === host).map((r) => r.path),
    url: (href) => {
      const row = db.prepare(`SELECT id, state, error_code AS code, http_status AS status, depth, sources FROM urls WHERE crawl_id = ? AND url = ?`).get(crawlId, href) as
        | { id: number; state: string; code: string | null; status: number | null; depth: number; sources: number }
        | undefined;
      return row && { ...row, sources: urlSourcesOf(row.sources) };
    },
    sitemap: (href) =>
      db
        .prepare(
          `SELECT s.found_via AS foundVia, p.url AS parent, s.kind, s.http_status AS status, s.gzipped, s.entries, s.urls_refused AS refused, s.error_code AS code, s.error_message AS message,
                  (SELECT COUNT(*) FROM sitemap_urls su WHERE su.sitemap_id = s.id) AS listed
           FROM sitemaps s LEFT JOIN sitemaps p ON p.id = s.parent_id WHERE s.crawl_id = ? AND s.url = ?`,
        )
        .get(crawlId, href) as Record<string, unknown> | undefined,
  };
}

describe('sitemaps', () => {
  it('reads robots.txt Sitemap: → index → gzipped child; the orphan is fetched with source sitemap only', async () => {
    const c = await crawl(['http://sitemaps.test/']);
    expect(c.summary.status).toBe('finished');
    const requested = c.requested('sitemaps.test');
    expect(requested).toEqual(expect.arrayContaining(['/robots.txt', '/sitemap-index.xml', '/sitemap-pages.xml.gz', '/sitemap.xml', '/orphan.html']));
    // robots.txt disallows the second child sitemap: never requested, recorded as refused.
    expect(requested).not.toContain('/private/sitemap-hidden.xml');
    expect(requested.filter((path) => path === '/sitemap-pages.xml.gz')).toHaveLength(1);
    expect(requested.indexOf('/robots.txt')).toBeLessThan(requested.indexOf('/sitemap-index.xml'));

    expect(c.url('http://sitemaps.test/orphan.html')).toMatchObject({ state: 'done', status: 200, depth: 1, sources: ['sitemap'] });
    expect(c.url('http://sitemaps.test/')!.sources).toEqual(['seed', 'link', 'sitemap']);
    expect(c.url('http://sitemaps.test/about.html')!.sources).toEqual(['link', 'sitemap', 'redirect']);
    expect(c.url('http://sitemaps.test/missing.html')).toMatchObject({ state: 'error', code: 'HTTP_404', sources: ['sitemap'] });
    expect(c.url('http://sitemaps.test/old-page')).toMatchObject({ state: 'done', status: 301, sources: ['sitemap'] });
    // Listed on another host: the link rules (scope host) refuse it as they would a link.
    expect(c.url('http://elsewhere.test/listed-offsite.html')).toBeUndefined();

    expect(c.sitemap('http://sitemaps.test/sitemap-index.xml')).toMatchObject({ foundVia: 'robots', parent: null, kind: 'sitemapindex', status: 200, entries: 2, code: null, listed: 0 });
    expect(c.sitemap('http://sitemaps.test/sitemap-pages.xml.gz')).toMatchObject({ foundVia: 'index', parent: 'http://sitemaps.test/sitemap-index.xml', kind: 'urlset', gzipped: 1, entries: 10, refused: 1, code: null, listed: 9 });
    expect(c.sitemap('http://sitemaps.test/private/sitemap-hidden.xml')).toMatchObject({ foundVia: 'index', status: null, code: 'ROBOTS_DISALLOWED' });
    expect(c.sitemap('http://sitemaps.test/sitemap.xml')).toMatchObject({ foundVia: 'probe', status: 404, code: 'HTTP_404' });

    const report = await sitemapReport(c);
    const child = 'http://sitemaps.test/sitemap-pages.xml.gz';
    // Sitemap errors come first; the /sitemap.xml probe's 404 is no error (the host has none there).
    expect(report.filter((row) => row.finding === 'sitemap-error').map((row) => [row.url, row.reason.split(':')[0], row.sitemap])).toEqual([
      ['http://sitemaps.test/private/sitemap-hidden.xml', 'ROBOTS_DISALLOWED', 'http://sitemaps.test/sitemap-index.xml'],
    ]);
    expect(report[0]!.finding).toBe('sitemap-error');
    expect(report.filter((row) => row.finding === 'orphan').map((row) => [row.url, row.sitemap])).toEqual([
      ['http://sitemaps.test/orphan.html', child],
      ['http://sitemaps.test/old-page', child],
      ['http://sitemaps.test/missing.html', child],
      ['http://sitemaps.test/about-copy.html', child],
      ['http://sitemaps.test/private/listed-blocked.html', child],
    ]);
    const notIndexable = Object.fromEntries(report.filter((row) => row.finding === 'not-indexable').map((row) => [row.url, row.reason]));
    expect(notIndexable).toEqual({
      'http://sitemaps.test/old-page': 'redirects (301) to http://sitemaps.test/about.html',
      'http://sitemaps.test/missing.html': 'HTTP 404',
      'http://sitemaps.test/noindex.html': 'noindex (meta robots or X-Robots-Tag)',
      'http://sitemaps.test/canonical-elsewhere.html': 'canonicalised to http://sitemaps.test/about.html',
      'http://sitemaps.test/private/listed-blocked.html': 'blocked by robots.txt (2: Disallow: /private/)',
    });
    expect(c.url('http://sitemaps.test/private/listed-blocked.html')).toMatchObject({ state: 'blocked', code: 'ROBOTS_DISALLOWED', sources: ['sitemap'] });
    expect(requested).not.toContain('/private/listed-blocked.html');
    const variants = report.filter((row) => row.finding === 'non-canonical-variant');
    expect(variants.map((row) => [row.url, row.canonical])).toEqual([['http://sitemaps.test/about-copy.html', 'http://sitemaps.test/about.html']]);

    // The Pages table's sitemap filter names the same URLs as the report.
    const pages = new PagesQueries(c.db, { indexWriter: c.db });
    const filtered = (sitemap: SitemapFilter) =>
      pages
        .pages(c.crawlId, { offset: 0, limit: 100, filter: { sitemap }, sort: { column: 'url', direction: 'asc' } })
        .rows.map((row) => row.url)
        .sort();
    expect(filtered('orphan')).toEqual(report.filter((row) => row.finding === 'orphan').map((row) => row.url).sort());
    expect(filtered('listed-not-indexable')).toEqual(Object.keys(notIndexable).sort());
    expect(filtered('listed')).toHaveLength(9);

    // The URL inspector's Sources section.
    const inspect = (href: string) => inspectUrl({ queries: new InspectorQueries(c.db), duplicates: new DuplicateQueries(c.db), crawls: new CrawlReader(c.db), versions: new VersionQueries(c.db) }, c.crawlId, c.url(href)!.id, false).sources;
    expect(inspect('http://sitemaps.test/orphan.html')).toEqual({ sources: ['sitemap'], sitemaps: [{ url: child, lastmod: '2026-11-01', listedAs: null }] });
    expect(inspect('http://sitemaps.test/about.html').sources).toEqual(['link', 'sitemap', 'redirect']);
    c.db.close();
  });

  it('a malformed sitemap is recorded with its coded error and line; the entries before the error are used and the crawl goes on', async () => {
    const c = await crawl(['http://bad-sitemap.test/']);
    expect(c.summary.status).toBe('finished');
    const row = c.sitemap('http://bad-sitemap.test/sitemap.xml');
    expect(row).toMatchObject({ foundVia: 'probe', status: 200, kind: 'urlset', entries: 1, code: 'SITEMAP_MALFORMED', listed: 1 });
    expect(String(row!['message'])).toMatch(/line 4/);
    expect(c.url('http://bad-sitemap.test/listed.html')).toMatchObject({ state: 'done', sources: ['sitemap'] });
    expect(c.url('http://bad-sitemap.test/a.html')).toMatchObject({ state: 'done', sources: ['link'] });
    expect(c.requested('bad-sitemap.test')).not.toContain('/never.html');
    // The report shows it, with where it broke.
    const errors = (await sitemapReport(c)).filter((row) => row.finding === 'sitemap-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ url: 'http://bad-sitemap.test/sitemap.xml', sitemap: null });
    expect(errors[0]!.reason).toMatch(/^SITEMAP_MALFORMED: Not well-formed XML at line 4, column \d+: .* \(1 entries read before it were used\)$/);
    c.db.close();
  });

  it('a resumed crawl does not fetch the sitemaps (nor the robots.txt) it stored before', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const overrides = fixtureOverrides(fixtures);
    const since = fixtures.requests.length;
    const { crawlId, done } = service.start(['http://sitemaps.test/'], { hostOverrides: overrides, closedResolver: true, delayFactor: 0, maxPages: 4 });
    expect((await done).status).toBe('stopped');
    const between = fixtures.requests.length;
    expect((await service.resume(crawlId, { maxPages: 0 }).done).status).toBe('finished');
    const paths = (from: number, to = fixtures.requests.length) => fixtures.requests.slice(from, to).filter((r) => r.host === 'sitemaps.test').map((r) => r.path);
    for (const path of ['/robots.txt', '/sitemap-index.xml', '/sitemap-pages.xml.gz', '/sitemap.xml']) expect(paths(since).filter((p) => p === path), path).toHaveLength(1);
    expect(paths(between)).toContain('/orphan.html');
    expect(paths(between)).not.toContain('/robots.txt');
    db.close();
  });

  it('crawlbench export --what sitemap-report writes the report as CSV from a crawl database', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-sitemaps-'));
    const file = path.join(dir, 'site.db');
    const db = openDatabase(file);
    const overrides = fixtureOverrides(fixtures);
    await new CrawlService(db).start(['http://sitemaps.test/'], { hostOverrides: overrides, closedResolver: true, delayFactor: 0 }).done;
    db.close();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let csv = '';
    stdout.on('data', (chunk: Buffer) => (csv += chunk.toString('utf8')));
    const code = await exportCommand(['--db', file, '--what', 'sitemap-report', '--format', 'csv'], { stdin: new PassThrough(), stdout, stderr });
    expect(code).toBe(0);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('URL id,URL,Finding,Why,Canonical URL,Listed in sitemap,State,HTTP status');
    expect(lines.filter((line) => line.includes(',orphan,'))).toHaveLength(5);
    expect(lines.some((line) => line.includes('http://sitemaps.test/orphan.html,orphan,'))).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sitemaps 'off' fetches no sitemap, and the orphan stays unfound", async () => {
    const c = await crawl(['http://sitemaps.test/'], { sitemaps: 'off' });
    expect(c.summary.status).toBe('finished');
    expect(c.requested('sitemaps.test').filter((path) => /sitemap/.test(path))).toEqual([]);
    expect(c.url('http://sitemaps.test/orphan.html')).toBeUndefined();
    expect(c.db.prepare(`SELECT COUNT(*) FROM sitemaps WHERE crawl_id = ?`).pluck().get(c.crawlId)).toBe(0);
    c.db.close();
  });
});

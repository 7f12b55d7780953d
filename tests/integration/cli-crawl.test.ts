import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { crawlbench, useTestWeb } from './harness';

const testWeb = useTestWeb('cli');

/** Paths of the fetched HTML pages of a crawl database. */
function htmlPages(dbPath: string): string[] {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  const rows = db
    .prepare(`SELECT u.url FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.state = 'done' AND p.content_type LIKE 'text/html%' ORDER BY u.url`)
    .pluck()
    .all() as string[];
  db.close();
  return rows;
}

describe('crawlbench crawl (CLI)', () => {
  it('fetches every HTML page reachable from the docs root, ends by itself, and a second run gives the same page set', () => {
    const runs = [1, 2].map((n) => {
      const db = path.join(testWeb.dir, `docs-${n}.db`);
      const logOffset = fs.statSync(testWeb.web.nginx.accessLog).size;
      const run = crawlbench(['crawl', 'http://docs.python.test/', '--db', db, ...testWeb.web.resolveFlags, '--closed', '--json']);
      expect(run.status, run.stderr).toBe(0);
      // Every URL requested exactly once (nginx's own log).
      const uris = fs.readFileSync(testWeb.web.nginx.accessLog, 'utf8').slice(logOffset).trim().split('\n').map((line) => line.split(' ')[0]!);
      expect(uris.length).toBe(new Set(uris).size);
      const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
      expect(summary).toMatchObject({ frontierLeft: 0, db: path.resolve(db) });
      expect(Object.keys(summary).sort()).toEqual(['blocked', 'crawlId', 'db', 'errors', 'frontierLeft', 'held', 'pagesFetched', 'seconds']);
      return { summary, pages: htmlPages(db) };
    });
    // wget -r on the same nginx finds 526 HTML pages; the crawl also fetches one linked .py file (non-HTML, recorded, not parsed).
    expect(runs[0]!.pages).toHaveLength(526);
    expect(runs[0]!.summary['pagesFetched']).toBe(527);
    // The one error is whatsnew/changelog.html: Debian ships it only gzipped, so nginx answers 404.
    expect(runs[0]!.summary['errors']).toBe(1);
    expect(runs[1]!.pages).toEqual(runs[0]!.pages);
    expect(runs[1]!.summary['pagesFetched']).toBe(runs[0]!.summary['pagesFetched']);
  });

  it('gives a one-line error and exit code 2 for a malformed seed URL', () => {
    const run = crawlbench(['crawl', 'ht!tp://nope', '--db', path.join(testWeb.dir, 'bad.db')]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^crawlbench: INVALID_SEED: Seed "ht!tp:\/\/nope" is not an absolute URL/);
  });

  it('gives a one-line error and exit code 2 for an unwritable database path', () => {
    const run = crawlbench(['crawl', 'http://docs.python.test/', '--db', '/proc/crawlbench/forbidden.db', ...testWeb.web.resolveFlags, '--closed']);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('Cannot open database /proc/crawlbench/forbidden.db');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('gives exit code 2 for an unreachable seed, and in closed mode never looks up an unmapped host', () => {
    const run = crawlbench(['crawl', 'http://unmapped.test/', '--db', path.join(testWeb.dir, 'unmapped.db'), ...testWeb.web.resolveFlags, '--closed', '--json']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/crawlbench: seed unreachable: http:\/\/unmapped\.test\/: HOST_NOT_MAPPED/);
  });

  it('rejects a malformed --resolve value with exit code 2', () => {
    const run = crawlbench(['crawl', 'http://docs.python.test/', '--db', path.join(testWeb.dir, 'r.db'), '--resolve', 'docs.python.test:80:127.0.0.1']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Invalid --resolve');
  });
});

describe('crawlbench crawl obeys robots.txt on the real docs mirror', () => {
  it('never requests a URL robots.txt forbids, and fetches every other page exactly once', async () => {
    const { startNginx } = await import('../../testweb/nginx');
    const site = await startNginx(undefined, { robotsTxt: 'User-agent: *\nDisallow: /whatsnew/\nDisallow: /faq/\n' });
    try {
      const db = path.join(testWeb.dir, 'robots.db');
      const run = crawlbench(['crawl', 'http://docs.python.test/', '--db', db, '--resolve', `docs.python.test=127.0.0.1:${site.port}`, '--closed', '--json']);
      expect(run.status, run.stderr).toBe(0);
      const requests = fs.readFileSync(site.accessLog, 'utf8').trim().split('\n').map((line) => line.split(' ')[0]!);
      expect(requests.filter((uri) => uri.startsWith('/whatsnew/') || uri.startsWith('/faq/'))).toEqual([]);
      const counts = new Map<string, number>();
      for (const uri of requests) counts.set(uri, (counts.get(uri) ?? 0) + 1);
      expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
      expect(counts.get('/robots.txt')).toBe(1);
      const sqlite = new BetterSqlite3(db, { readonly: true });
      const disallowed = sqlite.prepare(`SELECT COUNT(*) FROM urls WHERE state = 'blocked' AND error_code = 'ROBOTS_DISALLOWED' AND robots_line LIKE '_: Disallow: /%'`).pluck().get() as number;
      sqlite.close();
      expect(disallowed).toBeGreaterThan(10);
      // Blocked URLs are counted apart from errors in the summary.
      expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toMatchObject({ blocked: disallowed });
      // Every page fetched is a page the unrestricted crawl fetched, minus the forbidden ones.
      expect(htmlPages(db).length + disallowed).toBeGreaterThanOrEqual(526);
    } finally {
      await site.stop();
    }
  });
});

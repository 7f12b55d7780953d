import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureRequest, type FixtureServer } from '../../testweb/fixture-server';
import { FIXTURE_SITES } from '../../testweb/fixture-sites';
import { REDIRECT_SITES } from '../../testweb/redirect-sites';
import { CLI } from '../integration/harness';
import { reportCase, runMeasured } from './report';

/**
 * Hostile redirects against the real CLI (issue 9, defect 6; issue 11's robots.txt redirect
 * loop): a redirect must not smuggle a fetch past robots.txt or a host's politeness delay, and
 * loops and endless chains must end. Each case prints one report line.
 */
let server: FixtureServer;
let dir: string;
beforeAll(async () => {
  server = await startFixtureServer({ ...REDIRECT_SITES, 'redirects.test': FIXTURE_SITES['redirects.test']! });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-hostile-redirects-'));
});
afterAll(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface CliCrawl {
  code: number | null;
  peakRssMb: number;
  requests: FixtureRequest[];
  /** state, error code and HTTP status of a URL in the crawl's database. */
  url(href: string): { state: string; code: string | null; status: number | null } | undefined;
  stderr: string;
}

async function crawlCli(name: string, seeds: string[], flags: string[] = []): Promise<CliCrawl> {
  const db = path.join(dir, `${name}.db`);
  const resolve = server.hosts.flatMap((host) => ['--resolve', `${host}=127.0.0.1:${server.port}`]);
  const before = server.requests.length;
  // --sitemaps off: these cases compare whole request lists, and a /sitemap.xml probe is not a redirect's business.
  const run = await runMeasured([CLI, 'crawl', ...seeds, '--db', db, ...resolve, '--closed', '--delay-factor', '0', '--json', '--sitemaps', 'off', ...flags], { timeoutMs: 140_000 });
  const requests = server.requests.slice(before);
  const reader = new BetterSqlite3(db, { readonly: true });
  const rows = reader.prepare(`SELECT url, state, error_code AS code, http_status AS status FROM urls`).all() as { url: string; state: string; code: string | null; status: number | null }[];
  reader.close();
  const byUrl = new Map(rows.map((row) => [row.url, { state: row.state, code: row.code, status: row.status }]));
  return { code: run.code, peakRssMb: run.peakRssMb, requests, url: (href) => byUrl.get(href), stderr: run.stderr };
}

const paths = (c: CliCrawl, host: string) => c.requests.filter((r) => r.host === host).map((r) => r.path);

// The old behaviour retried a looping robots.txt for over a minute: room for its line to print.
describe('hostile redirects (real CLI, fixture servers on 127.0.0.1)', { timeout: 150_000 }, () => {
  it('a redirect to a path robots.txt disallows on the same host', async () => {
    const c = await crawlCli('same-host', ['http://hops.test/']);
    const requested = paths(c, 'hops.test').includes('/private/secret.html');
    const target = c.url('http://hops.test/private/secret.html');
    const pass = c.code === 0 && !requested && target?.code === 'ROBOTS_DISALLOWED' && c.url('http://hops.test/to-private')?.status === 302;
    reportCase({ name: 'redirect: 302 to a robots-disallowed path, same host', outcome: `target ${requested ? 'REQUESTED' : 'never requested'}, ${target?.state ?? 'absent'} ${target?.code ?? ''}`.trim(), peakRssMb: c.peakRssMb, verdict: pass ? 'pass' : 'fail' });
    expect(pass, c.stderr).toBe(true);
  });

  it('a redirect to another host obeys that host\'s robots.txt', async () => {
    const c = await crawlCli('other-host', ['http://hops.test/'], ['--scope', 'any']);
    const other = paths(c, 'other-host.test');
    const pass = c.code === 0 && other[0] === '/robots.txt' && other.includes('/page.html') && !other.includes('/private/x.html') && c.url('http://other-host.test/private/x.html')?.code === 'ROBOTS_DISALLOWED';
    reportCase({ name: 'redirect: to another host, its robots.txt disallows the target', outcome: `other host asked for ${other.join(', ')}`, peakRssMb: c.peakRssMb, verdict: pass ? 'pass' : 'fail' });
    expect(pass, c.stderr).toBe(true);
  });

  it('a redirect hop waits the target host\'s politeness delay', async () => {
    const minDelayMs = 400;
    const c = await crawlCli('polite', ['http://polite-a.test/go', 'http://polite-b.test/'], ['--scope', 'any', '--min-delay-ms', String(minDelayMs)]);
    const seen = c.requests.filter((r) => r.host === 'polite-b.test');
    const gaps = seen.slice(1).map((r, i) => r.startedAtMs - seen[i]!.endedAtMs);
    const pass = c.code === 0 && seen.length === 3 && gaps.every((gap) => gap >= minDelayMs - 50);
    reportCase({ name: 'redirect: hop to a host fetched just before (min delay 400 ms)', outcome: `gaps on the target host ${gaps.join(', ')} ms`, peakRssMb: c.peakRssMb, verdict: pass ? 'pass' : 'fail' });
    expect(pass, c.stderr).toBe(true);
  });

  it('a redirect loop and a chain longer than maxRedirects end', async () => {
    const c = await crawlCli('loop-limit', ['http://redirects.test/']);
    const requested = paths(c, 'redirects.test');
    const loop = c.url('http://redirects.test/loop/b');
    const limit = c.url('http://redirects.test/long/11');
    const once = requested.length === new Set(requested).size;
    const pass = c.code === 0 && loop?.code === 'REDIRECT_LOOP' && limit?.code === 'REDIRECT_LIMIT' && !requested.includes('/long/11') && once;
    reportCase({
      name: 'redirect: a two-URL loop, and a 12-hop chain (limit 10)',
      outcome: `/loop/b ${loop?.code ?? 'absent'}, /long/11 ${limit?.code ?? 'absent'} unrequested, ${requested.length} requests, each URL once: ${once}`,
      peakRssMb: c.peakRssMb,
      verdict: pass ? 'pass' : 'fail',
    });
    expect(pass, c.stderr).toBe(true);
  });

  it('a robots.txt redirect loop makes robots.txt unavailable (RFC 9309 §2.3.1.2)', async () => {
    const c = await crawlCli('robots-loop', ['http://robotsloop.test/']);
    const requested = paths(c, 'robotsloop.test');
    const pass = c.code === 0 && requested.join(' ') === '/robots.txt /robots-b.txt / /a.html';
    reportCase({ name: 'robots.txt: redirect loop (/robots.txt <-> /robots-b.txt)', outcome: `treated as unavailable, requests: ${requested.join(' ')}`, peakRssMb: c.peakRssMb, verdict: pass ? 'pass' : 'fail' });
    expect(pass, c.stderr).toBe(true);
  });
});

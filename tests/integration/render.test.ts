/**
 * Issue 14 part 3: JavaScript rendering. `--render auto` renders the fixture web's app shell
 * (spa.test) in the system Chromium: the links its script inserts are found (link kind
 * `rendered`) and crawled, the page whose script never ends fails alone as RENDER_TIMEOUT within
 * its budget, and every request the browser made went through the crawler: the fixture log shows
 * robots.txt asked before the app's script, the disallowed JSON never asked, and no host outside
 * the resolver map. `--render off` finds none of the script-only links. Skipped (saying why)
 * where /usr/bin/chromium is absent (CI installs Debian's chromium).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { crawlbenchAsync } from './harness';
import { CHROMIUM_ARGS } from '../../engine/render/browser-pool';
import { InspectorQueries } from '../../engine/store/sqlite/queries/inspector-queries';
import type { ReadableDB } from '../../engine/store/sqlite/database';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) console.log(`render.test.ts skipped: ${CHROMIUM} is absent (apt-get install chromium)`);

let server: FixtureServer;
let dir: string;
beforeAll(async () => {
  server = await startFixtureServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-render-test-'));
});
afterAll(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Crawl {
  summary: { pagesFetched: number; errors: number; seconds: number };
  db: Database.Database;
  requests: FixtureServer['requests'];
  stderr: string;
}

async function crawl(name: string, extra: string[]): Promise<Crawl> {
  const before = server.requests.length;
  const file = path.join(dir, `${name}.db`);
  const run = await crawlbenchAsync(['crawl', 'http://spa.test/', '--db', file, '--resolve', `spa.test=127.0.0.1:${server.port}`, '--closed', '--json', '--delay-factor', '0', '--sitemaps', 'off', '--threads', '2', ...extra]);
  expect(run.status, run.stderr).toBe(0);
  return { summary: JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Crawl['summary'], db: new Database(file, { readonly: true }), requests: server.requests.slice(before), stderr: run.stderr };
}

const urlsIn = (db: Database.Database, state: string): string[] =>
  (db.prepare(`SELECT url FROM urls WHERE state = ? ORDER BY url`).pluck().all(state) as string[]).map((url) => new URL(url).pathname);

describe.skipIf(!hasChromium)('JavaScript rendering (issue 14 part 3)', () => {
  it('--render auto finds and crawls script-inserted links; the looping page fails alone within its budget; every browser request obeys the resolver and robots.txt', async () => {
    const { summary, db, requests } = await crawl('auto', ['--render', 'auto', '--render-timeout-ms', '3000']);
    try {
      const done = urlsIn(db, 'done');
      expect(done).toEqual(expect.arrayContaining(['/', '/js-only-1.html', '/js-only-2.html', '/js-only-3.html', '/static.html']));
      // The links only the rendered DOM has are their own kind (code 7, `rendered`); the static ones are not repeated.
      const rendered = db
        .prepare(`SELECT t.url, l.anchor_text AS text FROM links l JOIN urls f ON f.id = l.from_url_id JOIN urls t ON t.id = l.to_url_id WHERE l.kind = 7 AND f.url = 'http://spa.test/' ORDER BY t.url`)
        .all() as { url: string; text: string | null }[];
      expect(rendered.map((link) => new URL(link.url).pathname)).toEqual(['/js-only-1.html', '/js-only-2.html', '/js-only-3.html']);
      expect(rendered[0]!.text).toBe('first');

      // The looping page fails alone, with its code, and the crawl went on.
      const failed = db.prepare(`SELECT url, error_code AS code FROM urls WHERE state = 'error'`).all() as { url: string; code: string }[];
      expect(failed).toEqual([{ url: 'http://spa.test/loop.html', code: 'RENDER_TIMEOUT' }]);
      expect(summary.errors).toBe(1);
      // Its answer's Set-Cookie is in the crawl's jar all the same: the server set it.
      expect(fs.readFileSync(`${db.name}.cookies.json`, 'utf8')).toContain('loop-1');
      expect(summary.seconds).toBeLessThan(3 + 20);

      // Render records: the shell rendered (its app root), the static page with plenty of text not.
      const records = db.prepare(`SELECT u.url, r.reason, r.render_ms AS ms, r.blocked_requests AS blocked, r.skipped_requests AS skipped, r.rendered_links AS links FROM page_renders r JOIN urls u ON u.id = r.url_id`).all() as {
        url: string;
        reason: string;
        ms: number;
        blocked: number;
        skipped: number;
        links: number;
      }[];
      expect(records.map((r) => new URL(r.url).pathname)).toEqual(['/']);
      const shell = records[0]!;
      expect(shell).toMatchObject({ reason: 'app-root', links: 3, skipped: 1 });
      // The disallowed JSON and the unmapped host's script.
      expect(shell.blocked).toBe(2);
      expect(shell.ms).toBeGreaterThan(0);
      expect(shell.ms).toBeLessThan(3000);
      // The URL inspector's Rendering section reads the same record.
      const shellId = db.prepare(`SELECT id FROM urls WHERE url = 'http://spa.test/'`).pluck().get() as number;
      expect(new InspectorQueries(db as unknown as ReadableDB).render(shellId)).toMatchObject({ reason: 'app-root', renderedLinks: 3, blockedRequests: 2, skippedRequests: 1 });

      // The fixture log: robots.txt before the app's script, nothing disallowed, no other host, the static page's script never asked.
      const paths = requests.map((r) => `${r.host}${r.path}`);
      expect(new Set(requests.map((r) => r.host))).toEqual(new Set(['spa.test']));
      expect(paths.indexOf('spa.test/robots.txt')).toBeGreaterThanOrEqual(0);
      expect(paths.indexOf('spa.test/robots.txt')).toBeLessThan(paths.indexOf('spa.test/app.js'));
      expect(paths.filter((p) => p.includes('/private/'))).toEqual([]);
      expect(paths).not.toContain('spa.test/static-probe.js');
      expect(paths).not.toContain('spa.test/logo.png');
      // The document was not fetched a second time for rendering: `/` once.
      expect(paths.filter((p) => p === 'spa.test/')).toHaveLength(1);
      // Every request carried the crawler's user agent (the browser's own requests never reached the server).
      expect(new Set(requests.map((r) => r.userAgent.split('/')[0]))).toEqual(new Set(['Crawlbench']));
    } finally {
      db.close();
    }
  });

  it("a rendered page's own requests carry the crawl's cookies: the members' API answers, and the link its script adds is crawled", async () => {
    const file = path.join(dir, 'cookies.db');
    // One request at a time to the host, seeds in order: the login's cookie is in the jar before the app renders.
    const run = await crawlbenchAsync([
      'crawl', 'http://login.test/login', 'http://login.test/app.html', '--db', file, '--resolve', `login.test=127.0.0.1:${server.port}`, '--closed', '--json',
      '--delay-factor', '0', '--sitemaps', 'off', '--per-host', '1', '--render', 'auto', '--render-timeout-ms', '5000',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const db = new Database(file, { readonly: true });
    try {
      const rendered = db
        .prepare(`SELECT t.url FROM links l JOIN urls f ON f.id = l.from_url_id JOIN urls t ON t.id = l.to_url_id WHERE l.kind = 7 AND f.url = 'http://login.test/app.html'`)
        .pluck()
        .all();
      expect(rendered).toEqual(['http://login.test/members-only.html']);
      expect(db.prepare(`SELECT http_status FROM urls WHERE url = 'http://login.test/members-only.html'`).pluck().get()).toBe(200);
    } finally {
      db.close();
    }
  });

  it('--render off finds none of the script-only links', async () => {
    const { db, requests } = await crawl('off', []);
    try {
      const done = urlsIn(db, 'done');
      expect(done).toEqual(['/', '/after-loop.html', '/loop.html', '/static.html']);
      expect(db.prepare(`SELECT count(*) FROM links WHERE kind = 7`).pluck().get()).toBe(0);
      expect(requests.map((r) => r.path)).not.toContain('/app.js');
    } finally {
      db.close();
    }
  });

  it('Chromium as launched reaches no server by itself, loopback included (nothing escapes the routing)', async () => {
    const { chromium } = await import('playwright-core');
    const before = server.requests.length;
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
    try {
      const page = await (await browser.newContext()).newPage();
      for (const url of [`http://127.0.0.1:${server.port}/`, `http://spa.test:${server.port}/`]) {
        await expect(page.goto(url, { timeout: 10_000 })).rejects.toThrow(/ERR_/);
      }
    } finally {
      await browser.close();
    }
    expect(server.requests.slice(before)).toEqual([]);
  });

  it('without a Chromium the crawl does not start: RENDER_UNAVAILABLE, exit 2, nothing fetched', async () => {
    const before = server.requests.length;
    const run = await crawlbenchAsync(['crawl', 'http://spa.test/', '--db', path.join(dir, 'none.db'), '--resolve', `spa.test=127.0.0.1:${server.port}`, '--closed', '--render', 'auto', '--chromium', path.join(dir, 'no-such-chromium')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/RENDER_UNAVAILABLE: Chromium not found at .*no-such-chromium.*--chromium PATH/);
    expect(server.requests.length).toBe(before);
  });
});

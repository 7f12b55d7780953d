/**
 * Issue 14 part 4's cookie jar end to end through the CLI, on the fixture's login.test: a login
 * answers 302 with a session cookie, and the account pages behind it answer 200 only when the
 * crawl sends it back; a cookie for another site's domain is refused; a path-scoped cookie goes to
 * its path only. The jar is kept beside the database (mode 0600), never in it (stored Set-Cookie
 * headers are masked), and a resumed crawl reads it back; `--no-cookie-jar` keeps nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { crawlbenchAsync } from './harness';

let fixtures: FixtureServer;
let dir: string;
beforeAll(async () => {
  fixtures = await startFixtureServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-cookies-'));
});
afterAll(async () => {
  await fixtures?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Each URL's path with its status and title. */
function pages(db: string): Record<string, { status: number | null; title: string | null }> {
  const reader = new BetterSqlite3(db, { readonly: true });
  const rows = reader.prepare(`SELECT u.url, u.http_status AS status, p.title FROM urls u LEFT JOIN pages p ON p.url_id = u.id ORDER BY u.url`).all() as { url: string; status: number | null; title: string | null }[];
  reader.close();
  return Object.fromEntries(rows.map((row) => [new URL(row.url).pathname, { status: row.status, title: row.title }]));
}

const resolve = (db: string) => ['--db', db, '--resolve', `login.test=127.0.0.1:${fixtures.port}`, '--closed', '--json'];
const base = (db: string) => [...resolve(db), '--delay-factor', '0', '--sitemaps', 'off'];

describe('the cookie jar (issue 14 part 4)', () => {
  it('sends the session cookie a login set back to the account pages, by path, and refuses another site\'s cookie', async () => {
    const db = path.join(dir, 'jar.db');
    const run = await crawlbenchAsync(['crawl', 'http://login.test/', ...base(db)]);
    expect(run.status, run.stderr).toBe(0);
    const seen = pages(db);
    expect(seen['/login']?.status).toBe(302);
    expect(seen['/account/']?.status).toBe(200);
    expect(seen['/account/orders.html']?.status).toBe(200);
    // /prefs/ gets both the site-wide sid and its own path's `seen`.
    expect(seen['/prefs/']).toEqual({ status: 200, title: 'Prefs seen,sid' });

    // The jar: beside the database, the owner's alone, with sid and seen but not the foreign cookie.
    const jarFile = `${db}.cookies.json`;
    expect(fs.statSync(jarFile).mode & 0o777).toBe(0o600);
    const kept = fs.readFileSync(jarFile, 'utf8');
    expect(kept).toContain('s-42');
    expect(kept).toContain('"seen"');
    expect(kept).not.toContain('evil');
    // Not in the database: the stored Set-Cookie header says the name and attributes only.
    for (const file of [db, `${db}-wal`].filter((f) => fs.existsSync(f))) expect(fs.readFileSync(file).toString('latin1').includes('s-42'), path.basename(file)).toBe(false);
    const reader = new BetterSqlite3(db, { readonly: true });
    const headers = reader.prepare(`SELECT p.response_headers_json FROM pages p JOIN urls u ON u.id = p.url_id WHERE u.url LIKE '%/login'`).pluck().get() as string;
    reader.close();
    expect(JSON.parse(headers)['set-cookie']).toBe('sid=(masked); Path=/; HttpOnly; SameSite=Lax, seen=(masked); Path=/prefs/');
  });

  it('keeps the jar across a resume: the login in the first run, the account in the second', async () => {
    const db = path.join(dir, 'resume.db');
    const first = await crawlbenchAsync(['crawl', 'http://login.test/login', ...base(db), '--max-pages', '1']);
    expect(first.status, first.stderr).toBe(0);
    expect(pages(db)['/login']?.status).toBe(302);
    expect(pages(db)['/account/']?.status ?? null).toBeNull();
    const resumed = await crawlbenchAsync(['resume', ...resolve(db), '--max-pages', '0']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(pages(db)['/account/']?.status).toBe(200);
    expect(pages(db)['/account/orders.html']?.status).toBe(200);
  });

  it('keeps nothing with --no-cookie-jar: the account answers 403', async () => {
    const db = path.join(dir, 'nojar.db');
    const run = await crawlbenchAsync(['crawl', 'http://login.test/', ...base(db), '--no-cookie-jar']);
    expect(run.status, run.stderr).toBe(0);
    expect(pages(db)['/account/']?.status).toBe(403);
    expect(pages(db)['/prefs/']).toBeUndefined();
    expect(fs.existsSync(`${db}.cookies.json`)).toBe(false);
  });

  it('refuses to resume over a cookies file that is not one, saying what to do', async () => {
    const db = path.join(dir, 'broken.db');
    const first = await crawlbenchAsync(['crawl', 'http://login.test/login', ...base(db), '--max-pages', '1']);
    expect(first.status, first.stderr).toBe(0);
    fs.writeFileSync(`${db}.cookies.json`, '[not json');
    const resumed = await crawlbenchAsync(['resume', ...resolve(db), '--max-pages', '0']);
    expect(resumed.status).not.toBe(0);
    expect(resumed.stderr).toMatch(/COOKIE_JAR_UNREADABLE: .*delete it/);
  });

  it('ends the crawl interrupted, with COOKIE_JAR_WRITE_FAILED, when the jar cannot be kept; a resume then goes on', async () => {
    const db = path.join(dir, 'unwritable.db');
    // A folder where the jar's file goes: every write of it fails.
    fs.mkdirSync(`${db}.cookies.json`);
    const run = await crawlbenchAsync(['crawl', 'http://login.test/', ...base(db)]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/COOKIE_JAR_WRITE_FAILED: Cannot keep the crawl's cookies/);
    const reader = new BetterSqlite3(db, { readonly: true });
    expect(reader.prepare(`SELECT status FROM crawls`).pluck().get()).toBe('interrupted');
    reader.close();
    fs.rmdirSync(`${db}.cookies.json`);
    const resumed = await crawlbenchAsync(['resume', ...resolve(db), '--max-pages', '0']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(pages(db)['/']?.status).toBe(200);
  });
});

/**
 * Issue 14 part 4 end to end through the CLI: Basic auth, a cookie and an API-key header for the
 * fixture's private host, sent through a local forward proxy with its own credentials; the pages
 * behind them answer 200 with the flags and 401/403 without; no secret is in the database (file
 * bytes, settings) or the crawl's output; the secrets file is the owner's alone; a resume finds
 * them there, and refuses to go on when they are gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { startProxyServer, type ProxyServer } from '../../testweb/proxy-server';
import { crawlbenchAsync } from './harness';

let fixtures: FixtureServer;
let proxy: ProxyServer;
let dir: string;
beforeAll(async () => {
  fixtures = await startFixtureServer();
  proxy = await startProxyServer(fixtures.port, 'proxyuser:proxy-pw');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-rules-'));
});
afterAll(async () => {
  await proxy?.stop();
  await fixtures?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const SECRETS = ['s3cret pass', 'letmein', 'k-123', 'proxy-pw'];

function states(db: string): Record<string, number | null> {
  const reader = new BetterSqlite3(db, { readonly: true });
  const rows = reader.prepare(`SELECT url, http_status AS status FROM urls ORDER BY url`).all() as { url: string; status: number | null }[];
  reader.close();
  return Object.fromEntries(rows.map((row) => [new URL(row.url).pathname, row.status]));
}

const resolve = (db: string) => ['--db', db, '--resolve', `private.test=127.0.0.1:${fixtures.port}`, '--closed', '--json'];
const base = (db: string) => [...resolve(db), '--delay-factor', '0', '--sitemaps', 'off'];

describe('request settings per host (issue 14 part 4)', () => {
  it('without them the private pages answer 401 and 403', async () => {
    const db = path.join(dir, 'plain.db');
    const run = await crawlbenchAsync(['crawl', 'http://private.test/', ...base(db)]);
    expect(run.status, run.stderr).toBe(0);
    expect(states(db)).toMatchObject({ '/members/': 401, '/cookie.html': 403, '/api.html': 403 });
  });

  it('sends Basic auth, a cookie and a header through an authenticated proxy; keeps every secret out of the database and the output', async () => {
    const db = path.join(dir, 'private.db');
    const before = proxy.requests.length;
    const flags = ["--auth=private.test=crawler:s3cret pass", '--cookie=private.test=session=letmein', '--header=private.test=X-Api-Key: k-123', `--proxy=private.test=http://proxyuser:proxy-pw@127.0.0.1:${proxy.port}`];
    const run = await crawlbenchAsync(['crawl', 'http://private.test/', ...base(db), '--max-pages', '3', '--threads', '1', ...flags]);
    expect(run.status, run.stderr).toBe(0);
    // Through the proxy, with its credentials.
    const proxied = proxy.requests.slice(before);
    expect(proxied.length).toBeGreaterThan(0);
    expect(new Set(proxied.map((r) => r.proxyAuthorization))).toEqual(new Set([`Basic ${Buffer.from('proxyuser:proxy-pw').toString('base64')}`]));
    // The secrets file: mode 0600, the rules with their secrets; the database: masked rules, no secret anywhere in its bytes.
    const secretsFile = `${db}.secrets.json`;
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(secretsFile, 'utf8')).toContain('s3cret pass');
    const reader = new BetterSqlite3(db, { readonly: true });
    const settings = JSON.parse(reader.prepare(`SELECT settings_json FROM crawls`).pluck().get() as string) as { requestRules: unknown };
    reader.close();
    expect(settings.requestRules).toEqual([{ host: 'private.test', headers: ['x-api-key'], username: 'crawler', cookie: true, proxy: `http://127.0.0.1:${proxy.port}/` }]);
    for (const file of [db, `${db}-wal`].filter((f) => fs.existsSync(f))) {
      const bytes = fs.readFileSync(file).toString('latin1');
      for (const secret of SECRETS) expect(bytes.includes(secret), `${secret} in ${path.basename(file)}`).toBe(false);
    }
    for (const secret of SECRETS) expect(run.stdout + run.stderr).not.toContain(secret);

    // A resume reads the secrets back: the rest of the private pages answer 200.
    const resumed = await crawlbenchAsync(['resume', ...resolve(db), '--max-pages', '0']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(states(db)).toMatchObject({ '/': 200, '/members/': 200, '/members/list.html': 200, '/cookie.html': 200, '/api.html': 200 });

    // Without the secrets file the resume stops, saying what to give.
    fs.rmSync(secretsFile);
    const refused = await crawlbenchAsync(['resume', ...resolve(db), '--retry-errors']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/REQUEST_SECRETS_MISSING: .*private\.test/);
  });

  it('refuses a malformed flag before crawling, with a code', async () => {
    const run = await crawlbenchAsync(['crawl', 'http://private.test/', ...base(path.join(dir, 'bad.db')), '--header=private.test=Host: evil']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/INVALID_REQUEST_RULE/);
  });
});

/**
 * `crawl.start`'s request rules (headers, cookie, Basic auth, proxy per host) through the real
 * dispatcher and services: the payload's checks (the CLI's own), where the secrets are kept, the
 * masked settings the renderer reads, and `crawl.resume` refusing to go on without the secrets.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { insertCrawl } from '../../engine/store/sqlite/queries/test-rows';
import { maskRequestRules, type RequestRuleSecrets } from '../../shared/types/request-rules';
import { startFixtureServer } from '../../testweb/fixture-server';
import { createAppServices, type AppServices } from '../services/app-services';
import { saveRequestSecrets, secretsFileOf } from '../services/request-secrets';
import { value, settled } from '../../tests/support/app-services';

let dir: string;
let dbPath: string;
const open: AppServices[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-rules-ipc-'));
  dbPath = path.join(dir, 'app.db');
});
afterEach(async () => {
  for (const services of open.splice(0)) await services.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** App services over `file`, closed mode with no override: every fetch is refused at once (HOST_NOT_MAPPED), nothing leaves the machine. */
function start(file = dbPath): AppServices {
  const services = createAppServices({ dbPath: file, mode: 'browser', version: 'test', closedResolver: true });
  open.push(services);
  return services;
}



const GOOD: RequestRuleSecrets = { host: 'private.test', headers: { 'X-Api-Key': 'k-123' }, auth: { username: 'crawler', password: 's3cret pass' }, cookie: 'session=letmein', proxy: 'http://proxyuser:proxy-pw@127.0.0.1:3128' };
const SECRETS = ['s3cret pass', 'letmein', 'k-123', 'proxy-pw'];
const SEEDS = ['http://private.test/'];

describe('crawl.start with request rules', () => {
  it('accepts a good rule: the secrets go beside the database (0600), the settings and every answer hold them masked', async () => {
    const services = start();
    const { crawlId } = value<{ crawlId: number }>(await services.dispatch('crawl.start', { seeds: SEEDS, settings: { maxPages: 1 }, requestRules: [GOOD] }));
    await settled(services, crawlId);
    const file = secretsFileOf(dbPath);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      [crawlId]: [{ host: 'private.test', headers: { 'x-api-key': 'k-123' }, auth: { username: 'crawler', password: 's3cret pass' }, cookie: 'session=letmein', proxy: 'http://proxyuser:proxy-pw@127.0.0.1:3128/' }],
    });
    const answers = JSON.stringify([await services.dispatch('crawl.open', { crawlId }), await services.dispatch('crawl.list', {}), await services.dispatch('crawl.getProgress', { crawlId })]);
    for (const secret of SECRETS) expect(answers).not.toContain(secret);
    const opened = value<{ summary: { settings: { requestRules: unknown } } }>(await services.dispatch('crawl.open', { crawlId }));
    expect(opened.summary.settings.requestRules).toEqual([{ host: 'private.test', headers: ['x-api-key'], username: 'crawler', cookie: true, proxy: 'http://127.0.0.1:3128/' }]);
    await services.close();
    open.length = 0;
    for (const f of [dbPath, `${dbPath}-wal`].filter((f) => fs.existsSync(f))) {
      const bytes = fs.readFileSync(f).toString('latin1');
      for (const secret of SECRETS) expect(bytes.includes(secret), `${secret} in ${path.basename(f)}`).toBe(false);
    }
  });

  it.each([
    ['a CR/LF header value', { ...GOOD, headers: { 'x-a': 'one\r\nX-Injected: 1' } }, /^Request rule 1 \(private\.test\), header "x-a": no control characters/],
    ['a reserved header (host)', { ...GOOD, headers: { host: 'evil.test' } }, /header "host": the crawler sets host itself/],
    ['an ftp: proxy', { ...GOOD, proxy: 'ftp://127.0.0.1:21' }, /proxy: the proxy must be an http: or https: URL/],
    ['the host pattern *.', { ...GOOD, host: '*.' }, /^Request rule 1, host: expected an exact host or \*\.suffix: "\*" may only be the whole first label/],
  ])('refuses %s with INVALID_REQUEST_RULE naming the field, before any crawl is made', async (_what, rule, message) => {
    const services = start();
    const result = await services.dispatch('crawl.start', { seeds: SEEDS, requestRules: [rule] });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST_RULE', message: expect.stringMatching(message) } });
    if (!result.ok) for (const secret of SECRETS) expect(result.error.message).not.toContain(secret);
    expect(value<unknown[]>(await services.dispatch('crawl.list', {}))).toEqual([]);
    expect(fs.existsSync(secretsFileOf(dbPath))).toBe(false);
  });

  it('refuses a malformed or oversized list as INVALID_PAYLOAD (the schema\'s bounds)', async () => {
    const services = start();
    const cases: unknown[] = [
      [{ ...GOOD, extra: 1 }],
      [{ ...GOOD, headers: [['x-a', '1']] }],
      [{ ...GOOD, cookie: `a=${'x'.repeat(8192)}` }],
      Array.from({ length: 101 }, (_, i) => ({ ...GOOD, host: `h${i}.test` })),
    ];
    for (const requestRules of cases) {
      expect(await services.dispatch('crawl.start', { seeds: SEEDS, requestRules })).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining('requestRules') } });
    }
  });

  it('replaces masked settings.requestRules a client sends without secrets', async () => {
    const services = start();
    const masked = [{ host: 'private.test', headers: [], username: 'crawler', cookie: false, proxy: null }];
    const { crawlId } = value<{ crawlId: number }>(await services.dispatch('crawl.start', { seeds: SEEDS, settings: { requestRules: masked } }));
    await settled(services, crawlId);
    expect(services.crawls.repositoryForQueries.getCrawl(crawlId).settings.requestRules).toEqual([]);
  });
});

describe('crawl.resume of a crawl with request rules', () => {
  it('resumes with the kept secrets, and refuses with REQUEST_SECRETS_MISSING naming the hosts when they are gone', async () => {
    const services = start();
    const { crawlId } = value<{ crawlId: number }>(await services.dispatch('crawl.start', { seeds: SEEDS, requestRules: [GOOD, { host: '*.cdn.test', headers: {}, auth: null, cookie: 'c=1', proxy: null }] }));
    await settled(services, crawlId);
    value(await services.dispatch('crawl.resume', { crawlId }));
    await settled(services, crawlId);

    fs.rmSync(secretsFileOf(dbPath));
    const refused = await services.dispatch('crawl.resume', { crawlId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'REQUEST_SECRETS_MISSING', message: expect.stringMatching(/for \*\.cdn\.test, private\.test whose secrets are not in .*app\.db\.secrets\.json/) } });
    expect(services.crawls.isRunning(crawlId)).toBe(false);
    // Apply settings resumes too: refused the same way.
    expect(await services.dispatch('crawl.applySettings', { crawlId, settings: { ignoredExtensions: 'zip' } })).toMatchObject({ ok: false, error: { code: 'REQUEST_SECRETS_MISSING' } });
  });

  it('sends the kept credentials: the fixture\'s members pages answer 200', async () => {
    const fixtures = await startFixtureServer();
    try {
      const rules: RequestRuleSecrets[] = [{ host: 'private.test', headers: {}, auth: { username: 'crawler', password: 's3cret pass' }, cookie: 'session=letmein', proxy: null }];
      // A stopped crawl (as the CLI leaves one) with two private pages to go, its secrets beside the file.
      const db = openDatabase(dbPath);
      const hostOverrides = [{ host: 'private.test', address: '127.0.0.1', port: fixtures.port }];
      const { crawlId } = insertCrawl(db, [{ url: 'http://private.test/members/', state: 'pending' }, { url: 'http://private.test/cookie.html', state: 'pending' }], { requestRules: maskRequestRules(rules), hostOverrides, closedResolver: true, sitemaps: 'off', maxDepth: 1 });
      db.close();
      saveRequestSecrets(dbPath, crawlId, rules);
      const services = start();
      value(await services.dispatch('crawl.resume', { crawlId }));
      await settled(services, crawlId);
      const statuses = services.db.prepare(`SELECT url, http_status FROM urls WHERE crawl_id = ? AND url IN ('http://private.test/members/', 'http://private.test/cookie.html') ORDER BY url`).raw().all(crawlId);
      expect(statuses).toEqual([
        ['http://private.test/cookie.html', 200],
        ['http://private.test/members/', 200],
      ]);
    } finally {
      await fixtures.stop();
    }
  });

  it('keeps a memory database\'s secrets in memory only', async () => {
    const before = fs.readdirSync(dir);
    const services = start(':memory:');
    const { crawlId } = value<{ crawlId: number }>(await services.dispatch('crawl.start', { seeds: SEEDS, requestRules: [GOOD] }));
    await settled(services, crawlId);
    expect(fs.readdirSync(dir)).toEqual(before);
    expect(fs.existsSync(secretsFileOf(':memory:'))).toBe(false);
    value(await services.dispatch('crawl.resume', { crawlId }));
    await settled(services, crawlId);
  });

  it('resumes a crawl without rules as before', async () => {
    const services = start();
    const { crawlId } = value<{ crawlId: number }>(await services.dispatch('crawl.start', { seeds: SEEDS }));
    await settled(services, crawlId);
    expect(value(await services.dispatch('crawl.resume', { crawlId }))).toEqual({ crawlId });
    await settled(services, crawlId);
    expect(fs.existsSync(secretsFileOf(dbPath))).toBe(false);
  });
});

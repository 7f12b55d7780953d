/**
 * Wildcard host overrides and the host-not-mapped link rule (issue 15 part 6): one
 * `--resolve '*.test=…'` maps every fixture host, and in closed mode a link to a host no override
 * maps is refused by a rule (counted, stored with its page), never queued, fetched or failed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlService } from '../../app/services/crawl-service';
import { main } from '../../cli/index';
import { runCommandText } from '../../cli/run-command';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { CrawlProgress } from '../../shared/types/crawl';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { LINK_RULE_CODES } from '../../engine/store/sqlite/link-codes';

let fixtures: FixtureServer;
let dir: string;
beforeAll(async () => {
  fixtures = await startFixtureServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-overrides-'));
});
afterAll(async () => {
  await fixtures?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('wildcard host overrides', () => {
  it('one *.test override reaches every seed host in closed mode', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const hosts = ['site.test', 'robots.test', 'dup.test'];
    const since = fixtures.requests.length;
    const { crawlId, done } = service.start(
      hosts.map((host) => `http://${host}/`),
      { hostOverrides: [{ host: '*.test', address: '127.0.0.1', port: fixtures.port }], closedResolver: true, delayFactor: 0 },
    );
    const summary = await done;
    expect(summary.status).toBe('finished');
    expect(new Set(fixtures.requests.slice(since).filter((r) => r.path === '/').map((r) => r.host))).toEqual(new Set(hosts));
    expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND error_code = 'HOST_NOT_MAPPED'`).pluck().get(crawlId)).toBe(0);
    db.close();
  });

  it('crawlbench crawl --resolve "*.test=127.0.0.1:PORT" --closed crawls a fixture host with that one flag', async () => {
    const file = path.join(dir, 'wild.db');
    const run = await runCommandText(main, ['crawl', 'http://site.test/', '--db', file, '--resolve', `*.test=127.0.0.1:${fixtures.port}`, '--closed', '--delay-factor', '0', '--json'], '');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toMatchObject({ frontierLeft: 0, errors: 1 });
    expect((JSON.parse(run.stdout.trim()) as { pagesFetched: number }).pagesFetched).toBeGreaterThanOrEqual(7);
  });

  it('a malformed wildcard is refused before anything starts, with INVALID_RESOLVE naming it', async () => {
    const file = path.join(dir, 'bad.db');
    const run = await runCommandText(main, ['crawl', 'http://site.test/', '--db', file, '--resolve', `site.*.test=127.0.0.1:${fixtures.port}`, '--closed'], '');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`crawlbench: INVALID_RESOLVE: Invalid --resolve "site.*.test=127.0.0.1:${fixtures.port}": "*" may only be the whole first label, as in *.example.test: expected host=address[:port] or *.suffix=address[:port], e.g. docs.python.test=127.0.0.1:8080\n`);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('host-not-mapped', () => {
  it('in closed mode a link to an unmapped host is refused and counted, never queued, requested or failed', async () => {
    const db = openDatabase(':memory:');
    let last: CrawlProgress | null = null;
    const service = new CrawlService(db, {}, { onProgress: (progress) => (last = progress) });
    const since = fixtures.requests.length;
    // Scope any: site.test's link to http://elsewhere.test/ passes every other rule.
    const { crawlId, done } = service.start(['http://site.test/'], { hostOverrides: [{ host: 'site.test', address: '127.0.0.1', port: fixtures.port }], closedResolver: true, scope: 'any', delayFactor: 0 });
    const summary = await done;
    expect(summary).toMatchObject({ status: 'finished', errors: 1 });
    expect(last!.refusedByRule['host-not-mapped']).toBe(1);
    expect(service.progress(crawlId).refusedByRule['host-not-mapped']).toBe(1);
    expect(db.prepare(`SELECT raw_url FROM links WHERE crawl_id = ? AND refused_by = ${LINK_RULE_CODES['host-not-mapped']}`).pluck().all(crawlId)).toEqual(['http://elsewhere.test/']);
    expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND host = 'elsewhere.test'`).pluck().get(crawlId)).toBe(0);
    expect(fixtures.requests.slice(since).filter((r) => r.host !== 'site.test')).toEqual([]);
    db.close();
  });
});

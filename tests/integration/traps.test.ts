/**
 * Crawler-trap detection end to end (issue 12 part 4): a default crawl of three small sites, each
 * with a trap (endless calendar, repeating path segments, faceted-navigation parameter explosion),
 * ends by itself, spends at most 15% of its fetches in the traps (counted from the fixture
 * server's request log), holds only trap URLs, each with its trap and detector; the Python docs
 * mirror crawled with the guard on holds nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlService } from '../../app/services/crawl-service';
import { compileUrlPatterns, listHeldUrls, listTraps, openDatabase } from '../../engine';
import { urlPatternRefusal } from '../../engine/links/url-patterns';
import { readStoredCrawlSettings } from '../../shared/types/crawl-settings';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { startNginx, type NginxSite } from '../../testweb/nginx';
import { DOCS_HOST } from '../../testweb';
import { crawlbench } from './harness';
import { isTrapUrl, PLAIN_PAGES, TRAPS_SITES, trapsRoute } from '../../testweb/scope-sites/traps';

let server: FixtureServer;
let dir: string;
beforeAll(async () => {
  server = await startFixtureServer(TRAPS_SITES, { dynamic: trapsRoute });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-traps-'));
});
afterAll(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const HOSTS = Object.keys(TRAPS_SITES);

describe('crawler traps', () => {
  it('a default crawl of the trap hosts ends by itself, at most 15% of its fetches in traps, holding only trap URLs', { timeout: 120_000 }, async () => {
    const db = openDatabase(path.join(dir, 'traps.db'));
    const service = new CrawlService(db, { hostOverrides: HOSTS.map((host) => ({ host, address: '127.0.0.1', port: server.port })), closedResolver: true });
    const started = Date.now();
    const { crawlId, done } = service.start(HOSTS.map((host) => `http://${host}/`));
    const summary = await done;
    expect(summary.status).toBe('finished');

    const requests = server.requests.filter((request) => HOSTS.includes(request.host));
    const inTraps = requests.filter((request) => isTrapUrl(request.host, request.path));
    const share = inTraps.length / requests.length;
    console.log(`trap fixture: ${requests.length} fetches (${inTraps.length} in traps, ${(share * 100).toFixed(1)}%), ${summary.held} URLs held, ${Date.now() - started} ms`);
    expect(share).toBeLessThanOrEqual(0.15);

    // Every normal page was fetched: the plain list's pages too (a list that ends is no trap).
    const fetched = new Set(requests.map((request) => `${request.host}${request.path}`));
    for (const [host, pages] of Object.entries(TRAPS_SITES)) for (const pagePath of Object.keys(pages)) expect(fetched, `${host}${pagePath}`).toContain(`${host}${pagePath}`);
    for (let page = 2; page <= PLAIN_PAGES; page += 1) expect(fetched).toContain(`facets.test/products?page=${page}`);

    // One trap per host, by the detector that fits it.
    const traps = listTraps(db, crawlId);
    console.log(traps.map((trap) => `  ${trap.host} ${trap.detector} ${trap.template} held ${trap.heldCount}: ${trap.evidence.summary}`).join('\n'));
    expect(Object.fromEntries(traps.map((trap) => [trap.host, trap.detector]))).toEqual({
      'calendar.test': expect.stringMatching(/^(near-identical|counter-sequence)$/),
      'loop.test': 'repeated-segments',
      'facets.test': 'param-explosion',
    });
    for (const trap of traps) {
      expect(trap.state).toBe('suspected');
      expect(trap.heldCount).toBeGreaterThan(0);
      expect(trap.examples.length).toBeGreaterThan(0);
      expect(trap.evidence.observed).toBeGreaterThanOrEqual(trap.evidence.threshold);
    }

    // Every held URL is a trap URL, listed with its trap's detector; the counts agree.
    const held = listHeldUrls(db, crawlId);
    expect(held.length).toBe(summary.held);
    expect(held.length).toBe(traps.reduce((sum, trap) => sum + trap.heldCount, 0));
    for (const url of held) {
      const parsed = new URL(url.url);
      expect(isTrapUrl(parsed.hostname, `${parsed.pathname}${parsed.search}`), url.url).toBe(true);
      expect(traps.find((trap) => trap.id === url.trapId)?.detector).toBe(url.detector);
    }
    expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND state = 'held' AND trap_id IS NULL`).pluck().get(crawlId)).toBe(0);

    // Released (the crawl is over): the loop's held URLs go back to pending, where a resume finds them.
    const loop = traps.find((trap) => trap.host === 'loop.test')!;
    const change = await service.setTrapState(crawlId, loop.id, 'released');
    expect(change.released).toBe(loop.heldCount);
    expect(listTraps(db, crawlId).find((trap) => trap.id === loop.id)).toMatchObject({ state: 'released', heldCount: 0 });
    expect(service.list().find((crawl) => crawl.id === crawlId)!.held).toBe(summary.held - loop.heldCount);
    await expect(service.setTrapState(crawlId, 9999, 'released')).rejects.toMatchObject({ code: 'TRAP_NOT_FOUND' });
    db.close();

    // The CLI: the list as JSON lines, the export, and a permanent exclude by pattern.
    const file = path.join(dir, 'traps.db');
    const listed = crawlbench(['traps', '--db', file, '--json']);
    expect(listed.status).toBe(0);
    const rows = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { host: string; pattern: string; state: string; heldCount: number });
    expect(rows.map((row) => [row.host, row.state])).toEqual(traps.map((trap) => [trap.host, trap.id === loop.id ? 'released' : 'suspected']));
    const exported = crawlbench(['export', '--db', file, '--what', 'traps', '--format', 'csv']);
    expect(exported.status).toBe(0);
    expect(exported.stdout.split('\r\n')[0]).toBe('Trap id,Host,Trap detector,Trap state,URL template,Pattern (regular expression),URLs held,Evidence,Example URLs,Suspected at (UTC)');
    expect(exported.stdout.trim().split('\r\n')).toHaveLength(1 + traps.length);
    const calendar = rows.find((row) => row.host === 'calendar.test')!;
    const excluded = crawlbench(['traps', '--db', file, '--exclude', calendar.pattern]);
    expect(excluded.status).toBe(0);
    expect(excluded.stdout).toMatch(/calendar\.test excluded/);
    // Excluded for good: the pattern is now one of the crawl's exclude rules, and the linear engine takes it.
    expect(excluded.stderr).toMatch(/joins the crawl's --exclude rules/);
    const reread = openDatabase(file, { readonly: true });
    const stored = readStoredCrawlSettings(JSON.parse(reread.prepare(`SELECT settings_json FROM crawls ORDER BY id DESC LIMIT 1`).pluck().get() as string));
    reread.close();
    expect(stored.excludeUrlPatterns).toEqual([calendar.pattern]);
    const patterns = compileUrlPatterns(stored);
    expect(urlPatternRefusal(patterns, 'http://calendar.test/calendar/2040/3')).toBe('exclude-pattern');
    expect(urlPatternRefusal(patterns, 'http://calendar.test/about.html')).toBeNull();
    const missing = crawlbench(['traps', '--db', file, '--release', 'no-such-pattern']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/TRAP_NOT_FOUND/);
  });
});

describe('release in a running crawl', () => {
  it('puts the held URLs back in the queues at once: they are fetched while the crawl runs', { timeout: 120_000 }, async () => {
    const db = openDatabase(path.join(dir, 'live.db'));
    const service = new CrawlService(db, { hostOverrides: [{ host: 'loop.test', address: '127.0.0.1', port: server.port }], closedResolver: true });
    const from = server.requests.length;
    // A politeness floor keeps the run going long enough to act on it.
    const { crawlId, done } = service.start(['http://loop.test/'], { minDelayMs: 150, delayFactor: 0 });
    let trapId: number | undefined;
    for (let waited = 0; trapId === undefined && waited < 30_000; waited += 50) {
      trapId = listTraps(db, crawlId)[0]?.id;
      if (trapId === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(trapId).toBeDefined();
    expect(service.isRunning(crawlId)).toBe(true);
    const held = '/docs/intro/intro/intro/';
    const fetchedHeld = () => server.requests.slice(from).some((request) => request.host === 'loop.test' && request.path === held);
    expect(fetchedHeld()).toBe(false);
    const change = await service.setTrapState(crawlId, trapId!, 'released');
    expect(change.released).toBeGreaterThan(0);
    for (let waited = 0; !fetchedHeld() && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchedHeld()).toBe(true);
    // Released, the loop is endless again: stop it.
    service.stop(crawlId);
    expect((await done).status).toBe('stopped');
    expect(listTraps(db, crawlId)[0]!.state).toBe('released');
    db.close();
  });
});

describe('the same hosts without the guard', () => {
  it('spend most fetches in the traps (the fixture traps are real)', { timeout: 120_000 }, async () => {
    const db = openDatabase(path.join(dir, 'unguarded.db'));
    const service = new CrawlService(db, { hostOverrides: HOSTS.map((host) => ({ host, address: '127.0.0.1', port: server.port })), closedResolver: true });
    const from = server.requests.length;
    const { done } = service.start(
      HOSTS.map((host) => `http://${host}/`),
      { trapGuard: false, maxPages: 200 },
    );
    const summary = await done;
    const requests = server.requests.slice(from).filter((request) => HOSTS.includes(request.host));
    const inTraps = requests.filter((request) => isTrapUrl(request.host, request.path)).length;
    console.log(`without the guard: ${requests.length} fetches, ${inTraps} in traps (${((inTraps / requests.length) * 100).toFixed(1)}%), stopped by maxPages`);
    expect(summary.held).toBe(0);
    expect(inTraps / requests.length).toBeGreaterThan(0.5);
    db.close();
  });
});

describe('no false positive on the Python docs mirror', () => {
  let nginx: NginxSite;
  beforeAll(async () => {
    nginx = await startNginx();
  });
  afterAll(async () => {
    await nginx?.stop();
  });

  it('a crawl of the docs with the trap guard on holds nothing', { timeout: 180_000 }, async () => {
    const db = openDatabase(path.join(dir, 'docs.db'));
    const service = new CrawlService(db, { hostOverrides: [{ host: DOCS_HOST, address: '127.0.0.1', port: nginx.port }], closedResolver: true });
    const { crawlId, done } = service.start([`http://${DOCS_HOST}/`], { threads: 8, maxInFlightPerHost: 8, delayFactor: 0 });
    const summary = await done;
    console.log(`docs mirror: ${summary.fetched} pages fetched, ${summary.held} held, traps ${JSON.stringify(listTraps(db, crawlId).map((trap) => [trap.detector, trap.template]))}`);
    expect(summary.fetched).toBeGreaterThan(400);
    expect(listTraps(db, crawlId)).toEqual([]);
    expect(summary.held).toBe(0);
    db.close();
  });
});

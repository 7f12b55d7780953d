import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CrawlOverview, SiteTreeChildren, UrlAncestry } from '../../shared/types/overview';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { insertOverviewCrawl } from '../../engine/store/sqlite/queries/overview-fixture';
import { createAppServices, type AppServices } from './app-services';
import { OverviewService } from './overview-service';
import { value } from '../../tests/support/app-services';

let dir: string;
let services: AppServices;
let crawlId: number;
let ids: number[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-overview-'));
  const dbPath = path.join(dir, 'app.db');
  const db = openDatabase(dbPath);
  ({ crawlId, ids } = insertOverviewCrawl(db, [
    { url: 'http://a.test/', page: { fetchMs: 10, fetchedAtMs: 1_000 } },
    { url: 'http://a.test/docs/x.html', from: 0, depth: 1, state: 'error', status: 404, errorCode: 'HTTP_404', page: { fetchMs: 30, fetchedAtMs: 2_000 } },
  ]));
  db.close();
  services = createAppServices({ dbPath, mode: 'browser', version: 'test', closedResolver: true });
});
afterEach(async () => {
  await services.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('overview.get, siteTree.children, urls.ancestry over IPC', () => {
  it('answers from the open database', async () => {
    const overview = value<CrawlOverview>(await services.dispatch('overview.get', { crawlId }));
    expect(overview.statusClasses).toMatchObject({ '2xx': 1, '4xx': 1 });
    expect(overview.queryMs).toBeGreaterThanOrEqual(0);
    const hosts = value<SiteTreeChildren>(await services.dispatch('siteTree.children', { crawlId, offset: 0, limit: 10 }));
    expect(hosts.nodes.map((node) => [node.name, node.urls])).toEqual([['a.test', 2]]);
    const docs = value<SiteTreeChildren>(await services.dispatch('siteTree.children', { crawlId, host: 'a.test', pathPrefix: '/docs/', offset: 0, limit: 10 }));
    expect(docs.nodes).toMatchObject([{ name: 'x.html', urlId: ids[1], statusClasses: { '4xx': 1 } }]);
    const ancestry = value<UrlAncestry>(await services.dispatch('urls.ancestry', { crawlId, urlId: ids[1] }));
    expect(ancestry.hops.map((hop) => hop.url)).toEqual(['http://a.test/', 'http://a.test/docs/x.html']);
  });

  it('refuses an unknown crawl or URL with a code', async () => {
    expect(await services.dispatch('overview.get', { crawlId: 99 })).toMatchObject({ ok: false, error: { code: 'CRAWL_NOT_FOUND' } });
    expect(await services.dispatch('siteTree.children', { crawlId: 99, offset: 0, limit: 10 })).toMatchObject({ ok: false, error: { code: 'CRAWL_NOT_FOUND' } });
    expect(await services.dispatch('urls.ancestry', { crawlId, urlId: 999 })).toMatchObject({ ok: false, error: { code: 'URL_NOT_FOUND' } });
  });

  it.each([
    ['overview.get', { crawlId: 0 }],
    ['overview.get', { crawlId: 1, extra: true }],
    ['siteTree.children', { crawlId: 1, offset: 0, limit: 501 }],
    ['siteTree.children', { crawlId: 1, offset: -1, limit: 10 }],
    ['siteTree.children', { crawlId: 1, host: 'a.test', pathPrefix: 'docs/', offset: 0, limit: 10 }],
    ['siteTree.children', { crawlId: 1, host: 'a.test', pathPrefix: '/docs', offset: 0, limit: 10 }],
    ['siteTree.children', { crawlId: 1, pathPrefix: '/docs/', offset: 0, limit: 10 }],
    ['siteTree.children', { crawlId: 1, host: '', offset: 0, limit: 10 }],
    ['urls.ancestry', { crawlId: 1 }],
    ['urls.ancestry', { crawlId: 1, urlId: 1.5 }],
  ])('%s refuses %j with INVALID_PAYLOAD', async (channel, payload) => {
    expect(await services.dispatch(channel, payload)).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
  });
});

describe('OverviewService', () => {
  it('reports how long the overview queries took, by its clock', () => {
    const db = openDatabase(path.join(dir, 'app.db'));
    const ticks = [100, 142.4];
    const service = new OverviewService(db, () => ticks.shift()!);
    expect(service.overview(crawlId).queryMs).toBe(42);
    db.close();
  });
});

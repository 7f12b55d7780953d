import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PageListRow } from '../../shared/types/pages';
import type { RowPage } from '../../shared/types/crawl';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { insertCrawl } from '../../engine/store/sqlite/queries/test-rows';
import { createAppServices, type AppServices } from './app-services';
import { insertLink } from '../../engine/store/sqlite/queries/test-rows';

let dir: string;
let services: AppServices;
let crawlId: number;
let ids: number[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-pages-'));
  const dbPath = path.join(dir, 'app.db');
  const db = openDatabase(dbPath);
  ({ crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/x', depth: 1 }, { url: 'http://a.test/y', depth: 1, state: 'pending' }]));
  db.close();
  services = createAppServices({ dbPath, mode: 'browser', version: 'test', closedResolver: true });
});
afterEach(async () => {
  await services.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const query = { offset: 0, limit: 50, filter: {}, sort: { column: 'inlinks', direction: 'desc' } as const };

describe('pages.query over IPC', () => {
  it('answers a page with the total, counting links stored since the last query', async () => {
    const first = await services.dispatch('pages.query', { crawlId, ...query });
    expect(first.ok && (first.value as RowPage<PageListRow>).rows.map((row) => [row.url, row.inlinks])).toEqual([
      ['http://a.test/', 0],
      ['http://a.test/x', 0],
    ]);
    insertLink(services.db, crawlId, { fromUrlId: ids[0]!, rawUrl: '/x', toUrlId: ids[1]! });
    const second = await services.dispatch('pages.query', { crawlId, ...query });
    expect(second.ok && second.value).toMatchObject({ total: 2, offset: 0, rows: [{ url: 'http://a.test/x', inlinks: 1 }, { url: 'http://a.test/', outlinks: 1 }] });
  });

  it("takes the Overview's click-through filters", async () => {
    const page = await services.dispatch('pages.query', { crawlId, ...query, filter: { depthAtLeast: 1, responseMsAtLeast: 0, fetchedAtMsBelow: Date.now() } });
    expect(page.ok && (page.value as RowPage<PageListRow>).rows.map((row) => row.url)).toEqual([]);
    const deep = await services.dispatch('pages.query', { crawlId, ...query, filter: { depthAtLeast: 1 } });
    expect(deep.ok && (deep.value as RowPage<PageListRow>).rows.map((row) => row.url)).toEqual(['http://a.test/x']);
  });

  it('refuses an invalid regex with its code, and out-of-bounds requests as INVALID_PAYLOAD', async () => {
    expect(await services.dispatch('pages.query', { crawlId, ...query, filter: { urlContains: '([a-z]', urlRegex: true } })).toMatchObject({ ok: false, error: { code: 'INVALID_URL_REGEX' } });
    for (const bad of [
      { ...query, limit: 5000 },
      { ...query, sort: { column: 'secret', direction: 'asc' } },
      { ...query, filter: { status: '6xx' } },
      { ...query, filter: { pathPrefix: 'no-slash' } },
      { ...query, filter: { urlContains: 'x'.repeat(5000) } },
      { ...query, filter: { depth: -1 } },
      { ...query, filter: { responseMsAtLeast: -5 } },
      { ...query, filter: { withoutValue: 'title' } },
    ]) {
      expect(await services.dispatch('pages.query', { crawlId, ...bad })).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    }
  });
});

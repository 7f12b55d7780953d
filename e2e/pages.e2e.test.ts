import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamicRoute, FIXTURE_SITES } from '../testweb/fixture-sites';
import { openTab, readDatabase, screenshot, startCrawl, useWorkbench, waitForStatus } from './helpers/workbench';

const workbench = useWorkbench();
let page: Page;
const SITE = 'site.test';

beforeAll(async () => {
  page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(workbench.serve.url);
});

let crawled: Promise<void> | null = null;
/** Crawls site.test (a known page set with a redirect and a 404) once and opens Pages. */
function crawlSite(): Promise<void> {
  crawled ??= (async () => {
    await startCrawl(page, [`http://${SITE}/`]);
    await waitForStatus(page, 'finished', 60_000);
    await openTab(page, 'Pages');
  })();
  return crawled;
}

const table = () => page.getByRole('table', { name: 'Pages' });

/** Cell texts of the Pages table's body rows, by column heading. */
async function column(heading: string): Promise<string[]> {
  const headers = await table().getByRole('columnheader').allTextContents();
  const index = headers.findIndex((text) => text.replace(/[▲▼]/g, '').trim() === heading);
  expect(index, `column ${heading} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  const rows = (await table().getByRole('row').all()).slice(1);
  return Promise.all(rows.map(async (row) => (await row.getByRole('cell').nth(index).textContent()) ?? ''));
}

/** The crawl's response times from its database (ms), largest first. */
function storedResponseTimesDesc(): number[] {
  return readDatabase(workbench.serve.dbPath, (db) =>
    db.prepare(`SELECT p.fetch_ms FROM pages p JOIN urls u ON u.id = p.url_id WHERE u.state IN ('done', 'error') ORDER BY p.fetch_ms DESC`).pluck().all() as number[],
  );
}

describe('Pages table on the fixture web', () => {
  it('sorts by Response time, largest first and then smallest first, with aria-sort on the header', async () => {
    await crawlSite();
    const header = table().getByRole('columnheader', { name: /Response time/ });
    await expect.poll(async () => (await column('URL')).length, { timeout: 10_000 }).toBeGreaterThan(3);
    await header.getByRole('button').click();
    await expect.poll(async () => header.getAttribute('aria-sort')).toBe('descending');
    const expected = storedResponseTimesDesc();
    const shown = async () => (await column('Response time')).filter((text) => text !== '').map((text) => Number.parseInt(text, 10));
    await expect.poll(shown, { timeout: 10_000 }).toEqual(expected);

    await header.getByRole('button').click();
    await expect.poll(async () => header.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(shown, { timeout: 10_000 }).toEqual([...expected].reverse());
  });

  it('Status 4xx shows exactly the fixture URLs that have no route on their host', async () => {
    await crawlSite();
    const fetched = readDatabase(workbench.serve.dbPath, (db) => db.prepare(`SELECT url FROM urls WHERE state IN ('done', 'error') AND http_status IS NOT NULL`).pluck().all() as string[]);
    // The fixture server answers 404 to every path its host has no route for.
    const missing = fetched.filter((url) => {
      const { hostname, pathname } = new URL(url);
      return FIXTURE_SITES[hostname]?.[pathname] === undefined && dynamicRoute(hostname, pathname) === undefined;
    });
    expect(missing.length).toBeGreaterThan(0);
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption({ label: '4xx' });
    await expect.poll(async () => (await column('URL')).sort(), { timeout: 10_000 }).toEqual([...missing].sort());
    expect(await column('Status')).toEqual(missing.map(() => '404'));
    expect((await column('Error'))[0]).toContain('HTTP_404');
    await expect.poll(async () => page.getByTestId('pages-total').textContent()).toBe(`${missing.length} ${missing.length === 1 ? 'page' : 'pages'}`);

    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption({ label: 'All' });
    await expect.poll(async () => (await column('URL')).length, { timeout: 10_000 }).toBeGreaterThan(missing.length);
    await screenshot(page, 'pages-table');
  });

  it('an invalid regex is refused next to the field, and a valid one filters', async () => {
    await crawlSite();
    await page.getByLabel('Regex').check();
    await page.getByLabel('URL contains').fill('docs/(');
    await expect.poll(async () => page.locator('#pages-url-error').textContent(), { timeout: 10_000 }).toContain('Not a valid regular expression');
    await page.getByLabel('URL contains').fill('/docs/.*\\.html$');
    await expect.poll(async () => column('URL'), { timeout: 10_000 }).toEqual([`http://${SITE}/docs/guide/intro.html`]);
    expect(await page.locator('#pages-url-error').count()).toBe(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
  });
});

/**
 * Issue 14 parts 2 and 7 in the workbench (browser mode, Debian Chromium): the Compare view over
 * two crawls of a site with known changes between them (a page retitled, one gone, one new) and
 * spelling noise (a tracking parameter) that must make no phantom add or remove; the Pages table's
 * extracted columns after a crawl of the fixture shop with an extractor; and a re-run of edited
 * extractors from the Pages view, refused with the line named when one does not read, then run
 * with its progress bar reaching 100% and the columns showing the new values.
 */
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../testweb/fixture-server';
import { FIXTURE_SITES, html, sendHtml, type Handler } from '../testweb/fixture-sites';
import { CHROMIUM, CHROMIUM_ARGS, startServe, type ServeProcess } from './helpers/serve';
import { openTab, screenshot, startCrawl, waitForStatus } from './helpers/workbench';

const HOST = 'compare.test';
/** Which version of compare.test the fixture server answers with: 1 for the first crawl, 2 for the second. */
let version = 1;

const page = (title: () => string, body: () => string): Handler => (_request, response) => sendHtml(response, html(title(), body()));

/**
 * Version 1 links /gone.html; version 2 links /new.html instead (with the same anchor text: the home
 * page's text stays the same), retitles /pricing.html and links /about.html through a tracking parameter.
 */
const SITE: Record<string, Handler> = {
  '/': page(
    () => 'Home',
    () =>
      version === 1
        ? '<a href="/pricing.html">Pricing</a> <a href="/about.html">About</a> <a href="/gone.html">More</a>'
        : '<a href="/pricing.html">Pricing</a> <a href="/about.html?utm_source=newsletter">About</a> <a href="/new.html">More</a>',
  ),
  '/pricing.html': page(
    () => (version === 1 ? 'Pricing' : 'Pricing and plans'),
    () => '<p>Plans and prices.</p>',
  ),
  '/about.html': page(
    () => 'About',
    () => '<p>About us.</p>',
  ),
  '/gone.html': page(
    () => 'Gone soon',
    () => '<p>This page goes away.</p>',
  ),
  '/new.html': page(
    () => 'New page',
    () => '<p>This page is new.</p>',
  ),
};

let fixtures: FixtureServer;
let serve: ServeProcess;
let browser: Browser;
let tab: Page;

beforeAll(async () => {
  fixtures = await startFixtureServer({ [HOST]: SITE, 'products.test': FIXTURE_SITES['products.test']! });
  serve = await startServe(['--resolve', `${HOST}=127.0.0.1:${fixtures.port}`, '--resolve', `products.test=127.0.0.1:${fixtures.port}`, '--closed']);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await tab.goto(serve.url);
});

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await fixtures?.stop();
});

/**
 * Starts crawl number `crawlId` of the database from the Crawl view and waits for its end (the
 * status counter reads the previous crawl's "finished" until this one is open).
 */
async function crawlToEnd(seeds: string[], crawlId: number): Promise<void> {
  await startCrawl(tab, seeds);
  await expect.poll(async () => tab.getByTestId('open-crawl').textContent(), { timeout: 10_000 }).toContain(`Crawl #${crawlId} of`);
  await waitForStatus(tab, 'finished', 60_000);
}

/** Cell texts of a table's body rows, by column heading. */
async function column(table: Locator, heading: string): Promise<string[]> {
  const headers = await table.getByRole('columnheader').allTextContents();
  const index = headers.findIndex((text) => text.replace(/[▲▼]/g, '').trim() === heading);
  expect(index, `column ${heading} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  const rows = (await table.getByRole('row').all()).slice(1);
  return Promise.all(rows.map(async (row) => (await row.getByRole('cell').nth(index).textContent()) ?? ''));
}

/** The Pages table's values of an extracted column by URL path (rows with a value only). */
async function extractedByPath(heading: string): Promise<Record<string, string>> {
  const table = tab.getByRole('table', { name: 'Pages' });
  const [urls, values] = [await column(table, 'URL'), await column(table, heading)];
  return Object.fromEntries(urls.map((url, i) => [new URL(url).pathname, values[i]!]).filter(([, value]) => value !== ''));
}

describe('Compare view (issue 14 part 7)', () => {
  it('compares two crawls of a site: the known changes, no phantom adds or removes; a row opens the inspector', async () => {
    version = 1;
    await crawlToEnd([`http://${HOST}/`], 1);
    version = 2;
    await crawlToEnd([`http://${HOST}/`], 2);

    await openTab(tab, 'Compare');
    // The open crawl (the second) is after, the one before it before.
    await expect.poll(async () => tab.getByLabel('Before', { exact: true }).inputValue(), { timeout: 10_000 }).toBe('1');
    expect(await tab.getByLabel('After', { exact: true }).inputValue()).toBe('2');
    await tab.getByRole('button', { name: 'Compare', exact: true }).click();
    await expect.poll(async () => tab.getByTestId('compare-summary').textContent(), { timeout: 10_000 }).toContain('3 changes');

    const count = async (kind: string) => (await tab.getByTestId(`compare-count-${kind}`).textContent())?.replace(kind, '').trim();
    // /about.html?utm_source=… is /about.html: neither added nor removed.
    expect(await count('added')).toBe('1');
    expect(await count('removed')).toBe('1');
    expect(await count('title')).toBe('1');
    expect(await count('status')).toBe('0');
    const table = tab.getByRole('table', { name: 'Changes' });
    await expect.poll(async () => column(table, 'URL'), { timeout: 10_000 }).toEqual([`http://${HOST}/new.html`, `http://${HOST}/gone.html`, `http://${HOST}/pricing.html`]);
    expect(await column(table, 'Change')).toEqual(['added', 'removed', 'title']);

    await tab.getByTestId('compare-count-title').click();
    await expect.poll(async () => column(table, 'URL'), { timeout: 10_000 }).toEqual([`http://${HOST}/pricing.html`]);
    expect(await column(table, 'Before')).toEqual(['Pricing']);
    expect(await column(table, 'After')).toEqual(['Pricing and plans']);
    await screenshot(tab, 'compare');

    await table.getByRole('row').nth(1).click();
    const inspector = tab.getByRole('complementary', { name: 'URL inspector' });
    await expect.poll(async () => ((await inspector.count()) === 0 ? null : inspector.getByTestId('inspector-url').textContent({ timeout: 1_000 }).catch(() => null)), { timeout: 10_000 }).toBe(`http://${HOST}/pricing.html`);
    await inspector.getByRole('button', { name: 'Close inspector' }).click();

    // A file that is not a Crawlbench database is refused with its code, in the form.
    await tab.getByLabel('After crawl from another database file').fill('relative.db');
    await tab.getByRole('button', { name: 'Compare', exact: true }).click();
    await expect.poll(async () => tab.locator('#compare-error').textContent(), { timeout: 10_000 }).toContain('COMPARE_FILE_INVALID');
    await tab.getByLabel('After crawl from another database file').fill(serve.dbPath);
    await tab.getByRole('button', { name: 'Compare', exact: true }).click();
    // The served file is the open database: its newest crawl (2) against crawl 1 again.
    await expect.poll(async () => tab.getByTestId('compare-summary').textContent(), { timeout: 10_000 }).toMatch(/→ after: crawl 2 \(.*3 changes/);
    expect(await tab.locator('#compare-error').count()).toBe(0);
  });
});

describe('extracted columns and re-running extractors (issue 14 part 2)', () => {
  it('shows a column per extractor after a crawl, and a re-run of edited extractors updates it with the progress bar reaching 100%', async () => {
    await openTab(tab, 'Crawl');
    await tab.getByTestId('crawl-settings').evaluate((details) => details.setAttribute('open', ''));
    await tab.getByLabel('Custom extractors').fill('price=css:.price');
    await crawlToEnd(['http://products.test/'], 3);

    await openTab(tab, 'Pages');
    await expect.poll(async () => extractedByPath('price'), { timeout: 10_000 }).toEqual({ '/p/1': '12.50', '/p/2': '30.00', '/p/3': '8.99' });

    await tab.getByText('Extractors (1)').click();
    const lines = tab.getByLabel('Extractors to re-run over the stored pages, one per line');
    expect(await lines.inputValue()).toBe('price=css:.price');
    await lines.fill('price:all=css:.price\nno equals sign');
    await tab.getByRole('button', { name: 'Run extractors' }).click();
    await expect.poll(async () => tab.locator('#extractor-error').textContent(), { timeout: 10_000 }).toMatch(/^INVALID_EXTRACTOR: Line 2: /);

    await lines.fill('price:all=css:.price\nsku=regex:SKU-([0-9]+)');
    await tab.getByRole('button', { name: 'Run extractors' }).click();
    const bar = tab.getByRole('progressbar', { name: 'Extraction progress' });
    await expect.poll(async () => bar.getAttribute('aria-valuenow'), { timeout: 20_000 }).toBe('100');
    await expect.poll(async () => tab.getByTestId('extraction-status').textContent()).toMatch(/^Ran 2 extractors on \d+ pages in [0-9.]+ s, no fetch$/);
    expect(await tab.locator('#extractor-error').count()).toBe(0);
    await expect.poll(async () => extractedByPath('price'), { timeout: 10_000 }).toEqual({ '/p/1': '12.50', '/p/2': '30.00 · 35.00', '/p/3': '8.99' });
    expect(await extractedByPath('sku')).toEqual({ '/p/1': '1001', '/p/2': '1002', '/p/3': '1003' });
    await screenshot(tab, 'pages-extracted');
  });
});

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTab, screenshot, startCrawl, useWorkbench, waitForStatus } from './helpers/workbench';

const workbench = useWorkbench();
let page: Page;

beforeAll(async () => {
  page = await workbench.browser.newPage({ viewport: { width: 1280, height: 1100 } });
  await page.goto(workbench.serve.url);
});

let crawled: Promise<void> | null = null;
/** Crawls site.test once (a known page set with one 404, a redirect, a subdirectory and an offsite link) and opens the Overview. */
function crawlSite(): Promise<void> {
  crawled ??= (async () => {
    await startCrawl(page, ['http://site.test/']);
    await waitForStatus(page, 'finished', 60_000);
    await openTab(page, 'Overview');
  })();
  return crawled;
}

/** Asserts the Pages tab is showing, and that its Status select reads `status` (when given). */
async function expectPagesTab(status: string | null): Promise<void> {
  await expect.poll(async () => page.getByRole('tab', { name: 'Pages', exact: true }).getAttribute('aria-selected'), { timeout: 5_000 }).toBe('true');
  const select = page.getByRole('combobox', { name: 'Status', exact: true });
  if (status !== null) expect(await select.inputValue()).toBe(status);
}

describe('Overview of a finished crawl of site.test', () => {
  it('shows the status classes with the fixture’s one 404, and its 4xx bar opens Pages filtered to 4xx', async () => {
    await crawlSite();
    const statusCodes = page.getByRole('group', { name: 'Status codes' });
    const bar = statusCodes.getByRole('button', { name: /^4xx client error: / });
    await expect.poll(async () => bar.getAttribute('aria-label'), { timeout: 10_000 }).toBe('4xx client error: 1 page, show in Pages');
    // The redirect /old is a 3xx page of its own; the offsite link is refused by scope, in words.
    expect(await statusCodes.getByRole('button', { name: /^3xx redirect: 1 page/ }).count()).toBe(1);
    expect(await page.getByRole('group', { name: 'Links refused by rule' }).getByRole('button', { name: /^outside the crawl scope: \d+ links?, show the Frontier view$/ }).count()).toBe(1);
    // Every chart is there with its axes' titles.
    for (const name of ['Depth', 'Response time', 'Content types', 'Indexability', 'Pages per host']) {
      expect(await page.getByRole('group', { name }).getByRole('button').count(), name).toBeGreaterThan(0);
    }
    expect(await page.getByRole('group', { name: /^Pages per second over the crawl/ }).getByRole('button').count()).toBeGreaterThan(0);
    await screenshot(page, 'overview');

    await bar.click();
    await expectPagesTab('4xx');
  });

  it('expands the site tree by keyboard, shows a page’s crawl tree, and opens a directory in Pages', async () => {
    await crawlSite();
    await openTab(page, 'Overview');
    const tree = page.getByRole('tree', { name: 'Site tree' });
    const host = tree.getByRole('treeitem', { name: /^site\.test, \d+ URLs/ });
    await expect.poll(async () => host.count(), { timeout: 10_000 }).toBe(1);
    expect(await host.getAttribute('aria-expanded')).toBe('false');
    await host.click();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => host.getAttribute('aria-expanded')).toBe('true');
    const docs = tree.getByRole('treeitem', { name: /^docs\/, 2 URLs: 2 2xx$/ });
    await expect.poll(async () => docs.count(), { timeout: 5_000 }).toBe(1);
    expect(await docs.getAttribute('aria-level')).toBe('2');

    // A directory expands the same way, its children one level deeper.
    await docs.click();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => tree.getByRole('treeitem', { name: /^intro\.html|^guide\// }).count(), { timeout: 5_000 }).toBeGreaterThan(0);
    expect(await tree.getByRole('treeitem', { name: /^guide\// }).getAttribute('aria-level')).toBe('3');

    // Down to a page: the crawl tree shows how the crawler reached it from the seed.
    const missing = tree.getByRole('treeitem', { name: /^missing\.html, 1 URL: 1 4xx$/ });
    await missing.click();
    const crawlTree = page.getByRole('list', { name: 'Crawl tree' });
    await expect.poll(async () => crawlTree.getByRole('button').allTextContents(), { timeout: 5_000 }).toEqual(['http://site.test/', 'http://site.test/missing.html']);
    await screenshot(page, 'site-tree');

    await docs.getByText('docs/', { exact: true }).click();
    await expectPagesTab(null);
  });

  it('stays live while a crawl runs: the counters and charts follow its progress with no click', async () => {
    await crawlSite();
    // The calendar trap never ends: its crawl runs until stopped.
    await startCrawl(page, ['http://trap.test/'], { trapGuard: false });
    await openTab(page, 'Overview');
    const pages = page.getByRole('button', { name: /^Pages: [\d,]+, show all in Pages$/ });
    const count = async () => Number((/^Pages: ([\d,]+)/.exec((await pages.getAttribute('aria-label')) ?? '') ?? ['', '0'])[1]!.replace(/,/g, ''));
    await expect.poll(count, { timeout: 10_000 }).toBeGreaterThan(0);
    const first = await count();
    await expect.poll(count, { timeout: 15_000 }).toBeGreaterThan(first);
    // Deeper and deeper months: the depth chart grows bars as the trap goes on.
    await expect.poll(async () => page.getByRole('group', { name: 'Depth' }).getByRole('button').count(), { timeout: 15_000 }).toBeGreaterThan(2);
    await openTab(page, 'Crawl');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitForStatus(page, 'stopped', 30_000);
  });
});

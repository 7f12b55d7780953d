import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTab, readDatabase, screenshot, startCrawl, useWorkbench, waitForStatus } from './helpers/workbench';

const workbench = useWorkbench();
let page: Page;

beforeAll(async () => {
  page = await workbench.browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(workbench.serve.url);
});

let crawled: Promise<void> | null = null;
/** Crawls the fixture site and the redirect chains once (inside a test: expect.poll needs one). */
function crawlFixtures(): Promise<void> {
  crawled ??= (async () => {
    await startCrawl(page, ['http://site.test/', 'http://redirects.test/']);
    await waitForStatus(page, 'finished', 60_000);
  })();
  return crawled;
}

const inspector = (): Locator => page.getByRole('complementary', { name: 'URL inspector' });

/** Opens the URL inspector on `url` from the Frontier view's URL table (filtered to it, then Enter on its row). */
async function inspectFromFrontier(url: string): Promise<void> {
  await openTab(page, 'Frontier');
  await page.getByLabel('URL contains').fill(url);
  // Wait for the filter to apply (every row's URL contains the text), then take the row whose URL
  // cell (the first) is `url`: other rows may name it as "Discovered from".
  const table = page.getByRole('table', { name: 'Frontier URLs' });
  const firstCells = () => table.getByRole('row').evaluateAll((rows) => rows.map((row) => row.querySelector('[role="cell"]')?.textContent ?? null));
  await expect
    .poll(async () => {
      const cells = (await firstCells()).filter((cell) => cell !== null);
      return cells.length > 0 && cells.every((cell) => cell.includes(url)) && cells.includes(url);
    }, { timeout: 10_000 })
    .toBe(true);
  const index = (await firstCells()).indexOf(url);
  await table.getByRole('row').nth(index).focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => ((await inspector().count()) === 0 ? null : inspector().getByTestId('inspector-url').textContent({ timeout: 1_000 }).catch(() => null)), { timeout: 10_000 }).toBe(url);
}

/** Each redirect hop as [status, URL]. */
async function hops(): Promise<string[][]> {
  const items = await inspector().getByRole('list', { name: 'Redirect hops' }).getByRole('listitem').all();
  return Promise.all(items.map(async (item) => [(await item.getByTestId('hop-status').textContent())!.trim(), (await item.locator('.url-text').textContent())!.trim()]));
}

/** Cell texts of a table inside the inspector, header row left out. */
async function tableRows(name: string): Promise<string[][]> {
  const rows = await inspector().getByRole('table', { name }).getByRole('row').all();
  return Promise.all(rows.slice(1).map((row) => row.getByRole('cell').allTextContents()));
}

describe('the URL inspector', () => {
  it('on a redirecting URL shows each hop with its status and Location, and the chain’s end as its canonical URL', async () => {
    await crawlFixtures();
    await inspectFromFrontier('http://redirects.test/chain/1');
    await expect.poll(hops, { timeout: 10_000 }).toEqual([
      ['302', 'http://redirects.test/chain/1'],
      ['307', 'http://redirects.test/chain/2'],
      ['308', 'http://redirects.test/chain/3'],
      ['200', 'http://redirects.test/final.html'],
    ]);
    await expect.poll(async () => inspector().getByRole('list', { name: 'Redirect hops' }).getByRole('listitem').first().textContent()).toContain('Location: http://redirects.test/chain/2');
    expect(await inspector().getByTestId('inspector-canonical').textContent()).toBe('http://redirects.test/final.html');
    expect(await inspector().getByTestId('inspector-canonical-layer').textContent()).toContain('redirect');
    for (const heading of ['Names', 'Sources', 'Response', 'Redirect chain', 'Robots', 'Timeline', 'Inlinks', 'Outlinks', 'Duplicates']) {
      expect(await inspector().getByRole('heading', { name: heading, exact: true }).count()).toBe(1);
    }
    // Where the crawl met it (issue 12): a link on the seed page; the fixture host has no sitemap.
    expect(await inspector().getByTestId('inspector-sources').textContent()).toBe('linked from a crawled page');
    // Both names of the URL, labelled apart: the readable URL and the URL-seen test's key.
    expect(await inspector().getByTestId('inspector-normalized').textContent()).toBe('http://redirects.test/chain/1');
    expect(await inspector().getByTestId('inspector-key').textContent()).toMatch(/^[0-9a-f-]{36}$/);
    await screenshot(page, 'url-inspector-redirect');
  });

  it('inspects a hop by clicking it, and walks back and forward through inspected URLs', async () => {
    await crawlFixtures();
    await inspectFromFrontier('http://redirects.test/chain/1');
    await inspector().getByRole('list', { name: 'Redirect hops' }).getByRole('button', { name: 'http://redirects.test/final.html' }).click();
    await expect.poll(async () => inspector().getByTestId('inspector-url').textContent(), { timeout: 10_000 }).toBe('http://redirects.test/final.html');
    // Seen from its target, the chain is the same, four hops.
    await expect.poll(async () => (await hops()).length, { timeout: 10_000 }).toBe(4);
    await inspector().getByRole('button', { name: 'Back' }).click();
    await expect.poll(async () => inspector().getByTestId('inspector-url').textContent(), { timeout: 10_000 }).toBe('http://redirects.test/chain/1');
    // The first URL inspected: nothing before it, the hop after it.
    expect(await inspector().getByRole('button', { name: 'Back' }).isDisabled()).toBe(true);
    expect(await inspector().getByRole('button', { name: 'Forward' }).isDisabled()).toBe(false);
    await inspector().getByRole('button', { name: 'Forward' }).click();
    await expect.poll(async () => inspector().getByTestId('inspector-url').textContent(), { timeout: 10_000 }).toBe('http://redirects.test/final.html');
    expect(await inspector().getByRole('button', { name: 'Forward' }).isDisabled()).toBe(true);
  });

  it('on a page shows its outlinks, a refused one with the rule that refused it in words', async () => {
    await crawlFixtures();
    await inspectFromFrontier('http://site.test/');
    await expect.poll(async () => (await tableRows('Outlinks')).length, { timeout: 10_000 }).toBeGreaterThan(3);
    const outlinks = await tableRows('Outlinks');
    const byTarget = Object.fromEntries(outlinks.map((cells) => [cells[0], cells[3]]));
    expect(byTarget['mailto:someone@site.test']).toBe('refused: not an http or https link');
    expect(byTarget['http://elsewhere.test/']).toBe('refused: outside the crawl scope');
    expect(byTarget['http://site.test/a.html']).toBe('200');
    // The home page is a seed: no robots refusal, and it was fetched.
    expect(await inspector().getByTestId('inspector-robots').textContent()).toBe('Allowed');
    // The crawl has finished: re-fetching needs it running, and says so.
    await inspector().getByRole('button', { name: 'Re-fetch now' }).click();
    await expect.poll(async () => inspector().getByRole('status').textContent(), { timeout: 5_000 }).toMatch(/^Crawl \d+ is not running: resume it, then re-fetch this URL\.$/);
  });

  it('on a page shows its inlinks with their anchor text', async () => {
    await crawlFixtures();
    await inspectFromFrontier('http://site.test/a.html');
    await expect.poll(async () => (await tableRows('Inlinks')).length, { timeout: 10_000 }).toBeGreaterThan(1);
    const inlinks = (await tableRows('Inlinks')).map((cells) => [cells[0], cells[1]]);
    expect(inlinks).toEqual(expect.arrayContaining([['http://site.test/', 'A'], ['http://site.test/b.html', 'A']]));
  });

  it('shows a page’s stored source on demand, decoded, with its size and digest (issue 14)', async () => {
    await crawlFixtures();
    await inspectFromFrontier('http://site.test/a.html');
    await inspector().getByRole('button', { name: 'Show source' }).click();
    await expect.poll(async () => inspector().getByTestId('page-source').textContent(), { timeout: 10_000 }).toContain('<!doctype html>');
    expect(await inspector().getByTestId('source-size').textContent()).toMatch(/bytes.*compressed/);
  });

  it('Escape closes it and gives focus back to the row that opened it', async () => {
    await crawlFixtures();
    // Closed first, so the row below is the one that opens it.
    await page.keyboard.press('Escape');
    await expect.poll(async () => inspector().count(), { timeout: 5_000 }).toBe(0);
    await inspectFromFrontier('http://site.test/b.html');
    // Its one stored spelling, with the #part spelling of the home page counted there (issue 15: not stored apart).
    await expect.poll(async () => (await tableRows('Spellings')).map((cells) => cells[0]), { timeout: 5_000 }).toEqual(['http://site.test/b.html (also met with a #fragment)']);
    // Opening moves focus into the panel …
    expect(await page.locator(':focus').textContent()).toBe('URL inspector');
    await page.keyboard.press('Escape');
    await expect.poll(async () => inspector().count(), { timeout: 5_000 }).toBe(0);
    // … and closing gives it back to the row.
    expect(await page.locator(':focus').getAttribute('role')).toBe('row');
    expect(await page.locator(':focus').getByRole('cell').first().textContent()).toBe('http://site.test/b.html');
  });

  it('"Exclude URLs like this" adds the file type to the crawl’s ignored extensions and says so (last: it starts another crawl)', async () => {
    await crawlFixtures();
    await startCrawl(page, ['http://files.test/']);
    // The status counter still reads the first crawl's "finished": wait for this crawl's own end in its database.
    const status = () => readDatabase(workbench.serve.dbPath, (db) => db.prepare(`SELECT status FROM crawls WHERE seeds_json LIKE '%files.test%'`).pluck().get());
    await expect.poll(status, { timeout: 60_000, interval: 250 }).toBe('finished');
    await inspectFromFrontier('http://files.test/report.pdf');
    await inspector().getByRole('button', { name: 'Ignore .pdf links' }).click();
    await expect
      .poll(async () => inspector().getByRole('status').textContent(), { timeout: 5_000 })
      .toBe('Added “pdf” to this crawl\'s ignored extensions: links to .pdf files found from now on are refused (URLs already queued stay queued). It applies when the crawl is resumed.');
    // Added once: the inspector reloads without the action.
    await expect.poll(async () => inspector().getByRole('button', { name: 'Ignore .pdf links' }).count(), { timeout: 5_000 }).toBe(0);
  });
});

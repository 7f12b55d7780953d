import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTab, readDatabase, useWorkbench, waitForStatus } from './helpers/workbench';

/**
 * Issue 11's friction items in forms, settings, tables and exports, as a new user meets them:
 * the crawl form (every setting with its CLI flag, remembered, Reset to defaults, Ctrl+Enter,
 * focus on the status), the host table (countdown, sized to its rows), both URL names, rule
 * labels and the preview's examples, the readable TLD warning, and the export panel.
 */
const workbench = useWorkbench();
let page: Page;

beforeAll(async () => {
  page = await workbench.browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(workbench.serve.url);
});

/** Opens the "Crawl settings" section unless it is open. */
async function openCrawlSettings(): Promise<void> {
  if (!(await page.getByLabel('Threads').isVisible())) await page.getByText('Crawl settings').click();
  await expect.poll(async () => page.getByLabel('Threads').isVisible(), { timeout: 10_000 }).toBe(true);
}

const crawlCount = () => readDatabase(workbench.serve.dbPath, (db) => db.prepare('SELECT COUNT(*) FROM crawls').pluck().get() as number);

describe('the crawl form', () => {
  it('shows every setting with its CLI flag and default, remembers changes over a reload, and resets them', async () => {
    await openTab(page, 'Crawl');
    await openCrawlSettings();
    for (const group of ['Scope', 'Limits', 'Politeness', 'Fetching', 'Content']) expect(await page.getByRole('group', { name: group }).isVisible(), group).toBe(true);
    const maxDepth = page.getByLabel('Max depth (0 = no limit)');
    expect(await maxDepth.inputValue()).toBe('0');
    expect(await page.locator(`#${await maxDepth.getAttribute('aria-describedby')}`).textContent()).toBe('--max-depth');
    expect(await page.getByLabel('Requests per host at once').inputValue()).toBe('1');
    expect(await page.getByLabel('Delay factor (× last fetch time)').inputValue()).toBe('5');
    expect(await page.getByLabel('Obey robots.txt').isChecked()).toBe(true);

    await page.getByLabel('Threads').fill('3');
    await page.getByLabel('Obey nofollow').uncheck();
    await page.reload();
    await openCrawlSettings();
    await expect.poll(async () => page.getByLabel('Threads').inputValue(), { timeout: 10_000 }).toBe('3');
    expect(await page.getByLabel('Obey nofollow').isChecked()).toBe(false);

    await page.getByRole('button', { name: 'Reset to defaults' }).click();
    expect(await page.getByLabel('Threads').inputValue()).toBe('4');
    expect(await page.getByLabel('Obey nofollow').isChecked()).toBe(true);
    await page.reload();
    await openCrawlSettings();
    expect(await page.getByLabel('Threads').inputValue()).toBe('4');
  });

  it('Ctrl+Enter in the seed box starts the crawl and focus moves to the crawl status; the host table counts down', async () => {
    await openTab(page, 'Crawl');
    const before = crawlCount();
    await openCrawlSettings();
    // A politeness delay long enough to watch the countdown, and few pages.
    await page.getByLabel('Politeness delay (ms)', { exact: true }).fill('1500');
    await page.getByLabel('Max pages (0 = no limit)').fill('6');
    const seeds = page.getByRole('textbox', { name: 'Seed URL' });
    await seeds.fill('http://docs.python.test/');
    await seeds.press('Control+Enter');
    await expect.poll(async () => page.getByTestId('counter-status').textContent(), { timeout: 10_000 }).toBe('running');
    expect(crawlCount()).toBe(before + 1);
    await expect.poll(async () => page.evaluate<string | undefined>('document.activeElement?.id')).toBe('crawl-status');

    await openTab(page, 'Frontier');
    const next = page.getByRole('table', { name: 'Frontier hosts' }).getByTestId('next-eligible');
    // A countdown in tenths of a second that ticks ("in 1.2 s", then less), or "now": never a clock time.
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const text = (await next.first().textContent({ timeout: 1000 }).catch(() => null)) ?? '';
          if (text !== '') seen.add(text);
          return [...seen].filter((t) => /^in \d+\.\d s$/.test(t)).length;
        },
        { timeout: 20_000, interval: 150 },
      )
      .toBeGreaterThanOrEqual(2);
    for (const text of seen) expect(text).toMatch(/^(in \d+\.\d s|now)$/);
    await openTab(page, 'Crawl');
    // A crawl that reaches its page limit ends "stopped" (resumable).
    await waitForStatus(page, 'stopped', 60_000);
  });
});

describe('tables', () => {
  it('the host table is as tall as its rows; the URL table names the normalized URL and the normalized key', async () => {
    await openTab(page, 'Frontier');
    const hosts = page.getByRole('table', { name: 'Frontier hosts' });
    await expect.poll(async () => page.getByTestId('hosts-total').textContent(), { timeout: 10_000 }).toBe('1 host');
    const box = await hosts.boundingBox();
    // Header and one row of 28 px each, with borders: not the old 140 px minimum.
    expect(box!.height).toBeLessThan(90);

    const urls = page.getByRole('table', { name: 'Frontier URLs' });
    const headers = await urls.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Normalized URL', 'Normalized key']));
    const first = await urls.getByRole('row').nth(1).getByRole('cell').allTextContents();
    expect(first[headers.indexOf('Normalized URL')]).toBe('http://docs.python.test/');
    expect(first[headers.indexOf('Normalized key')]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('settings in words', () => {
  it('rules show words with the identifier as tooltip; the preview gives before → after examples; the TLD tester says what to add', async () => {
    await openTab(page, 'Settings');
    const rule = page.getByRole('list', { name: 'Normalization rules' }).getByText('Remove the default port', { exact: true });
    expect(await rule.getAttribute('title')).toBe('removeDefaultPort');
    expect(await page.getByRole('list', { name: 'Normalization rules' }).getByText('removeDefaultPort', { exact: true }).count()).toBe(0);

    await page.getByLabel('Normalization profile').selectOption('aggressive');
    await page.getByRole('button', { name: 'Preview on the open crawl' }).click();
    await expect.poll(async () => page.getByTestId('normalization-preview').textContent(), { timeout: 10_000 }).toMatch(/^Of \d+ URLs, [1-9]\d* would change key/);
    const changed = await page.getByRole('list', { name: 'URLs whose key changes' }).getByRole('listitem').allTextContents();
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThanOrEqual(20);
    expect(changed[0]).toMatch(/^http:\/\/docs\.python\.test\/\S* → http:\/\/docs\.python\.test\/\S*$/);

    await page.getByRole('textbox', { name: 'Test a URL' }).fill('http://www.shop.example.zz/');
    await expect.poll(async () => page.getByTestId('domain-warning').textContent(), { timeout: 5_000 }).toBe(
      'No rule matches the suffix ".zz": add "zz" to the generic TLDs, or add "example.zz" to the additional TLDs if names are registered under it.',
    );
    expect(await page.getByRole('list', { name: 'Domain trace' }).textContent()).not.toContain('DEBUG');
  });
});

describe('exports', () => {
  it('CSV in words with UTC times, counted like the Crawls list; a refused export clears the last "Wrote"; no Show in folder in browser mode', async () => {
    // The crawl list's tab: "Crawls", renamed "History" by a parallel branch of the same issue.
    await page.getByRole('tab', { name: /^(Crawls|History)$/ }).click();
    const list = page.getByRole('table', { name: 'Crawl list' });
    await expect.poll(async () => list.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    const headers = await list.getByRole('columnheader').allTextContents();
    const fetched = (await list.getByRole('row').nth(1).getByRole('cell').allTextContents())[headers.indexOf('Pages fetched')];

    const file = path.join(path.dirname(workbench.serve.dbPath), 'friction-pages.csv');
    await page.getByLabel('Export file').fill(file);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const status = page.getByTestId('export-status');
    await expect.poll(async () => status.textContent(), { timeout: 20_000 }).toBe(`Wrote ${fetched} rows to ${file}`);
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(Number(fetched) + 1);
    expect(lines[0]!.startsWith('URL id,URL,Final URL,HTTP status,')).toBe(true);
    expect(lines[1]).toMatch(/,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,/);
    expect(await page.getByRole('button', { name: 'Show in folder' }).count()).toBe(0);

    // The same file again is refused: the error stands alone, the last "Wrote" is gone.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await expect.poll(async () => page.locator('#export-error').textContent()).toContain('already exists');
    expect(await status.count()).toBe(0);
  });
});

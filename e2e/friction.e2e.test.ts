import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { counter, openTab, readDatabase, screenshot, startCrawl, useWorkbench, waitForStatus } from './helpers/workbench';

const workbench = useWorkbench();

/** The Elapsed counter in seconds (`m:ss`). */
async function elapsedSeconds(page: Page): Promise<number> {
  const [minutes, seconds] = String(await page.getByTestId('counter-elapsed').textContent()).split(':').map(Number);
  return minutes! * 60 + seconds!;
}

const crawlCount = () => readDatabase(workbench.serve.dbPath, (db) => db.prepare(`SELECT COUNT(*) FROM crawls`).pluck().get() as number);

describe('friction a new user hit (issue 11)', () => {
  it('a seed whose host fails says so plainly, the failed URL row says why, and the Errors counter opens the failed pages', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(workbench.serve.url);
    // Closed mode: a host outside the resolver map is refused, never looked up.
    await startCrawl(page, ['http://nowhere.test/']);
    await waitForStatus(page, 'finished', 30_000);
    const failure = page.getByTestId('crawl-failure');
    await expect.poll(async () => failure.textContent(), { timeout: 10_000 }).toMatch(/^Finished: 0 pages fetched, 1 failed — seed http:\/\/nowhere\.test\/ failed: [A-Z_]+: ./);
    expect(await page.getByTestId('frontier-growth').getAttribute('class')).toContain('growth-failed');
    expect(await page.getByTestId('frontier-growth').textContent()).not.toContain('%');
    await screenshot(page, 'seed-failed');

    const code = /failed: ([A-Z_]+):/.exec(String(await failure.textContent()))![1]!;
    await openTab(page, 'Frontier');
    const row = page.getByRole('table', { name: 'Frontier URLs' }).getByRole('row').filter({ hasText: 'http://nowhere.test/' });
    await expect.poll(async () => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.getByRole('cell').nth(3).textContent()).toMatch(new RegExp(`^${code}: .`));

    await openTab(page, 'Crawl');
    await page.getByRole('button', { name: /^Errors: 1, open/ }).click();
    await expect.poll(async () => page.getByRole('tab', { name: 'Pages', exact: true }).getAttribute('aria-selected')).toBe('true');
    await page.close();
  });

  it('the running crawl stays in sight from other crawls and views, a second crawl is asked for, a paused crawl can be stopped, and a resume keeps the elapsed time', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(workbench.serve.url);
    // An endless calendar: discovered stays ahead of done, and no percentage claims to know the end.
    await startCrawl(page, ['http://trap.test/'], { trapGuard: false });
    await expect.poll(async () => counter(page, 'Fetched'), { timeout: 30_000, interval: 200 }).toBeGreaterThan(2);
    const growth = String(await page.getByTestId('frontier-growth').textContent());
    expect(growth).toMatch(/\d+ done of \d+ discovered so far/);
    expect(growth).not.toContain('%');
    await screenshot(page, 'frontier-growth');
    const running = Number(/Crawl #(\d+)/.exec(String(await page.getByTestId('open-crawl').textContent()))![1]);

    // Another crawl opened from History: the running one is still shown, with a way back.
    await openTab(page, 'History');
    await page.getByRole('button', { name: 'Open crawl 1', exact: true }).click();
    await expect.poll(async () => page.getByTestId('open-crawl').textContent()).toContain('Crawl #1 of');
    const indicator = page.getByTestId(`running-crawl-${running}`);
    await expect.poll(async () => indicator.textContent(), { timeout: 10_000 }).toMatch(new RegExp(`^Crawl #${running} running: \\d+ fetched`));
    await screenshot(page, 'running-crawl-indicator');

    // Starting a second crawl meanwhile asks first; Cancel starts nothing.
    const crawls = crawlCount();
    await page.getByRole('textbox', { name: 'Seed URL' }).fill('http://dup.test/');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    const confirm = page.getByRole('dialog', { name: 'Start another crawl?' });
    await expect.poll(async () => confirm.isVisible(), { timeout: 5_000 }).toBe(true);
    await screenshot(page, 'start-another-crawl');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(async () => confirm.count()).toBe(0);
    expect(crawlCount()).toBe(crawls);

    await indicator.getByRole('button', { name: 'Show' }).click();
    await expect.poll(async () => page.getByTestId('open-crawl').textContent()).toContain(`Crawl #${running} of http://trap.test/`);
    await expect.poll(async () => indicator.count()).toBe(0);

    // Pause once it has run a few seconds; a paused crawl can be stopped, or resumed without losing its elapsed time.
    await expect.poll(async () => elapsedSeconds(page), { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Pause' }).click();
    await waitForStatus(page, 'paused', 30_000);
    expect(await page.getByRole('button', { name: 'Stop' }).isEnabled()).toBe(true);
    expect(await page.getByTestId('open-crawl').textContent()).toContain('paused: Resume continues it, Stop ends it');
    const elapsedAtPause = await elapsedSeconds(page);
    await page.getByRole('button', { name: 'Resume' }).click();
    await waitForStatus(page, 'running', 30_000);
    expect(await elapsedSeconds(page), 'Elapsed continues from the earlier run').toBeGreaterThanOrEqual(elapsedAtPause);
    expect(Number(await page.getByTestId('rate-chart').getAttribute('data-samples')), 'the pages/s chart keeps the earlier run').toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Pause' }).click();
    await waitForStatus(page, 'paused', 30_000);
    await page.getByRole('button', { name: 'Stop' }).click();
    await waitForStatus(page, 'stopped', 10_000);
    expect(await page.getByTestId('open-crawl').textContent()).toContain('stopped: Resume continues it');
    await page.close();
  });

  it('a URL robots.txt refuses is counted as Blocked, not as an error, and the counter opens Pages filtered to it', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(workbench.serve.url);
    await startCrawl(page, ['http://robots.test/']);
    await waitForStatus(page, 'finished', 60_000);
    expect(await page.getByTestId('counter-blocked').textContent()).toBe('1');
    await page.getByRole('button', { name: /^Blocked: 1, open the URLs robots.txt blocked in Pages$/ }).click();
    await expect.poll(async () => page.getByRole('tab', { name: 'Pages', exact: true }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('combobox', { name: 'Status', exact: true }).inputValue()).toBe('blocked');
    await expect.poll(async () => page.getByRole('cell', { name: 'http://robots.test/private/secret.html', exact: true }).count(), { timeout: 10_000 }).toBe(1);
    await page.close();
  });

  it('the Duplicates counter opens the Duplicates view and a refused-link rule opens the Frontier view', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(workbench.serve.url);
    await startCrawl(page, ['http://site.test/', 'http://dup.test/']);
    // The first test's trap crawl is stopped: nothing else runs, so no confirm is asked.
    await waitForStatus(page, 'finished', 60_000);
    await page.getByRole('button', { name: /^Duplicates: [1-9]\d*, open the Duplicates view$/ }).click();
    await expect.poll(async () => page.getByRole('tab', { name: 'Duplicates', exact: true }).getAttribute('aria-selected')).toBe('true');
    await openTab(page, 'Crawl');
    // site.test links to elsewhere.test, outside the host scope.
    await page.getByRole('button', { name: 'outside the crawl scope: open the Frontier view' }).click();
    await expect.poll(async () => page.getByRole('tab', { name: 'Frontier', exact: true }).getAttribute('aria-selected')).toBe('true');
    await page.close();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { counter, openTab, readDatabase, screenshot, startCrawl, urlsInState, useWorkbench } from './helpers/workbench';

/** HTML pages reachable from the docs root (wget -r on the same nginx, Debian python3.11-doc). */
const DOCS_HTML_PAGES = 526;

const workbench = useWorkbench();

describe('browser mode', () => {
  it('(a) crawls the Python docs mirror from the GUI: counters rise, the frontier drains, every page is listed', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(workbench.serve.url);
    await startCrawl(page, ['http://docs.python.test/']);

    // While it runs: the host table shows the host's politeness state in words.
    await expect.poll(async () => counter(page, 'Fetched'), { timeout: 60_000, interval: 100 }).toBeGreaterThan(60);
    await openTab(page, 'Frontier');
    const liveRow = page.getByRole('table', { name: 'Frontier hosts' }).getByRole('row').filter({ hasText: 'docs.python.test' });
    await expect.poll(async () => (await liveRow.getByRole('cell').allTextContents())[7], { timeout: 10_000, interval: 100 }).toMatch(/^(politeness delay|connection limit|robots Crawl-delay|ready)$/);
    expect(Number((await liveRow.getByRole('cell').allTextContents())[2])).toBeGreaterThan(0);
    await screenshot(page, 'frontier');
    await openTab(page, 'Crawl');

    // The queue fills, then drains to zero as pages are fetched.
    const queued: number[] = [];
    const fetched: number[] = [];
    await expect
      .poll(
        async () => {
          queued.push(await counter(page, 'Queued'));
          fetched.push(await counter(page, 'Fetched'));
          return page.getByTestId('counter-status').textContent();
        },
        { timeout: 120_000, interval: 200 },
      )
      .toBe('finished');
    const peak = Math.max(...queued);
    expect(peak, 'the frontier filled while the crawl ran').toBeGreaterThan(50);
    expect(queued.indexOf(peak), 'the queue peaked before the end').toBeLessThan(queued.length - 1);
    expect(fetched.some((n) => n > 0 && n < DOCS_HTML_PAGES), 'Fetched rose while the crawl ran').toBe(true);
    expect(await counter(page, 'Fetched')).toBeGreaterThanOrEqual(DOCS_HTML_PAGES);
    expect(await counter(page, 'Queued')).toBe(0);
    expect(await counter(page, 'In flight')).toBe(0);
    // Done vs discovered, no percentage: at the end every discovered URL is done.
    expect(await page.getByTestId('frontier-done').textContent()).toBe(await page.getByTestId('frontier-discovered').textContent());
    expect(await page.getByTestId('frontier-growth').textContent()).toContain('frontier empty');
    // The docs link to off-site pages, which the host scope refuses: counted by rule.
    expect(Number(await page.getByTestId('refused-scope').textContent())).toBeGreaterThan(0);
    await screenshot(page, 'crawl');

    // Frontier: the host's row says it is drained; the URL table lists every URL of the crawl.
    await openTab(page, 'Frontier');
    const hostRow = page.getByRole('table', { name: 'Frontier hosts' }).getByRole('row').filter({ hasText: 'docs.python.test' });
    await expect.poll(async () => hostRow.count(), { timeout: 10_000 }).toBe(1);
    const cells = await hostRow.getByRole('cell').allTextContents();
    expect(cells.slice(0, 6)).toEqual(['docs.python.test', 'python.test', '0', '0', String(doneCount()), String(scalar(`SELECT COUNT(*) FROM urls WHERE crawl_id = 1 AND state = 'error' AND host = 'docs.python.test'`))]);
    await expect.poll(async () => page.getByTestId('frontier-total').textContent(), { timeout: 5_000 }).toMatch(/^5\d\d URLs$/);
    const urls = page.getByRole('table', { name: 'Frontier URLs' });
    expect(await urls.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['http://docs.python.test/', 'docs.python.test', 'done', '', '0', 'http://docs.python.test/', expect.stringMatching(/^[0-9a-f-]{36}$/), 'seed']);
    // Filters: state and URL text narrow the table (paged from SQLite).
    await page.getByLabel('URL contains').fill('library/functions.html');
    await expect.poll(async () => page.getByTestId('frontier-total').textContent(), { timeout: 5_000 }).toBe('1 URL');
    await page.getByLabel('URL contains').fill('');
    await page.getByLabel('State').selectOption('error');
    await expect.poll(async () => page.getByTestId('frontier-total').textContent(), { timeout: 5_000 }).toBe(countOf(urlsInState(workbench.serve.dbPath, 1, 'error').length, 'URL'));
    await page.getByLabel('State').selectOption('');

    // Crawls: the crawl is listed; export its pages to CSV with a progress bar.
    await openTab(page, 'History');
    await expect.poll(async () => page.getByRole('table', { name: 'Crawl list' }).getByRole('row').count()).toBe(2);
    const file = path.join(path.dirname(workbench.serve.dbPath), 'docs-pages.csv');
    await page.getByLabel('Export file').fill(file);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await expect.poll(async () => page.getByTestId('export-status').textContent(), { timeout: 20_000 }).toMatch(/^Wrote \d+ rows to /);
    expect(await page.getByRole('progressbar', { name: 'Export progress' }).getAttribute('aria-valuenow')).toBe('100');
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('URL id,URL,Final URL,HTTP status,Content type,Body size (bytes),Body truncated,Fetch time (ms),Title,Fetched at (UTC),Content fingerprint,Text length (characters),"Redirect chain (JSON, older crawls)",Redirects to,Extracted values (JSON)');
    // One row per fetched URL: the Crawls list's "Pages fetched" (a redirect hop that ended in an
    // error keeps its page row in the database, but is counted with the errors, not exported here).
    const listed = await page.getByRole('table', { name: 'Crawl list' }).getByRole('row').nth(1).getByRole('cell').nth(4).textContent();
    expect(lines.length - 1).toBe(Number(listed));
    expect(lines.length - 1).toBe(pageCount());
    // Exporting to the same file again is refused, nothing is overwritten.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await expect.poll(async () => page.getByRole('alert').first().textContent()).toContain('already exists');
    await screenshot(page, 'crawls');
    await page.close();
  });

  it('reopens the last open crawl after a reload; a finished crawl says so, with nothing to resume', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(workbench.serve.url);
    await expect.poll(async () => page.getByTestId('open-crawl').textContent(), { timeout: 10_000 }).toContain('Crawl #1 of http://docs.python.test/');
    expect(await page.getByTestId('open-crawl').textContent()).toContain('finished: nothing was left to fetch');
    expect(await page.getByTestId('open-crawl').textContent()).not.toContain('until resumed');
    expect(await page.getByTestId('counter-status').textContent()).toBe('finished');
    expect(await page.getByRole('button', { name: 'Resume' }).isDisabled()).toBe(true);
    await page.close();
  });

  it('shows an inline error for an invalid seed or setting and starts nothing', async () => {
    const page = await workbench.browser.newPage();
    await page.goto(workbench.serve.url);
    // The app reopens the last open crawl after load; act once it has, so that late render does
    // not fold the "Crawl settings" section the test opens (seen on a loaded machine).
    await expect.poll(async () => page.getByTestId('open-crawl').textContent(), { timeout: 10_000 }).toContain('Crawl #1');
    const crawlsBefore = crawlCount();
    await page.getByRole('textbox', { name: 'Seed URL' }).fill('not a url');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await expect.poll(async () => page.getByRole('alert').first().textContent()).toContain('not an absolute URL');
    await page.getByRole('textbox', { name: 'Seed URL' }).fill('http://docs.python.test/');
    await page.getByText('Crawl settings').click();
    await expect.poll(async () => page.getByLabel('Threads').isVisible()).toBe(true);
    await page.getByLabel('Threads').fill('0');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await expect.poll(async () => page.locator('#threads-error').textContent()).toBe('Whole number from 1 to 256');
    expect(await page.getByLabel('Threads').getAttribute('aria-invalid')).toBe('true');
    expect(crawlCount()).toBe(crawlsBefore);
    await page.close();
  });

  it('refuses HTTP requests and sockets without the per-launch token, and never uses a cookie', async () => {
    const { origin, token, url } = workbench.serve;
    const noToken = await fetch(`${origin}/`);
    expect(noToken.status).toBe(401);
    const wrongToken = await fetch(`${origin}/t/${'x'.repeat(token.length)}/`);
    expect(wrongToken.status).toBe(401);
    const asset = await fetch(`${origin}/index.html`);
    expect(asset.status).toBe(401);
    const oldCookie = await fetch(`${origin}/`, { headers: { cookie: `crawlbench_token=${token}` } });
    expect(oldCookie.status).toBe(401);
    const withToken = await fetch(url);
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('set-cookie')).toBeNull();

    const refused = await new Promise<string>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${new URL(origin).port}/ipc`);
      socket.on('unexpected-response', (_request, response) => resolve(`http ${response.statusCode}`));
      socket.on('open', () => resolve('open'));
      socket.on('error', (error) => resolve(`error ${error.message}`));
    });
    expect(refused).toBe('http 401');

    const answer = await new Promise<unknown>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${new URL(origin).port}/t/${token}/ipc`, { origin });
      socket.on('open', () => socket.send(JSON.stringify({ kind: 'request', seq: 1, channel: 'settings.update', payload: { ignoredExtensions: '.PDF' } })));
      socket.on('message', (data) => {
        resolve(JSON.parse(data.toString()));
        socket.close();
      });
      socket.on('error', reject);
    });
    expect(answer).toMatchObject({ kind: 'response', seq: 1, result: { ok: false, error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining('ignoredExtensions') } } });
  });
});

/** A number from the serve process's database (read-only connection). */
function scalar(sql: string): number {
  return Number(readDatabase(workbench.serve.dbPath, (db) => db.prepare(sql).pluck().get()));
}

/** A count with its noun as the views write it ("1 URL", "2 URLs"), spelled out here independently. */
const countOf = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
const doneCount = () => scalar(`SELECT COUNT(*) FROM urls WHERE crawl_id = 1 AND state = 'done' AND host = 'docs.python.test'`);
const pageCount = () => scalar(`SELECT COUNT(*) FROM pages p JOIN urls u ON u.id = p.url_id WHERE p.crawl_id = 1 AND u.state = 'done'`);
const crawlCount = () => scalar(`SELECT COUNT(*) FROM crawls`);

import { describe, expect, it } from 'vitest';
import { openTab, readDatabase, screenshot, useWorkbench, waitForStatus } from './helpers/workbench';

const workbench = useWorkbench();

const file = (text: string) => ({ name: 'urls.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });

describe('list mode from the crawl form, in browser mode (issue 12 part 2)', () => {
  it('Import URL list names a bad line; a good list fills the seeds, switches to list mode, and the crawl fetches exactly the list', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(workbench.serve.url);
    await openTab(page, 'Crawl');
    const listFile = page.getByLabel('URL list file');
    const seeds = page.getByRole('textbox', { name: 'Seed URL' });
    const mode = page.getByRole('combobox', { name: 'Mode' });
    expect(await mode.inputValue()).toBe('spider');

    await listFile.setInputFiles(file('# pages\nhttp://site.test/a.html\nsite.test/b.html\n'));
    await expect.poll(async () => page.locator('#url-list-error').textContent(), { timeout: 10_000 }).toContain('urls.txt: Line 3: "site.test/b.html" is not an absolute URL');
    expect(await seeds.inputValue()).toBe('');
    expect(await mode.inputValue()).toBe('spider');

    await listFile.setInputFiles(file('# pages to check\nhttp://site.test/a.html\n\nhttp://site.test/b.html\nhttp://site.test/old\n'));
    await expect.poll(async () => seeds.inputValue(), { timeout: 10_000 }).toBe('http://site.test/a.html\nhttp://site.test/b.html\nhttp://site.test/old');
    expect(await mode.inputValue()).toBe('list');
    expect(await page.getByRole('status').filter({ hasText: 'Imported 3 URLs from urls.txt' }).count()).toBe(1);
    await screenshot(page, 'url-list-imported');

    await page.getByRole('button', { name: 'Start crawl' }).click();
    await waitForStatus(page, 'finished', 60_000);
    const crawl = readDatabase(workbench.serve.dbPath, (db) => {
      const id = db.prepare('SELECT MAX(id) FROM crawls').pluck().get() as number;
      return {
        settings: JSON.parse(db.prepare('SELECT settings_json FROM crawls WHERE id = ?').pluck().get(id) as string) as Record<string, unknown>,
        done: db.prepare(`SELECT url FROM urls WHERE crawl_id = ? AND state = 'done' ORDER BY url`).pluck().all(id) as string[],
        others: db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = ? AND state != 'done'`).pluck().get(id) as number,
      };
    });
    expect(crawl.settings['crawlMode']).toBe('list');
    // The three listed URLs and the target of /old's redirect; a.html's and b.html's links are stored, not followed.
    expect(crawl.done).toEqual(['http://site.test/a.html', 'http://site.test/b.html', 'http://site.test/new.html', 'http://site.test/old']);
    expect(crawl.others).toBe(0);
    await page.close();
  });
});

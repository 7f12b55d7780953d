import { describe, expect, it } from 'vitest';
import { counter, openTab, readDatabase, screenshot, startCrawl, urlsInState, useWorkbench, waitForStatus } from './helpers/workbench';

const workbench = useWorkbench();

describe('(b) settings: TLD lists, the domain trace and ignored extensions', () => {
  it('an added TLD changes the trace; an added extension makes the next crawl refuse those links, counted by rule', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(workbench.serve.url);
    await openTab(page, 'Settings');

    // Test a URL: no list knows "example.zz", so the PSL default rule applies, with the seed's warning.
    await page.getByRole('textbox', { name: 'Test a URL' }).fill('http://www.shop.example.zz/page.html');
    const result = page.getByTestId('domain-result');
    await expect.poll(async () => result.textContent(), { timeout: 5_000 }).toBe('Registrable domain: example.zz (public suffix zz)');
    expect(await page.getByTestId('domain-warning').textContent()).toBe('No rule matches the suffix ".zz": add "zz" to the generic TLDs, or add "example.zz" to the additional TLDs if names are registered under it.');
    expect(await page.getByRole('list', { name: 'Domain trace' }).textContent()).not.toContain('DEBUG');

    // A bad entry gets an inline error and is not added.
    const additional = page.getByRole('group', { name: 'Additional TLDs' });
    await page.getByRole('textbox', { name: 'Additional TLDs' }).fill('.example.zz');
    await additional.getByRole('button', { name: 'Add to Additional TLDs' }).click();
    expect(await additional.getByRole('alert').textContent()).toBe('".example.zz" has a leading dot (write "example.zz")');
    expect(await additional.getByRole('listitem').count()).toBe(0);

    // A good one is added, and the trace now matches it: no fallback.
    await page.getByRole('textbox', { name: 'Additional TLDs' }).fill('example.zz');
    await page.getByRole('textbox', { name: 'Additional TLDs' }).press('Enter');
    expect(await additional.getByRole('listitem').allTextContents()).toEqual(['example.zz×']);
    await expect.poll(async () => result.textContent(), { timeout: 5_000 }).toBe('Registrable domain: shop.example.zz (public suffix example.zz)');
    const trace = await page.getByRole('list', { name: 'Domain trace' }).getByRole('listitem').allTextContents();
    expect(trace).toContain('✓ "example.zz" matches the additional-list entry "example.zz"');
    expect(await page.getByTestId('domain-warning').count()).toBe(0);

    // Ignored extensions: "pdf" is not in the default list; a dotted, uppercase entry is refused.
    const extensions = page.getByRole('group', { name: 'Ignored extensions' });
    const entriesBefore = Number((await extensions.getByText(/^\d+ entr(y|ies)(?! skipped)/).textContent())?.split(' ')[0]);
    await page.getByRole('textbox', { name: 'Ignored extensions' }).fill('.PDF');
    await extensions.getByRole('button', { name: 'Add to Ignored extensions' }).click();
    expect(await extensions.getByRole('alert').textContent()).toBe('".PDF" must be lowercase letters and digits without the dot (write "pdf")');
    await page.getByRole('textbox', { name: 'Ignored extensions' }).fill('pdf');
    await extensions.getByRole('button', { name: 'Add to Ignored extensions' }).click();
    expect(await extensions.getByText(/^\d+ entr(y|ies)(?! skipped)/).textContent()).toContain(`${entriesBefore + 1} entries`);
    expect(await page.getByTestId('settings-status').textContent()).toBe('Unsaved changes');
    await screenshot(page, 'settings');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(async () => page.getByTestId('settings-status').textContent()).toBe('Saved: the next crawl uses these settings.');

    // The next crawl: links to .pdf (and the default list's .zip) are refused by the ignored-extension rule.
    await startCrawl(page, ['http://files.test/']);
    await waitForStatus(page, 'finished', 30_000);
    expect(await counter(page, 'Fetched')).toBe(2);
    expect(await page.getByTestId('refused-ignored-extension').textContent()).toBe('4');
    const crawlId = 1;
    expect(urlsInState(workbench.serve.dbPath, crawlId, 'done')).toEqual(['http://files.test/', 'http://files.test/notes.html']);
    await openTab(page, 'Frontier');
    await expect.poll(async () => page.getByTestId('frontier-total').textContent()).toBe('2 URLs');

    // Settings persist in SQLite: a fresh page load shows them.
    await page.reload();
    await openTab(page, 'Settings');
    await expect.poll(async () => page.getByRole('group', { name: 'Additional TLDs' }).getByRole('listitem').allTextContents()).toEqual(['example.zz×']);
    expect(await page.getByRole('group', { name: 'Ignored extensions' }).getByText(/^\d+ entr(y|ies)(?! skipped)/).textContent()).toContain(`${entriesBefore + 1} entries`);

    // List editors: import a file (bad lines reported, not added), export, reset, import the PSL.
    const generic = page.getByRole('group', { name: 'Generic TLDs' });
    await generic.getByLabel('Generic TLDs file').setInputFiles({ name: 'tlds.txt', mimeType: 'text/plain', buffer: Buffer.from('# mine\nzz\nco.uk\ncom\n') });
    // The file is read asynchronously: wait for the list to take it.
    await expect.poll(async () => generic.getByText(/^\d+ entr(y|ies)(?! skipped)/).textContent(), { timeout: 5_000 }).toBe('23 entries · Imported 1 entry from tlds.txt');
    expect(await generic.getByRole('alert').textContent()).toBe('1 entry skipped: "co.uk" must be a single label (put multi-label suffixes such as "co.uk" in the additional list)');
    const download = page.waitForEvent('download');
    await generic.getByRole('button', { name: 'Export Generic TLDs' }).click();
    const exported = await (await download).path();
    const fs = await import('node:fs');
    expect(fs.readFileSync(exported, 'utf8').trim().split('\n').slice(-2)).toEqual(['xxx', 'zz']);
    await generic.getByRole('button', { name: 'Reset Generic TLDs to defaults' }).click();
    expect(await generic.getByText(/^\d+ entr(y|ies)(?! skipped)/).textContent()).toContain('22 entries');
    await page.getByRole('button', { name: 'Import Public Suffix List' }).click();
    await expect.poll(async () => Number((await page.getByRole('group', { name: 'Additional TLDs' }).getByText(/^\d+ entr(y|ies)(?! skipped)/).textContent())?.split(' ')[0])).toBeGreaterThan(9000);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await page.getByTestId('settings-status').textContent()).toBe('Saved settings apply to the next crawl');
    await page.close();
  });

  it('saving while a crawl runs asks whether to apply now; "Apply now" restarts it with the new list; Pause and Resume steer it', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(workbench.serve.url);
    await startCrawl(page, ['http://docs.python.test/']);
    await expect.poll(async () => counter(page, 'Fetched'), { timeout: 60_000, interval: 100 }).toBeGreaterThan(20);
    const crawlId = Number(/#(\d+)/.exec((await page.getByTestId('open-crawl').textContent()) ?? '')?.[1]);

    await openTab(page, 'Settings');
    await page.getByRole('textbox', { name: 'Ignored extensions' }).fill('txt');
    await page.getByRole('textbox', { name: 'Ignored extensions' }).press('Enter');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply to the running crawl?' });
    await expect.poll(async () => dialog.isVisible(), { timeout: 5_000 }).toBe(true);
    await dialog.getByRole('button', { name: 'Apply now' }).click();
    await expect.poll(async () => page.getByTestId('settings-status').textContent(), { timeout: 30_000 }).toBe(`Saved and applied: crawl ${crawlId} restarted with the new lists.`);
    const stored = readDatabase(workbench.serve.dbPath, (db) => JSON.parse(db.prepare(`SELECT settings_json FROM crawls WHERE id = ?`).pluck().get(crawlId) as string) as { ignoredExtensions: string });
    expect(stored.ignoredExtensions.split('|')).toContain('txt');

    await openTab(page, 'Crawl');
    await waitForStatus(page, 'running', 10_000);
    await page.getByRole('button', { name: 'Pause' }).click();
    await waitForStatus(page, 'paused', 30_000);
    const pausedAt = await counter(page, 'Fetched');
    expect(await page.getByRole('button', { name: 'Resume' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Resume' }).click();
    await waitForStatus(page, 'finished', 120_000);
    expect(await counter(page, 'Fetched')).toBeGreaterThan(pausedAt);
    expect(urlsInState(workbench.serve.dbPath, crawlId, 'pending')).toEqual([]);
    await page.close();
  });
});

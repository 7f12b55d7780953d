/**
 * Request settings per host from the crawl form, in browser mode: Basic auth and a cookie for the
 * fixture's private.test (testweb/fixture-sites.ts), whose pages answer 401/403 without them. The
 * form shows a bad rule's problem inline without starting; a good one reaches the pages behind the
 * credentials; the secrets are kept beside the database (mode 0600), never in it, and the page
 * holds none of them once the crawl started.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openTab, readDatabase, screenshot, useWorkbench, waitForStatus } from './helpers/workbench';

const workbench = useWorkbench();

const PASSWORD = 's3cret pass';
const COOKIE_VALUE = 'letmein';

describe('request settings per host on the crawl form (browser mode)', () => {
  it('sends Basic auth and a cookie to private.test; keeps the secrets beside the database, out of it and out of the page', async () => {
    const page = await workbench.browser.newPage({ viewport: { width: 1280, height: 1100 } });
    await page.goto(workbench.serve.url);
    await openTab(page, 'Crawl');
    await page.getByRole('textbox', { name: 'Seed URL' }).fill('http://private.test/');
    await page.locator('summary', { hasText: 'Request settings per host' }).click();
    await page.getByRole('button', { name: 'Add host' }).click();
    const rule = page.getByRole('group', { name: 'Request rule 1' });

    // A bad host pattern: shown beside its field once it loses focus, and Start sends nothing.
    await rule.getByLabel('Host pattern', { exact: true }).fill('*.');
    await rule.getByLabel('Cookie', { exact: true }).fill(`session=${COOKIE_VALUE}`);
    await expect.poll(async () => rule.getByRole('alert').textContent(), { timeout: 10_000 }).toContain('Request rule 1, host: expected an exact host or *.suffix: "*" may only be the whole first label');
    await screenshot(page, 'request-rules-invalid');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    expect(await page.getByTestId('counter-status').textContent()).toBe('idle');
    expect(readDatabase(workbench.serve.dbPath, (db) => db.prepare('SELECT COUNT(*) FROM crawls').pluck().get())).toBe(0);

    await rule.getByLabel('Host pattern', { exact: true }).fill('private.test');
    await rule.getByLabel('Basic auth user', { exact: true }).fill('crawler');
    const password = rule.getByLabel('Basic auth password', { exact: true });
    expect(await password.getAttribute('type')).toBe('password');
    await password.fill(PASSWORD);
    await expect.poll(async () => rule.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'request-rules');

    await page.getByRole('button', { name: 'Start crawl' }).click();
    await waitForStatus(page, 'finished', 60_000);

    // The pages behind the credentials and the cookie were fetched.
    const crawl = readDatabase(workbench.serve.dbPath, (db) => {
      const id = db.prepare('SELECT MAX(id) FROM crawls').pluck().get() as number;
      const rows = db.prepare('SELECT url, http_status AS status FROM urls WHERE crawl_id = ?').all(id) as { url: string; status: number | null }[];
      return {
        id,
        status: Object.fromEntries(rows.map((row) => [new URL(row.url).pathname, row.status])),
        settings: JSON.parse(db.prepare('SELECT settings_json FROM crawls WHERE id = ?').pluck().get(id) as string) as { requestRules: unknown },
      };
    });
    expect(crawl.status).toMatchObject({ '/members/': 200, '/members/list.html': 200, '/cookie.html': 200 });
    expect(crawl.settings.requestRules).toEqual([{ host: 'private.test', headers: [], username: 'crawler', cookie: true, proxy: null }]);

    // The secrets: beside the database, the owner's alone; nowhere in the database's files.
    const secretsFile = `${workbench.serve.dbPath}.secrets.json`;
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(secretsFile, 'utf8')).toContain(PASSWORD);
    for (const file of [workbench.serve.dbPath, `${workbench.serve.dbPath}-wal`, `${workbench.serve.dbPath}-shm`].filter((f) => fs.existsSync(f))) {
      const bytes = fs.readFileSync(file).toString('latin1');
      expect(bytes.includes(PASSWORD), `the password in ${file}`).toBe(false);
      expect(bytes.includes(COOKIE_VALUE), `the cookie in ${file}`).toBe(false);
    }

    // The page: the form let go of the secrets; the open crawl's rules are shown masked.
    await expect.poll(async () => page.getByTestId('sent-request-rules').textContent(), { timeout: 10_000 }).toContain('private.test: Basic auth user crawler; cookie: set');
    await screenshot(page, 'request-rules-sent');
    const html = await page.content();
    expect(html).not.toContain(PASSWORD);
    expect(html).not.toContain(COOKIE_VALUE);
    const typed = await page.locator('input, textarea').evaluateAll((inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
    expect(typed.filter((text) => text.includes(PASSWORD) || text.includes(COOKIE_VALUE))).toEqual([]);
    await page.close();
  });
});

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, startServe } from './helpers/serve';
import { counter, createCheckpoint, openTab, readDatabase, screenshot, startCrawl, urlsInState, useServerSuite, waitForStatus } from './helpers/workbench';

const suite = useServerSuite('crash');

describe('(c) crash recovery from the GUI', () => {
  it('after kill -9 mid-crawl, the next launch asks "Resume crawl?" and the resumed crawl ends with the same pages as an uninterrupted one', async () => {
    const flags = [...suite.web.resolveFlags, '--closed'];
    // The uninterrupted reference: the same crawl by the CLI into its own database.
    const reference = path.join(suite.dir, 'reference.db');
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'crawlbench.mjs'), 'crawl', 'http://docs.python.test/', '--db', reference, ...flags], { encoding: 'utf8', timeout: 240_000 });
    expect(run.status, run.stderr).toBe(0);

    const dbPath = path.join(suite.dir, 'workbench.db');
    const first = await startServe(flags, dbPath);
    suite.servers.push(first);
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(first.url);
    await startCrawl(page, ['http://docs.python.test/']);
    await expect.poll(async () => counter(page, 'Fetched'), { timeout: 60_000, interval: 100 }).toBeGreaterThan(40);

    // A checkpoint mid-crawl, listed with its pages done and frontier size.
    const row = await createCheckpoint(page, 'mid-crawl');
    const [, , pagesDone, frontierSize, hash] = await row.getByRole('cell').allTextContents();
    expect(Number(pagesDone)).toBeGreaterThan(40);
    expect(Number(frontierSize)).toBeGreaterThan(0);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    await row.click();
    await screenshot(page, 'checkpoints');
    await openTab(page, 'Crawl');

    // kill -9 the server process while the crawl runs.
    await expect.poll(async () => counter(page, 'Fetched'), { timeout: 60_000, interval: 100 }).toBeGreaterThan(120);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    await page.close();
    const left = readDatabase(dbPath, (db) => db.prepare(`SELECT status, (SELECT COUNT(*) FROM urls WHERE crawl_id = 1 AND state IN ('pending', 'in_flight')) AS queued FROM crawls WHERE id = 1`).get()) as { status: string; queued: number };
    expect(left.status, 'the killed process left its crawl marked running').toBe('running');
    expect(left.queued, 'the kill happened mid-crawl').toBeGreaterThan(0);
    const doneAtKill = urlsInState(dbPath, 1, 'done').length;

    // Next launch on the same database: the dialog names the crawl and its pages done and queued.
    const second = await startServe(flags, dbPath);
    suite.servers.push(second);
    const again = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await again.goto(second.url);
    const dialog = again.getByRole('dialog', { name: 'Resume crawl?' });
    await expect.poll(async () => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    const text = await dialog.getByTestId('recovery-text').textContent();
    expect(text).toContain('Crawl #1 of http://docs.python.test/');
    expect(text).toContain(`${doneAtKill} pages done, ${left.queued} queued`);
    await screenshot(again, 'resume-dialog');
    await dialog.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(async () => dialog.count()).toBe(0);

    await waitForStatus(again, 'finished', 120_000);
    expect(urlsInState(dbPath, 1, 'done')).toEqual(urlsInState(reference, 1, 'done'));
    expect(urlsInState(dbPath, 1, 'error')).toEqual(urlsInState(reference, 1, 'error'));
    expect(urlsInState(dbPath, 1, 'pending')).toEqual([]);

    // Answered once: a reload does not ask again.
    await again.reload();
    await expect.poll(async () => again.getByTestId('open-crawl').textContent(), { timeout: 10_000 }).toContain('Crawl #1');
    expect(await again.getByRole('dialog', { name: 'Resume crawl?' }).count()).toBe(0);
    await again.close();
  });

  it('"Discard" keeps the interrupted crawl and its data; "Resume from checkpoint" rolls back and finishes it', async () => {
    const flags = [...suite.web.resolveFlags, '--closed'];
    const dbPath = path.join(suite.dir, 'discard.db');
    const first = await startServe(flags, dbPath);
    suite.servers.push(first);
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(first.url);
    await startCrawl(page, ['http://docs.python.test/']);
    await expect.poll(async () => counter(page, 'Fetched'), { timeout: 60_000, interval: 100 }).toBeGreaterThan(30);
    const early = await createCheckpoint(page, 'early');
    const checkpointPages = Number((await early.getByRole('cell').allTextContents())[2]);
    await openTab(page, 'Crawl');
    await expect.poll(async () => counter(page, 'Fetched'), { timeout: 60_000, interval: 100 }).toBeGreaterThan(checkpointPages + 50);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    await page.close();
    const doneAtKill = urlsInState(dbPath, 1, 'done').length;

    const second = await startServe(flags, dbPath);
    suite.servers.push(second);
    const again = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await again.goto(second.url);
    const dialog = again.getByRole('dialog', { name: 'Resume crawl?' });
    await expect.poll(async () => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(async () => dialog.count()).toBe(0);
    expect(await again.getByTestId('counter-status').textContent()).toBe('interrupted');
    expect(urlsInState(dbPath, 1, 'done').length, 'Discard deletes nothing').toBe(doneAtKill);

    // Roll back to the checkpoint and resume from there: what was fetched after it is fetched again.
    const logOffset = fs.statSync(suite.web.nginx.accessLog).size;
    await openTab(again, 'Checkpoints');
    await again.getByRole('table', { name: 'Checkpoint list' }).getByRole('row').filter({ hasText: 'early' }).click();
    await again.getByRole('button', { name: 'Resume from checkpoint' }).click();
    await again.getByRole('dialog', { name: 'Roll back to the checkpoint?' }).getByRole('button', { name: 'Roll back and resume' }).click();
    await expect.poll(async () => again.getByRole('tab', { name: 'Crawl', exact: true }).getAttribute('aria-selected'), { timeout: 30_000 }).toBe('true');
    await waitForStatus(again, 'finished', 120_000);
    expect(urlsInState(dbPath, 1, 'pending')).toEqual([]);
    expect(await counter(again, 'Fetched')).toBeGreaterThanOrEqual(526);
    const fetchedAfterRollback = fs.readFileSync(suite.web.nginx.accessLog, 'utf8').slice(logOffset).split('\n').filter((line) => line && !line.startsWith('/robots.txt')).length;
    expect(fetchedAfterRollback, 'pages done after the checkpoint were rolled back and fetched again').toBeGreaterThan(urlsInState(dbPath, 1, 'done').length - doneAtKill + 40);
    // The checkpoint list survived the rollback.
    await openTab(again, 'Checkpoints');
    await expect.poll(async () => again.getByRole('table', { name: 'Checkpoint list' }).getByRole('row').filter({ hasText: 'early' }).count()).toBe(1);
    await again.close();
  });
});

import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../testweb/fixture-server';
import { DUST_HOST, DUST_SITES, dustRoute } from '../testweb/scope-sites/dust';
import { CHROMIUM, CHROMIUM_ARGS, startServe, type ServeProcess } from './helpers/serve';
import { openTab, screenshot, startCrawl, urlsInState, waitForStatus } from './helpers/workbench';

let fixtures: FixtureServer;
let serve: ServeProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fixtures = await startFixtureServer(DUST_SITES, { dynamic: dustRoute });
  serve = await startServe(['--resolve', `${DUST_HOST}=127.0.0.1:${fixtures.port}`, '--closed']);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(serve.url);
});
afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await fixtures?.stop();
});

const STORY_RULE = `${DUST_HOST}: /story?id={v}$ → /story_{v}.html$`;

describe('the Duplicates view’s Rules section (issue 12 parts 5 and 6)', () => {
  it('mines the DUST host’s rules, accepts one (the queued frontier loses the merged URLs) and undoes it', async () => {
    await openTab(page, 'Crawl');
    if (!(await page.getByLabel('Threads').isVisible())) await page.getByText('Crawl settings').click();
    await page.getByLabel('Max pages (0 = no limit)').fill('22');
    await startCrawl(page, [`http://${DUST_HOST}/`]);
    await waitForStatus(page, 'stopped', 60_000);
    const queuedBefore = urlsInState(serve.dbPath, 1, 'pending');

    await openTab(page, 'Duplicates');
    await page.getByRole('button', { name: 'Mine DUST rules' }).click();
    const table = page.getByRole('table', { name: 'Mined DUST rules' });
    await expect.poll(async () => table.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
    const story = table.getByRole('row').filter({ hasText: STORY_RULE });
    expect((await story.getByRole('cell').allTextContents()).slice(0, 3)).toEqual([STORY_RULE, '7', '14 / 0']);
    expect(await table.getByRole('row').filter({ hasText: `${DUST_HOST}: /print/ → /` }).count()).toBe(1);

    await story.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(async () => page.getByTestId('dust-outcome').textContent(), { timeout: 10_000 }).toContain('5 queued URLs merged (5 fetches saved)');
    expect(await story.getByRole('button', { name: 'Accepted' }).isDisabled()).toBe(true);
    const queuedAfter = urlsInState(serve.dbPath, 1, 'pending');
    expect(queuedBefore.filter((url) => !queuedAfter.includes(url))).toEqual([8, 9, 10, 11, 12].map((id) => `http://${DUST_HOST}/story?id=${id}`).sort());
    await screenshot(page, 'duplicates-rules');

    await page.getByRole('list', { name: 'Accepted rules' }).getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => page.getByTestId('dust-outcome').textContent(), { timeout: 10_000 }).toContain('Rule 1 undone: 5 URLs back in the frontier');
    expect(urlsInState(serve.dbPath, 1, 'pending')).toEqual(queuedBefore);

    // A content group selected: the rules that take one of its pages to another, to promote.
    await page.getByRole('table', { name: 'Content groups' }).getByRole('row').filter({ hasText: `http://${DUST_HOST}/story?id=1` }).click();
    const groupRules = page.getByLabel('Rules for the selected content group').getByRole('listitem');
    await expect.poll(async () => groupRules.count(), { timeout: 10_000 }).toBe(2);
    await groupRules.filter({ hasText: `${DUST_HOST}: /print/ → /` }).getByRole('button', { name: 'Make it a rule' }).click();
    await expect.poll(async () => page.getByTestId('dust-outcome').textContent(), { timeout: 10_000 }).toContain('Accepted news.test: /print/ → /: 5 queued URLs merged');
  });
});

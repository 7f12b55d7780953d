/**
 * Crawler traps in the workbench (issue 12 part 4): a default crawl of the fixture web's endless
 * calendar (trap.test) ends by itself; the Frontier view shows "trap suspected" on the host with
 * the evidence, the held URLs are a state of their own, and Release queues them again.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTab, screenshot, startCrawl, useWorkbench, waitForStatus } from './helpers/workbench';

const workbench = useWorkbench();
let page: Page;

beforeAll(async () => {
  page = await workbench.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(workbench.serve.url);
});

describe('crawler traps in the Frontier view', () => {
  it('an endless calendar is held, shown with its evidence, and released', async () => {
    await startCrawl(page, ['http://trap.test/']);
    // The trap guard holds the calendar: the crawl ends by itself.
    await waitForStatus(page, 'finished', 60_000);
    await openTab(page, 'Frontier');
    const trap = page.getByTestId('trap');
    await expect.poll(async () => trap.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => trap.textContent()).toMatch(/trap\.test\s*trap suspected: near-identical pages under one pattern, [1-9]\d* URLs? held/);
    expect(await trap.textContent()).toContain('/calendar/{n}/{n}');
    await expect.poll(async () => page.getByRole('table', { name: 'Frontier hosts' }).textContent()).toContain('trap suspected');
    // The held URLs are a state of the URL table.
    await page.getByLabel('State').selectOption('held');
    await expect.poll(async () => page.getByRole('table', { name: 'Frontier URLs' }).textContent(), { timeout: 10_000 }).toContain('http://trap.test/calendar/');
    await screenshot(page, 'traps-frontier');
    await trap.getByRole('button', { name: 'Release' }).click();
    await expect.poll(async () => page.getByRole('status').filter({ hasText: 'Released' }).textContent()).toMatch(/Released: [1-9]\d* URLs of trap\.test are queued again \(resume the crawl to fetch them\)/);
    await expect.poll(async () => trap.textContent()).toContain('trap released');
  });
});

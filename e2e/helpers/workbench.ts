import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { REPO_ROOT } from './serve';

/** Where the tests write the README's screenshots. */
export const SCREENSHOTS = path.join(REPO_ROOT, 'e2e', 'screenshots');

/** Saves a screenshot of the page as e2e/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** Switches the workbench to a view by its tab. */
export async function openTab(page: Page, name: 'Crawl' | 'Frontier' | 'Duplicates' | 'Settings' | 'Checkpoints' | 'Crawls'): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect.poll(async () => page.getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
}

/** A live counter of the Crawl view ("Fetched", "Queued", …) as a number. */
export async function counter(page: Page, label: string): Promise<number> {
  return Number(await page.getByTestId(`counter-${label.replace(/\s+/g, '-').toLowerCase()}`).textContent());
}

/** Types seeds into "Seed URL" and clicks "Start crawl". */
export async function startCrawl(page: Page, seeds: string[]): Promise<void> {
  await openTab(page, 'Crawl');
  await page.getByRole('textbox', { name: 'Seed URL' }).fill(seeds.join('\n'));
  await page.getByRole('button', { name: 'Start crawl' }).click();
  await expect.poll(async () => page.getByTestId('counter-status').textContent(), { timeout: 10_000 }).not.toBe('idle');
}

/** Waits for the Crawl view's status counter to read `status`. */
export async function waitForStatus(page: Page, status: string, timeoutMs = 120_000): Promise<void> {
  await expect.poll(async () => page.getByTestId('counter-status').textContent(), { timeout: timeoutMs, interval: 250 }).toBe(status);
}

/** Runs `read` on a read-only connection to a Crawlbench database file. */
export function readDatabase<T>(file: string, read: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** URLs of a crawl in one state, sorted. */
export function urlsInState(file: string, crawlId: number, state: string): string[] {
  return readDatabase(file, (db) => db.prepare(`SELECT url FROM urls WHERE crawl_id = ? AND state = ? ORDER BY url`).pluck().all(crawlId, state) as string[]);
}

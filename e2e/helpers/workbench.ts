import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestWeb, type TestWeb } from '../../testweb';
import { CHROMIUM, CHROMIUM_ARGS, REPO_ROOT, startServe, type ServeProcess } from './serve';

/**
 * Where the tests write screenshots: test-results/screenshots (ignored by git), so a test run never
 * changes a tracked file. `npm run screenshots` sets CRAWLBENCH_SCREENSHOTS=e2e/screenshots to
 * refresh the README's images on purpose.
 */
export const SCREENSHOTS = path.resolve(REPO_ROOT, process.env.CRAWLBENCH_SCREENSHOTS ?? path.join('test-results', 'screenshots'));

/** Saves a screenshot of the page as <SCREENSHOTS>/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** Switches the workbench to a view by its tab. */
export async function openTab(page: Page, name: 'Crawl' | 'Frontier' | 'Duplicates' | 'Compare' | 'Settings' | 'Checkpoints' | 'History' | 'Pages' | 'Overview'): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect.poll(async () => page.getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
}

/** A live counter of the Crawl view ("Fetched", "Queued", …) as a number. */
export async function counter(page: Page, label: string): Promise<number> {
  return Number(await page.getByTestId(`counter-${label.replace(/\s+/g, '-').toLowerCase()}`).textContent());
}

/** Types seeds into "Seed URL" and clicks "Start crawl" (with `trapGuard: false`, after turning the trap guard off in the form). */
export async function startCrawl(page: Page, seeds: string[], options: { trapGuard?: false } = {}): Promise<void> {
  await openTab(page, 'Crawl');
  if (options.trapGuard === false) {
    // An endless fixture (trap.test) meant to run until stopped: the trap guard would hold it.
    await page.getByTestId('crawl-settings').evaluate((details) => details.setAttribute('open', ''));
    await page.getByLabel('Hold suspected crawler traps').setChecked(false);
  }
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

/** What a spec file shares: the test web, one browser-mode server on it (closed mode) and Chromium. */
export interface Workbench {
  readonly web: TestWeb;
  readonly serve: ServeProcess;
  readonly browser: Browser;
}

/**
 * Starts the test web, `crawlbench serve` mapped onto it in closed mode, and Debian's Chromium
 * before the file's tests, and stops them after. Read the fields inside tests (set in beforeAll).
 */
export function useWorkbench(): Workbench {
  const state = {} as { web: TestWeb; serve: ServeProcess; browser: Browser };
  beforeAll(async () => {
    state.web = await startTestWeb();
    state.serve = await startServe([...state.web.resolveFlags, '--closed']);
    state.browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await state.browser?.close();
    await state.serve?.stop();
    await state.web?.stop();
  });
  return state;
}

/** What a spec that starts (and kills) its own servers shares: the test web, one browser, a temp folder, every server it started. */
export interface ServerSuite {
  web: TestWeb;
  browser: Browser;
  /** A temporary folder for the spec's databases, removed after it. */
  dir: string;
  /** Servers the spec started (push each one): all are stopped after it. */
  servers: ServeProcess[];
}

/**
 * For specs that start, kill and restart servers themselves (crash resume, lost connection): the
 * test web and Chromium for the whole file, a temp folder named after `name`, and every server
 * pushed to `servers` stopped at the end.
 */
export function useServerSuite(name: string): ServerSuite {
  const state = { servers: [] as ServeProcess[] } as ServerSuite;
  beforeAll(async () => {
    state.web = await startTestWeb();
    state.browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), `crawlbench-e2e-${name}-`));
  });
  afterAll(async () => {
    await state.browser?.close();
    for (const serve of state.servers) await serve.stop();
    await state.web?.stop();
    if (state.dir) fs.rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}

/**
 * Creates a named checkpoint from the Checkpoints view and waits until the list shows it.
 * @returns the checkpoint's row in "Checkpoint list"
 */
export async function createCheckpoint(page: Page, name: string): Promise<Locator> {
  await openTab(page, 'Checkpoints');
  await page.getByLabel('Checkpoint name').fill(name);
  await page.getByRole('button', { name: 'Create checkpoint' }).click();
  const row = page.getByRole('table', { name: 'Checkpoint list' }).getByRole('row').filter({ hasText: name });
  await expect.poll(async () => row.count(), { timeout: 10_000 }).toBe(1);
  return row;
}

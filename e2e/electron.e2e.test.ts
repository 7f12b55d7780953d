import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startTestWeb } from '../testweb';
import { REPO_ROOT } from './helpers/serve';
import { openTab, screenshot } from './helpers/workbench';

function electronBinary(): string | null {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    return typeof binary === 'string' && fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const display = Boolean(process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']);
const reason = !binary ? 'the Electron binary is not installed (its download failed: no network)' : !display ? 'there is no display (set DISPLAY, e.g. under xvfb-run)' : null;
if (reason) console.log(`Electron spec did not run here: ${reason}.`);

describe('Electron app', () => {
  it.skipIf(reason !== null)('crawls the Python docs mirror from the desktop window', async () => {
    const web = await startTestWeb();
    const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-electron-'));
    const app = await electron.launch({
      executablePath: binary!,
      args: [REPO_ROOT, ...web.resolveFlags, '--closed'],
      env: { ...process.env, CRAWLBENCH_DB: path.join(dbDir, 'crawl.db') },
    });
    try {
      const page = await app.firstWindow();
      await page.getByRole('textbox', { name: 'Seed URL' }).fill('http://docs.python.test/');
      await page.getByRole('button', { name: 'Start crawl' }).click();
      await expect.poll(async () => page.getByTestId('counter-status').textContent(), { timeout: 120_000 }).toBe('finished');
      expect(Number(await page.getByTestId('counter-fetched').textContent())).toBeGreaterThanOrEqual(526);
      expect(await page.getByTestId('counter-queued').textContent()).toBe('0');
      await screenshot(page, 'electron-crawl');
      // The frontier drained: the host has nothing queued and the URL table lists the whole site.
      await openTab(page, 'Frontier');
      const hostRow = page.getByRole('table', { name: 'Frontier hosts' }).getByRole('row').filter({ hasText: 'docs.python.test' });
      await expect.poll(async () => (await hostRow.getByRole('cell').allTextContents())[2], { timeout: 10_000 }).toBe('0');
      await expect.poll(async () => page.getByTestId('frontier-total').textContent(), { timeout: 10_000 }).toMatch(/^5\d\d URLs$/);
    } finally {
      await app.close();
      await web.stop();
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWeb, type TestWeb } from './testweb';
import { CHROMIUM, CHROMIUM_ARGS, REPO_ROOT, startServe, type ServeProcess } from './helpers/serve';

/** HTML pages reachable from the docs root (wget -r on the same nginx, Debian python3.11-doc). */
const DOCS_HTML_PAGES = 526;

let web: TestWeb;
let serve: ServeProcess;
let browser: Browser;

beforeAll(async () => {
  web = await startTestWeb();
  serve = await startServe([...web.resolveFlags, '--closed']);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await web?.stop();
});

describe('browser mode', () => {
  it('crawls the Python docs mirror from the GUI: counters rise, the frontier table fills, the crawl ends by itself', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(serve.url);
    await page.getByRole('textbox', { name: 'Seed URL' }).fill('http://docs.python.test/');
    await page.getByRole('button', { name: 'Start crawl' }).click();

    const fetched = page.getByTestId('counter-fetched');
    // While it runs, the frontier table shows URLs of the site.
    await expect.poll(async () => Number(await fetched.textContent()), { timeout: 60_000 }).toBeGreaterThan(20);
    await expect.poll(async () => page.getByRole('table', { name: 'Frontier URLs' }).getByRole('row').count(), { timeout: 10_000 }).toBeGreaterThan(5);
    // It ends on its own with every page fetched (526 HTML pages plus one linked .py download).
    await expect.poll(async () => page.getByTestId('counter-status').textContent(), { timeout: 120_000 }).toBe('finished');
    expect(Number(await fetched.textContent())).toBeGreaterThanOrEqual(DOCS_HTML_PAGES);
    expect(await page.getByTestId('counter-queued').textContent()).toBe('0');
    expect(await page.getByRole('progressbar', { name: 'Crawl progress' }).getAttribute('aria-valuenow')).toBe('100');
    await expect.poll(async () => page.getByTestId('frontier-total').textContent(), { timeout: 5_000 }).toMatch(/^5\d\d URLs$/);
    const firstCell = page.getByRole('table', { name: 'Frontier URLs' }).getByRole('row').nth(1).getByRole('cell').first();
    expect(await firstCell.textContent()).toBe('http://docs.python.test/');
    fs.mkdirSync(path.join(REPO_ROOT, 'e2e', 'screenshots'), { recursive: true });
    await page.screenshot({ path: path.join(REPO_ROOT, 'e2e', 'screenshots', 'crawl.png') });
    await page.close();
  });

  it('shows an inline error for an invalid seed and starts nothing', async () => {
    const page = await browser.newPage();
    await page.goto(serve.url);
    await page.getByRole('textbox', { name: 'Seed URL' }).fill('not a url');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await expect.poll(async () => page.getByRole('alert').first().textContent()).toContain('not an absolute URL');
    expect(await page.getByTestId('counter-status').textContent()).toBe('idle');
    await page.close();
  });

  it('refuses HTTP requests and sockets without the per-launch token', async () => {
    const noToken = await fetch(`${serve.origin}/`);
    expect(noToken.status).toBe(401);
    const wrongToken = await fetch(`${serve.origin}/?token=${'x'.repeat(serve.token.length)}`);
    expect(wrongToken.status).toBe(401);
    const asset = await fetch(`${serve.origin}/index.html`);
    expect(asset.status).toBe(401);
    const withToken = await fetch(serve.url);
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('set-cookie')).toContain('HttpOnly');

    const refused = await new Promise<string>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${new URL(serve.origin).port}/ipc`);
      socket.on('unexpected-response', (_request, response) => resolve(`http ${response.statusCode}`));
      socket.on('open', () => resolve('open'));
      socket.on('error', (error) => resolve(`error ${error.message}`));
    });
    expect(refused).toBe('http 401');

    const answer = await new Promise<unknown>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${new URL(serve.origin).port}/ipc?token=${serve.token}`, { origin: serve.origin });
      socket.on('open', () => socket.send(JSON.stringify({ kind: 'request', seq: 1, channel: 'crawl.start', payload: { seeds: 42 } })));
      socket.on('message', (data) => {
        resolve(JSON.parse(data.toString()));
        socket.close();
      });
      socket.on('error', reject);
    });
    expect(answer).toMatchObject({ kind: 'response', seq: 1, result: { ok: false, error: { code: 'INVALID_PAYLOAD' } } });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_REQUEST_FRAME_BYTES, MAX_SEED_CHARS, MAX_SEED_LIST_CHARS } from '../shared/ipc/limits';
import { createAppServices, type AppServices } from '../app/services/app-services';
import { newToken, startBrowserServer, type BrowserServer, type BrowserServerOptions } from './browser-server';
import { closeCodeOf, exchange, ipcRequest, rawGet, rawHttp, rawWebSocket, wsFrame } from './server-probes';

const TOKEN = 'test-token-0123456789abcdef';
let dir: string;
let rendererDir: string;
const running: BrowserServer[] = [];
const apps: AppServices[] = [];
let logged: string[];

/** Services that answer every request with its channel and payload size, or throw for `crawl.stop`. */
const fakeServices: BrowserServerOptions['services'] = {
  dispatch: async (channel, payload) => {
    if (channel === 'crawl.stop') throw new Error('handler exploded');
    return { ok: true, value: { channel, bytes: JSON.stringify(payload ?? null).length } };
  },
  subscribe: () => () => undefined,
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-server-'));
  rendererDir = path.join(dir, 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><script type="module" src="./assets/app.js"></script>');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1);');
  logged = [];
});
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
  for (const app of apps.splice(0)) await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(options: Partial<BrowserServerOptions> = {}): Promise<BrowserServer> {
  const server = await startBrowserServer({ services: fakeServices, rendererDir, token: TOKEN, log: (line) => logged.push(line), ...options });
  running.push(server);
  return server;
}

const upgradeHeaders = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' };
const ipcUrl = (server: BrowserServer): string => `ws://127.0.0.1:${server.port}/t/${server.token}/ipc`;

/** The server still serves the page and answers an IPC request. */
async function expectAlive(server: BrowserServer): Promise<void> {
  const page = await fetch(server.url);
  expect(page.status).toBe(200);
  const reply = await ipcRequest(ipcUrl(server), server.origin, 'app.getInfo', {}, 7);
  expect(reply).toMatchObject({ kind: 'frame', frame: { kind: 'response', seq: 7, result: { ok: true } } });
}

describe('browser-mode server: token in the path, no cookie', () => {
  it('prints a URL with the token in its path and serves the page and its relative assets under it', async () => {
    const server = await start();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/t/${TOKEN}/`);
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('./assets/app.js');
    expect((await fetch(`${server.url}assets/app.js`)).headers.get('content-type')).toContain('text/javascript');
    const bare = await fetch(`${server.origin}/t/${TOKEN}`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe(`/t/${TOKEN}/`);
    expect((await fetch(`${server.url}nothing.js`)).status).toBe(404);
    expect((await fetch(`${server.url}..%2F..%2Fetc%2Fpasswd`)).status).toBe(400);
  });

  it('never sets a cookie, and a request or upgrade carrying only the old cookie is 401', async () => {
    const server = await start();
    const cookie = `crawlbench_token=${TOKEN}`;
    const responses = await Promise.all([
      fetch(server.url),
      fetch(`${server.url}assets/app.js`),
      fetch(`${server.origin}/?token=${TOKEN}`),
      fetch(`${server.origin}/`),
      fetch(`${server.origin}/`, { headers: { cookie } }),
      fetch(`${server.origin}/assets/app.js`, { headers: { cookie } }),
      fetch(`${server.origin}/t/${'x'.repeat(TOKEN.length)}/`, { headers: { cookie } }),
    ]);
    for (const response of responses) expect(response.headers.get('set-cookie')).toBeNull();
    expect(responses.map((r) => r.status)).toEqual([200, 200, 401, 401, 401, 401, 401]);
    expect(await responses[4]!.text()).toMatch(/^Unauthorized: open the URL Crawlbench printed/);

    const viaCookie = await rawGet(server.port, '/ipc', { cookie, ...upgradeHeaders });
    expect(viaCookie.status).toBe(401);
    const viaQuery = await exchange(`ws://127.0.0.1:${server.port}/ipc?token=${TOKEN}`, server.origin, '{}');
    expect(viaQuery).toEqual({ kind: 'error', message: 'http 401' });
  });

  it('keeps the Host and Origin checks', async () => {
    const server = await start();
    const wrongHost = await rawHttp(server.port, `GET /t/${TOKEN}/ HTTP/1.1\r\nHost: evil.test:${server.port}\r\nConnection: close\r\n\r\n`);
    expect(wrongHost.status).toBe(403);
    expect(await exchange(ipcUrl(server), 'http://evil.test', '{}')).toEqual({ kind: 'error', message: 'http 403' });
    expect(await ipcRequest(ipcUrl(server), `http://localhost:${server.port}`, 'app.getInfo', {})).toMatchObject({ kind: 'frame' });
  });

  it('makes a token that never begins with "-" (it must survive `serve --token TOKEN`), unique per launch', async () => {
    const tokens = new Set(Array.from({ length: 2000 }, () => newToken()));
    expect(tokens.size).toBe(2000);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{48}$/);
    const server = await startBrowserServer({ services: fakeServices, rendererDir, log: (line) => logged.push(line) });
    running.push(server);
    expect(server.token).toMatch(/^[0-9a-f]{48}$/);
    expect(server.url).toBe(`${server.origin}/t/${server.token}/`);
  });

  it('refuses a token that is not 16+ URL-safe characters', async () => {
    await expect(startBrowserServer({ services: fakeServices, rendererDir, token: 'a/b?c' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });
});

describe('browser-mode server: one request never kills it (issue 9, defect 1)', () => {
  it('answers GET /%E0%A4%A with a valid token with 400', async () => {
    const server = await start();
    // `?token=` as well, so the same request carried a valid token for the server before the fix.
    const reply = await rawGet(server.port, `/t/${TOKEN}/%E0%A4%A?token=${TOKEN}`);
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('malformed percent-encoding');
    await expectAlive(server);
  });

  it('answers `GET http://[` without a token with 400, as a request and as an upgrade', async () => {
    const server = await start();
    expect((await rawGet(server.port, 'http://[')).status).toBe(400);
    const upgrade = await rawGet(server.port, 'http://[', upgradeHeaders);
    expect(upgrade.status).toBe(400);
    const badVersion = await rawGet(server.port, `/t/${TOKEN}/ipc`, { ...upgradeHeaders, 'sec-websocket-version': '99' });
    expect(badVersion.status).toBe(400);
    expect(badVersion.text).toContain('Sec-WebSocket-Version');
    await expectAlive(server);
  });

  it('answers a request the HTTP parser refuses with a one-line 400 or 431', async () => {
    const server = await start();
    const garbage = await rawHttp(server.port, 'G\0T / HTTP/1.1\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(garbage.text).toMatch(/\r\n\r\nBad Request: malformed HTTP request\n$/);
    const overflow = await rawGet(server.port, `/t/${TOKEN}/`, { 'x-big': 'b'.repeat(40_000) });
    expect(overflow.status).toBe(431);
    await expectAlive(server);
  });

  it('closes only the socket that sends a frame over the limit (1009), at the default limit from the contract', async () => {
    const server = await start();
    const raw = await rawWebSocket(server.port, `/t/${TOKEN}/ipc`);
    // The header alone declares the oversize payload; the server refuses before buffering it.
    raw.socket.write(wsFrame(0x1, Buffer.from('{'), { declaredLength: MAX_REQUEST_FRAME_BYTES + 1 }));
    expect(await raw.closed()).toBe(true);
    expect(closeCodeOf(raw.received())).toBe(1009);
    await expectAlive(server);
  });

  it('closes a socket whose frame is over a lowered limit, and the next socket still works', async () => {
    const server = await start({ maxFrameBytes: 64 * 1024 });
    const big = JSON.stringify({ kind: 'request', seq: 1, channel: 'crawl.start', payload: { seeds: ['http://a.test/'.padEnd(70 * 1024, 'x')] } });
    expect(await exchange(ipcUrl(server), server.origin, big)).toMatchObject({ kind: 'close', code: 1009 });
    await expectAlive(server);
  });

  it('closes a socket that sends a text frame with invalid UTF-8 (1007)', async () => {
    const server = await start();
    expect(await exchange(ipcUrl(server), server.origin, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))).toMatchObject({ kind: 'close', code: 1007 });
    await expectAlive(server);
  });

  it('closes a socket that sends a binary, non-JSON or non-request frame (1003, with the reason)', async () => {
    const server = await start();
    expect(await exchange(ipcUrl(server), server.origin, Buffer.from('{}'), { binary: true })).toEqual({ kind: 'close', code: 1003, reason: 'Frames must be JSON text' });
    expect(await exchange(ipcUrl(server), server.origin, 'not json')).toEqual({ kind: 'close', code: 1003, reason: 'Frames must be JSON' });
    expect(await exchange(ipcUrl(server), server.origin, JSON.stringify({ kind: 'request', seq: 1e300, channel: 'app.getInfo' }))).toMatchObject({ kind: 'close', code: 1003 });
    await expectAlive(server);
  });

  it('answers a frame whose handler throws with an INTERNAL error frame', async () => {
    const server = await start();
    const reply = await ipcRequest(ipcUrl(server), server.origin, 'crawl.stop', { crawlId: 1 }, 3);
    expect(reply).toEqual({ kind: 'frame', frame: { kind: 'response', seq: 3, result: { ok: false, error: { code: 'INTERNAL', message: 'handler exploded' } } } });
    await expectAlive(server);
  });
});

describe('browser-mode server: large legitimate payloads', () => {
  function realServices(): AppServices {
    const app = createAppServices({ dbPath: path.join(dir, 'app.db'), mode: 'browser', version: 'test', closedResolver: true });
    apps.push(app);
    return app;
  }
  const seeds = (count: number): string[] => Array.from({ length: count }, (_, i) => `http://seed-${i}.invalid/${'path/'.repeat(60)}page-${i}.html`);

  it('starts a crawl with 20,000 seeds of ~330 characters (a 6.6 MB frame, a pasted URL list) through the socket', async () => {
    const app = realServices();
    const server = await start({ services: app });
    const list = seeds(20_000);
    expect(JSON.stringify(list).length).toBeGreaterThan(6_000_000);
    const reply = await ipcRequest(ipcUrl(server), server.origin, 'crawl.start', { seeds: list, settings: { maxPages: 1 } });
    expect(reply).toMatchObject({ kind: 'frame', frame: { kind: 'response', seq: 1, result: { ok: true, value: { crawlId: 1 } } } });
    expect(app.db.prepare('SELECT seeds_json FROM crawls WHERE id = 1').pluck().get()).toBe(JSON.stringify(list));
    await app.dispatch('crawl.stop', { crawlId: 1 });
    await expectAlive(server);
  });

  it('answers seeds over the list budget (60,000 seeds, a 20 MB frame) with the schema\'s INVALID_PAYLOAD, not a dead server', async () => {
    const server = await start({ services: realServices() });
    const reply = await ipcRequest(ipcUrl(server), server.origin, 'crawl.start', { seeds: seeds(60_000) });
    expect(reply).toMatchObject({ kind: 'frame', frame: { kind: 'response', result: { ok: false, error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining('seeds') } } } });
    await expectAlive(server);
  });

  it('sets the frame limit from the contract: the largest crawl.start fits', () => {
    // The seed budget spent on the longest seeds, every character a 3-byte one in UTF-8.
    const count = Math.floor(MAX_SEED_LIST_CHARS / MAX_SEED_CHARS);
    const largest = JSON.stringify({ kind: 'request', seq: Number.MAX_SAFE_INTEGER, channel: 'crawl.start', payload: { seeds: Array.from({ length: count }, () => '\u20ac'.repeat(MAX_SEED_CHARS)) } });
    expect(Buffer.byteLength(largest)).toBeGreaterThan(3 * MAX_SEED_LIST_CHARS);
    expect(Buffer.byteLength(largest)).toBeLessThan(MAX_REQUEST_FRAME_BYTES);
  });
});


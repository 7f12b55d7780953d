import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../shared/ipc/channels';
import type { IpcHandlers } from '../shared/ipc/contract';
import { createDispatcher } from '../app/ipc/dispatch';
import { startBrowserServer, type BrowserServer } from './browser-server';
import { exchange, ipcRequest, rawHttp, rawWebSocket, wsFrame, type RawReply, type SocketOutcome } from './server-probes';
import { seededRandom } from '../tests/support/seeded-random';

/**
 * Seeded fuzz of browser mode's two entry points: raw HTTP request lines, paths and headers over a
 * net socket, and WebSocket frames (text, binary, invalid UTF-8, non-JSON, wrong shapes, huge seq
 * numbers, unknown channels, protocol-level garbage). Same seed, same cases. The dispatcher is the
 * real one (every payload goes through the contract's schemas) over handlers that only echo, or
 * throw for crawl.stop, so no case crawls or writes anything.
 */

const SEED = 0x9e3779b9;
const HTTP_CASES = 300;
const WS_CASES = 300;
const RAW_FRAME_CASES = 60;
const CONCURRENCY = 20;


const TOKEN = 'fuzz-token-0123456789abcdef';
let dir: string;
let server: BrowserServer;
const ipcUrl = (): string => `ws://127.0.0.1:${server.port}/t/${TOKEN}/ipc`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-fuzz-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><p>workbench</p>');
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), '');
  const handlers = new Proxy({} as IpcHandlers, {
    get: (_target, channel) => async (request: unknown) => {
      if (channel === 'crawl.stop') throw new Error('handler exploded');
      return { channel, request };
    },
  });
  server = await startBrowserServer({ services: { dispatch: createDispatcher(handlers), subscribe: () => () => undefined }, rendererDir: dir, token: TOKEN, log: () => undefined });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `count` cases, `CONCURRENCY` at a time, in case order. */
async function runAll<T>(count: number, makeCase: (index: number) => () => Promise<T>): Promise<T[]> {
  const cases = Array.from({ length: count }, (_, i) => makeCase(i));
  const results: T[] = [];
  for (let i = 0; i < cases.length; i += CONCURRENCY) results.push(...(await Promise.all(cases.slice(i, i + CONCURRENCY).map((run) => run()))));
  return results;
}

/** The server still serves the page and answers an IPC request. */
async function expectAlive(): Promise<void> {
  expect((await fetch(server.url)).status).toBe(200);
  expect(await ipcRequest(ipcUrl(), server.origin, 'app.getInfo', {}, 42)).toMatchObject({ kind: 'frame', frame: { kind: 'response', seq: 42, result: { ok: true } } });
}

function generators(random: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const bytes = (length: number, from = 0, to = 256): string => String.fromCharCode(...Array.from({ length }, () => from + Math.floor(random() * (to - from))));
  const int = (max: number): number => Math.floor(random() * max);
  return { pick, bytes, int };
}

/** One random, mostly malformed HTTP request as latin1 text. */
function httpCase(random: () => number, port: number): string {
  const { pick, bytes, int } = generators(random);
  if (random() < 0.3) {
    // A well-formed request, so the fuzz also covers what the server serves.
    const target = pick([`/t/${TOKEN}/`, `/t/${TOKEN}/assets/app.js`, `/t/${TOKEN}`, `/t/${TOKEN}/index.html`, `/t/${TOKEN}/nothing`, '/', `/t/${TOKEN}/%E0%A4%A`]);
    const extra = pick(['', `Cookie: crawlbench_token=${TOKEN}\r\n`, 'Origin: http://evil.test\r\n', 'Accept: */*\r\n']);
    return `${pick(['GET', 'HEAD', 'POST'])} ${target} HTTP/1.1\r\nHost: ${pick([`127.0.0.1:${port}`, `localhost:${port}`])}\r\n${extra}Connection: close\r\n\r\n`;
  }
  const method = pick(['GET', 'GET', 'HEAD', 'POST', 'PUT', 'OPTIONS', 'CONNECT', 'PRI', 'G E T', '', 'get', bytes(1 + int(8), 33, 127), 'GET'.repeat(40)]);
  const target = pick([
    () => `/t/${TOKEN}/`,
    () => `/t/${TOKEN}/${bytes(int(40), 33, 127)}`,
    () => `/t/${TOKEN}/%${bytes(int(3), 48, 127)}`,
    () => `/t/${TOKEN}/%E0%A4%A`,
    () => `/t/${TOKEN}/%00`,
    () => `/t/${TOKEN}/..%2F..%2Fetc%2Fpasswd`,
    () => `/t/${TOKEN}/%C0%AF%C0%AF`,
    () => `/t/${TOKEN}/${'a/'.repeat(int(3000))}`,
    () => `/t/${TOKEN}`,
    () => `/t/${TOKEN}/ipc`,
    () => `/t/${bytes(int(30), 33, 127)}/`,
    () => '/%E0%A4%A',
    () => 'http://[',
    () => `http://127.0.0.1:${port}/t/${TOKEN}/`,
    () => '*',
    () => '//',
    () => '',
    () => `/?token=${TOKEN}`,
    () => `/${'x'.repeat(int(20_000))}`,
    () => bytes(1 + int(60)),
    () => `/${bytes(int(30), 128, 256)}`,
  ])();
  const version = pick(['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTX/1.1', '', 'HTTP/1.1 extra']);
  const headers: string[] = [];
  const host = pick([`127.0.0.1:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, 'evil.test', '', bytes(int(20)), null]);
  if (host !== null) headers.push(`Host: ${host}`);
  const extras = [
    'Host: evil.test',
    `Cookie: crawlbench_token=${TOKEN}`,
    'Content-Length: -1',
    'Content-Length: 12abc',
    `Content-Length: ${int(100_000)}`,
    'Transfer-Encoding: chunked',
    'Transfer-Encoding: gzip, chunked, x',
    'Expect: 100-continue',
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Version: 99',
    'Origin: http://evil.test',
    `Origin: http://127.0.0.1:${port}`,
    'no colon here',
    `X-Junk: ${bytes(int(50))}`,
    `X-Big: ${'b'.repeat(int(40_000))}`,
    ': empty name',
    ' folded: continuation',
  ];
  for (let i = int(6); i > 0; i--) headers.push(pick(extras));
  const body = pick(['', '', '0\r\n\r\n', 'zz\r\n', bytes(int(200))]);
  const end = pick(['\r\n\r\n', '\r\n\r\n', '\n\n', '\r\n', '']);
  return `${method} ${target} ${version}\r\n${headers.join('\r\n')}${end}${body}`;
}

/** One random WebSocket message: text or binary data for a `ws` client to send. */
function frameCase(random: () => number): { data: string | Buffer; binary: boolean } {
  const { pick, bytes, int } = generators(random);
  const json = (depth: number): unknown =>
    depth <= 0
      ? pick([null, true, 0, -1, 1e308, 'x', bytes(int(20), 32, 127)])
      : pick([() => Array.from({ length: int(4) }, () => json(depth - 1)), () => ({ [bytes(1 + int(6), 97, 123)]: json(depth - 1), kind: json(0) }), () => json(0)])();
  const seq = pick([1, 0, -1, 1.5, 2 ** 53 - 1, 2 ** 53, 1e308, -1e308, '1', null, [], {}, undefined]);
  const channel = pick([...IPC_CHANNELS, 'nope', '', '__proto__', 'constructor', 'toString', 7, null, 'x'.repeat(5000)]);
  const payload = pick([undefined, {}, null, json(3), { crawlId: pick([1, -1, 0, 1.5, 'a', 2 ** 60]) }, { seeds: [bytes(int(30))] }, { __proto__: { polluted: true } }]);
  if (random() < 0.25) {
    // A well-formed request: some answer ok, some INVALID_PAYLOAD, crawl.stop's handler throws.
    const [wellFormedChannel, wellFormedPayload] = pick([
      ['app.getInfo', {}],
      ['settings.get', {}],
      ['crawl.list', {}],
      ['crawl.stop', { crawlId: 1 + int(5) }],
      ['crawl.getProgress', { crawlId: int(3) - 1 }],
      ['frontier.queryUrls', { crawlId: 1, offset: int(10), limit: int(2000) }],
    ] as const);
    return { data: JSON.stringify({ kind: 'request', seq: int(2 ** 31), channel: wellFormedChannel, payload: wellFormedPayload }), binary: false };
  }
  return pick([
    () => ({ data: JSON.stringify({ kind: 'request', seq, channel, payload }), binary: false }),
    () => ({ data: JSON.stringify({ kind: pick(['response', 'event', 'REQUEST', 7, null]), seq, channel, payload }), binary: false }),
    () => ({ data: JSON.stringify(json(4)) ?? 'null', binary: false }),
    () => ({ data: `${'['.repeat(int(20_000))}${']'.repeat(int(20_000))}`, binary: false }),
    () => ({ data: bytes(int(100), 32, 127), binary: false }),
    () => ({ data: Buffer.from(bytes(1 + int(100)), 'latin1'), binary: false }),
    () => ({ data: Buffer.from(bytes(int(100)), 'latin1'), binary: true }),
    () => ({ data: Buffer.from(JSON.stringify({ kind: 'request', seq: 1, channel: 'app.getInfo', payload: {} })), binary: true }),
    () => ({ data: '', binary: false }),
  ])();
}

/** One protocol-level frame no client library would send. */
function rawFrameCase(random: () => number): Buffer {
  const { pick, bytes, int } = generators(random);
  const payload = Buffer.from(bytes(int(200)), 'latin1');
  return pick([
    () => wsFrame(pick([3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf]), payload),
    () => wsFrame(1, payload, { rsv: 1 + int(7) }),
    () => wsFrame(0, payload),
    () => wsFrame(9, Buffer.alloc(126)),
    () => wsFrame(8, payload, { fin: false }),
    () => wsFrame(8, Buffer.from([0x03, 0xe7])),
    () => wsFrame(9, Buffer.from('ping')),
    () => wsFrame(1, Buffer.from('{"kind":'), { fin: false }),
    () => wsFrame(1, payload, { declaredLength: 2 ** 40 }),
    () => Buffer.from(bytes(1 + int(30)), 'latin1'),
  ])();
}

describe('browser-mode server fuzz (seeded)', () => {
  it(`survives ${HTTP_CASES} malformed HTTP requests: each gets a non-5xx answer or a close, never a cookie`, { timeout: 120_000 }, async () => {
    const random = seededRandom(SEED);
    const requests = Array.from({ length: HTTP_CASES }, () => httpCase(random, server.port));
    const replies: RawReply[] = await runAll(HTTP_CASES, (i) => () => rawHttp(server.port, Buffer.from(requests[i]!, 'latin1'), 5000));
    const statuses = new Map<string, number>();
    replies.forEach((reply, i) => {
      const key = String(reply.status ?? (reply.timedOut ? 'timeout' : 'closed'));
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      expect.soft(reply.status === null || reply.status < 500, `case ${i}: ${JSON.stringify(requests[i]!.slice(0, 200))} → ${reply.text.slice(0, 120)}`).toBe(true);
      expect.soft(/^set-cookie:/im.test(reply.text), `case ${i} set a cookie`).toBe(false);
      expect.soft(reply.timedOut, `case ${i} left the connection open: ${JSON.stringify(requests[i]!.slice(0, 200))}`).toBe(false);
    });
    expect(statuses.get('200')).toBeGreaterThan(0);
    expect(statuses.get('400')).toBeGreaterThan(0);
    await expectAlive();
  });

  it(`survives ${WS_CASES} hostile WebSocket messages: each gets a response frame or a close with a reason`, { timeout: 120_000 }, async () => {
    const random = seededRandom(SEED ^ 0x5bd1e995);
    const cases = Array.from({ length: WS_CASES }, () => frameCase(random));
    const outcomes: SocketOutcome[] = await runAll(WS_CASES, (i) => () => exchange(ipcUrl(), server.origin, cases[i]!.data, { binary: cases[i]!.binary, timeoutMs: 15_000 }));
    outcomes.forEach((outcome, i) => {
      const what = `case ${i}: ${String(cases[i]!.data).slice(0, 160)} → ${JSON.stringify(outcome).slice(0, 200)}`;
      if (outcome.kind === 'frame') {
        expect.soft(outcome.frame, what).toMatchObject({ kind: 'response', result: { ok: expect.any(Boolean) } });
      } else {
        expect.soft(outcome.kind, what).toBe('close');
        if (outcome.kind === 'close') expect.soft([1003, 1007], what).toContain(outcome.code);
      }
    });
    const codes = outcomes.map((o) => (o.kind === 'frame' ? ((o.frame as { result: { ok: boolean; error?: { code: string } } }).result.error?.code ?? 'ok') : o.kind === 'close' ? `close ${o.code}` : o.kind));
    expect(codes).toContain('ok');
    expect(codes).toContain('INVALID_PAYLOAD');
    expect(codes).toContain('INTERNAL');
    expect(codes).toContain('close 1003');
    expect(codes).toContain('close 1007');
    await expectAlive();
  });

  it(`survives ${RAW_FRAME_CASES} protocol-level garbage frames on raw sockets`, { timeout: 120_000 }, async () => {
    const random = seededRandom(SEED ^ 0x27d4eb2f);
    const frames = Array.from({ length: RAW_FRAME_CASES }, () => rawFrameCase(random));
    await runAll(RAW_FRAME_CASES, (i) => async () => {
      const raw = await rawWebSocket(server.port, `/t/${TOKEN}/ipc`);
      raw.socket.write(frames[i]!);
      await raw.closed(300);
      raw.socket.destroy();
    });
    await expectAlive();
  });
});

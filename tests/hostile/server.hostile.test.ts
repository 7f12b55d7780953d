/**
 * Hostile input against the real `crawlbench serve` process (issue 9, defects 1 and 2): each case
 * sends one request or frame that used to kill the server or leak the token, then checks that the
 * process is still alive and answering (the page loads, an IPC request gets its response), and
 * reports one line with the serve process's peak RSS (VmHWM).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../e2e/helpers/serve';
import { closeCodeOf, exchange, ipcRequest, rawGet, rawWebSocket, wsFrame } from '../../server/server-probes';
import { MAX_REQUEST_FRAME_BYTES } from '../../shared/ipc/limits';
import { reportCase } from './report';
import { peakRssKb } from '../support/peak-rss';

let serve: ServeProcess;
let port: number;

beforeAll(async () => {
  serve = await startServe(['--closed']);
  port = Number(new URL(serve.origin).port);
});
afterAll(async () => {
  await serve?.stop();
});

const ipcUrl = (): string => `ws://127.0.0.1:${port}/t/${serve.token}/ipc`;
const upgradeHeaders = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' };
const seeds = (count: number): string[] => Array.from({ length: count }, (_, i) => `http://seed-${i}.invalid/${'path/'.repeat(60)}page-${i}.html`);

/** Peak resident set of the serve process so far (VmHWM), MB; null once it is gone. */
function servePeakRssMb(): number | null {
  const kb = peakRssKb(serve.child.pid);
  return kb === null ? null : kb / 1024;
}

/** Whether the serve process is alive and answering: the page loads and app.getInfo is answered. */
async function answering(): Promise<string | null> {
  if (serve.child.exitCode !== null || serve.child.signalCode !== null) return `serve exited (${serve.child.exitCode ?? serve.child.signalCode})`;
  const page = await fetch(serve.url).catch((error: Error) => error);
  if (page instanceof Error || page.status !== 200) return `page: ${page instanceof Error ? page.message : `HTTP ${page.status}`}`;
  const reply = await ipcRequest(ipcUrl(), serve.origin, 'app.getInfo', {}, 99);
  const frame = reply.kind === 'frame' ? (reply.frame as { seq?: number; result?: { ok?: boolean } }) : null;
  return frame?.seq === 99 && frame.result?.ok === true ? null : `IPC: ${JSON.stringify(reply).slice(0, 120)}`;
}

/**
 * Runs one hostile case: `send` returns what happened and whether that is what the issue
 * requires; the case passes only if it is and the server still answers afterwards.
 */
async function hostileCase(name: string, send: () => Promise<{ outcome: string; expected: boolean }>): Promise<void> {
  const { outcome, expected } = await send();
  const dead = await answering();
  const verdict = expected && dead === null ? 'pass' : 'fail';
  reportCase({ name, outcome: `${outcome}, ${dead === null ? 'server still answers' : dead}`, peakRssMb: servePeakRssMb(), verdict });
  expect(verdict, `${name}: ${outcome}; ${dead ?? 'answering'}`).toBe('pass');
}

describe('hostile: browser-mode server (issue 9, defects 1-2)', () => {
  it('server: GET /%E0%A4%A with a valid token', async () => {
    await hostileCase('server: GET /%E0%A4%A with a valid token', async () => {
      const reply = await rawGet(port, `/t/${serve.token}/%E0%A4%A`);
      return { outcome: `HTTP ${reply.status ?? 'none'}`, expected: reply.status === 400 };
    });
  });

  it('server: GET http://[ without a token', async () => {
    await hostileCase('server: GET http://[ without a token', async () => {
      const reply = await rawGet(port, 'http://[');
      return { outcome: `HTTP ${reply.status ?? 'none'}`, expected: reply.status === 400 };
    });
  });

  it('server: WebSocket upgrade to http://[', async () => {
    await hostileCase('server: WebSocket upgrade to http://[', async () => {
      const reply = await rawGet(port, 'http://[', upgradeHeaders);
      return { outcome: `HTTP ${reply.status ?? 'none'}`, expected: reply.status === 400 };
    });
  });

  it('server: frame over the contract limit', async () => {
    await hostileCase(`server: WebSocket frame declaring ${MAX_REQUEST_FRAME_BYTES + 1} bytes`, async () => {
      const raw = await rawWebSocket(port, `/t/${serve.token}/ipc`);
      raw.socket.write(wsFrame(0x1, Buffer.from('{'), { declaredLength: MAX_REQUEST_FRAME_BYTES + 1 }));
      const closed = await raw.closed();
      const code = closeCodeOf(raw.received());
      return { outcome: closed ? `socket closed with ${code ?? 'no close frame'}` : 'socket left open', expected: closed && code === 1009 };
    });
  });

  it('server: invalid UTF-8 text frame', async () => {
    await hostileCase('server: text frame with invalid UTF-8', async () => {
      const reply = await exchange(ipcUrl(), serve.origin, Buffer.from([0x7b, 0xc3, 0x28, 0xff, 0x7d]));
      return { outcome: reply.kind === 'close' ? `socket closed with ${reply.code}` : JSON.stringify(reply).slice(0, 80), expected: reply.kind === 'close' && reply.code === 1007 };
    });
  });

  it('server: crawl.start with 20,000 pasted seeds (a 6.6 MB frame)', async () => {
    await hostileCase('server: crawl.start with 20000 seeds in one 6.6 MB frame', async () => {
      const reply = await ipcRequest(ipcUrl(), serve.origin, 'crawl.start', { seeds: seeds(20_000), settings: { maxPages: 1 } });
      const result = reply.kind === 'frame' ? (reply.frame as { result: { ok: boolean; value?: { crawlId: number } } }).result : null;
      if (result?.ok) await ipcRequest(ipcUrl(), serve.origin, 'crawl.stop', { crawlId: result.value!.crawlId });
      return { outcome: result?.ok ? `crawl ${result.value!.crawlId} started` : JSON.stringify(reply).slice(0, 120), expected: result?.ok === true };
    });
  });

  it('server: crawl.start over the seed-list budget (60,000 seeds, a 20 MB frame)', async () => {
    await hostileCase('server: crawl.start with 60000 seeds in one 20 MB frame', async () => {
      const reply = await ipcRequest(ipcUrl(), serve.origin, 'crawl.start', { seeds: seeds(60_000) });
      const error = reply.kind === 'frame' ? (reply.frame as { result: { error?: { code: string } } }).result.error : undefined;
      return { outcome: error ? `answered ${error.code}` : JSON.stringify(reply).slice(0, 120), expected: error?.code === 'INVALID_PAYLOAD' };
    });
  });

  it('server: the page sets no cookie; the old cookie alone is 401', async () => {
    await hostileCase('server: token cookie (request with only crawlbench_token cookie)', async () => {
      const page = await fetch(serve.url);
      const cookie = `crawlbench_token=${serve.token}`;
      const viaCookie = await fetch(`${serve.origin}/`, { headers: { cookie } });
      const upgrade = await rawGet(port, '/ipc', { cookie, ...upgradeHeaders });
      const setCookie = page.headers.get('set-cookie');
      return {
        outcome: `page Set-Cookie ${setCookie === null ? 'none' : 'present'}, cookie-only GET ${viaCookie.status}, cookie-only upgrade ${upgrade.status ?? 'none'}`,
        expected: setCookie === null && viaCookie.status === 401 && upgrade.status === 401,
      };
    });
  });
});

/**
 * Issue 14 part 5: `--http2` fetches an https server that offers HTTP/2 over it (ALPN h2, undici
 * allowH2), robots.txt included; without the flag the same server is fetched over HTTP/1.1. The
 * server is local (testweb/h2-server.ts, a throwaway certificate trusted through NODE_EXTRA_CA_CERTS).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startH2Server, type H2Server } from '../../testweb/h2-server';
import { crawlbenchAsync } from './harness';

let server: H2Server;
let dir: string;
beforeAll(async () => {
  server = await startH2Server(['h2.test'], {
    '/robots.txt': 'User-agent: *\nDisallow: /private/\n',
    '/': '<a href="/a.html">a</a> <a href="/private/x.html">private</a>',
    '/a.html': '<title>A</title><a href="/">home</a>',
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-h2-test-'));
});
afterAll(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function crawl(name: string, extra: string[]): Promise<{ pagesFetched: number; blocked: number }> {
  const run = await crawlbenchAsync(['crawl', 'https://h2.test/', '--db', path.join(dir, `${name}.db`), '--resolve', `h2.test=127.0.0.1:${server.port}`, '--closed', '--json', '--delay-factor', '0', '--sitemaps', 'off', ...extra], { NODE_EXTRA_CA_CERTS: server.caFile });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { pagesFetched: number; blocked: number };
}

/** The WARC-Protocol fields of each response record of a .warc.gz file, joined: 'h2 tls/1.3'. */
function responseProtocols(file: string): string[] {
  const text = gunzipSync(fs.readFileSync(file)).toString('latin1');
  return text
    .split(/(?=^WARC\/1\.1\r\n)/m)
    .map((record) => record.split('\r\n\r\n')[0]!)
    .filter((head) => /^WARC-Type: response$/m.test(head))
    .map((head) => [...head.matchAll(/^WARC-Protocol: (.*)$/gm)].map((match) => match[1]).join(' '));
}

describe('HTTP/2 (issue 14 part 5)', () => {
  it('fetches every URL and robots.txt over HTTP/2 with --http2, over HTTP/1.1 without', async () => {
    const before = server.requests.length;
    expect(await crawl('h2', ['--http2'])).toMatchObject({ pagesFetched: 2, blocked: 1 });
    const h2 = server.requests.slice(before);
    expect(h2.map((r) => r.path).sort()).toEqual(['/', '/a.html', '/robots.txt']);
    expect(new Set(h2.map((r) => r.httpVersion))).toEqual(new Set(['2.0']));

    const middle = server.requests.length;
    expect(await crawl('h1', [])).toMatchObject({ pagesFetched: 2, blocked: 1 });
    expect(new Set(server.requests.slice(middle).map((r) => r.httpVersion))).toEqual(new Set(['1.1']));
  });

  it('archives each fetch with the protocols it came over: WARC-Protocol h2 or http/1.1, then the TLS version', async () => {
    const h2File = path.join(dir, 'h2.warc.gz');
    await crawl('h2-warc', ['--http2', '--warc', h2File]);
    const h1File = path.join(dir, 'h1.warc.gz');
    await crawl('h1-warc', ['--warc', h1File]);
    const h2 = responseProtocols(h2File);
    const h1 = responseProtocols(h1File);
    expect(h2).toHaveLength(2);
    expect(h1).toHaveLength(2);
    for (const protocols of h2) expect(protocols).toMatch(/^h2 tls\/1\.[23]$/);
    for (const protocols of h1) expect(protocols).toMatch(/^http\/1\.1 tls\/1\.[23]$/);
  });
});

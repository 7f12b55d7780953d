import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostResolver } from './dns';
import { Fetcher, type FetchOutcome, type FetcherOptions } from './fetcher';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface SeenRequest {
  method: string | undefined;
  url: string | undefined;
  host: string | undefined;
  userAgent: string | undefined;
  acceptEncoding: string | undefined;
}

/** Fails quickly with a clear message instead of running into the 60 s test timeout. */
async function withinMs<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

describe('Fetcher', () => {
  let server: http.Server;
  let port: number;
  let routes: Map<string, Handler>;
  let seen: SeenRequest[];
  const timers = new Set<NodeJS.Timeout>();
  const fetchers: Fetcher[] = [];

  beforeEach(async () => {
    routes = new Map();
    seen = [];
    server = http.createServer((req, res) => {
      seen.push({
        method: req.method,
        url: req.url,
        host: req.headers.host,
        userAgent: req.headers['user-agent'],
        acceptEncoding: req.headers['accept-encoding'],
      });
      const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (handler) handler(req, res);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    server.closeAllConnections();
    await Promise.all(fetchers.splice(0).map((f) => withinMs(f.close(), 2_000, 'Fetcher.close()').catch(() => undefined)));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  }

  function makeFetcher(options: Partial<FetcherOptions> = {}): Fetcher {
    const fetcher = new Fetcher({
      resolver: new HostResolver({ overrides: [{ host: 'site.test', address: '127.0.0.1', port }], closed: true }),
      userAgent: 'CrawlbenchTest/1.0',
      timeoutMs: 5_000,
      maxBodyBytes: 1024 * 1024,
      maxRedirects: 10,
      keepAliveTimeoutMs: 1_000,
      ...options,
    });
    fetchers.push(fetcher);
    return fetcher;
  }

  function redirect(status: number, location: string): Handler {
    return (_req, res) => res.writeHead(status, { location }).end('moved');
  }

  function expectOk(outcome: FetchOutcome): asserts outcome is Extract<FetchOutcome, { ok: true }> {
    if (!outcome.ok) throw new Error(`expected ok, got ${outcome.error.code}: ${outcome.error.message}`);
  }

  function expectError(outcome: FetchOutcome, ...codes: string[]): void {
    if (outcome.ok) throw new Error(`expected an error (${codes.join('|')}), got HTTP ${outcome.status}`);
    expect(codes).toContain(outcome.error.code);
  }

  it('fetches a 200 page through the resolver map', async () => {
    routes.set('/page', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-robots-tag': 'noindex', 'x-other': 'dropped' }).end('<title>Hello</title>'),
    );
    const outcome = await makeFetcher().fetch('http://site.test/page');
    expectOk(outcome);
    expect(outcome.status).toBe(200);
    expect(outcome.finalUrl).toBe('http://site.test/page');
    expect(outcome.contentType).toBe('text/html; charset=utf-8');
    expect(outcome.body.toString()).toBe('<title>Hello</title>');
    expect(outcome.truncated).toBe(false);
    expect(outcome.redirectChain).toEqual([]);
    // A cleartext connection: HTTP/1.1, no TLS layer (the WARC-Protocol fields of its records).
    expect(outcome.protocols).toEqual(['http/1.1']);
    expect(outcome.headers['x-robots-tag']).toBe('noindex');
    expect(outcome.headers['x-other']).toBeUndefined();
    // Every header is recorded with the page, the ones the crawler does not act on too.
    expect(JSON.parse(outcome.responseHeadersJson)).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'x-robots-tag': 'noindex', 'x-other': 'dropped' });
    expect(outcome.fetchMs).toBeGreaterThanOrEqual(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/page', userAgent: 'CrawlbenchTest/1.0' });
    expect(seen[0]!.acceptEncoding).toContain('gzip');
  });

  it('sends the original host in the Host header, not the address it connects to', async () => {
    routes.set('/h', (_req, res) => res.writeHead(200).end('ok'));
    const fetcher = makeFetcher();
    expectOk(await fetcher.fetch('http://site.test/h'));
    expectOk(await fetcher.fetch('http://SITE.test:8080/h')); // override port wins over the URL port for the socket
    expect(seen.map((s) => s.host)).toEqual(['site.test', 'site.test:8080']);
  });

  it('returns HTTP error statuses as responses, not failures', async () => {
    routes.set('/gone', (_req, res) => res.writeHead(410, { 'content-type': 'text/plain', 'retry-after': '30' }).end('gone'));
    const outcome = await makeFetcher().fetch('http://site.test/gone');
    expectOk(outcome);
    expect(outcome.status).toBe(410);
    expect(outcome.headers['retry-after']).toBe('30');
  });

  it('does not follow a redirect by default: the 3xx is the result, with its resolved Location and no body (RFC 9110 §15.4)', async () => {
    routes.set('/moved', redirect(301, 'new#frag'));
    routes.set('/new', (_req, res) => res.writeHead(200).end('never asked'));
    const outcome = await makeFetcher().fetch('http://site.test/moved');
    expectOk(outcome);
    expect(outcome).toMatchObject({ status: 301, finalUrl: 'http://site.test/moved', redirect: { location: 'http://site.test/new', raw: 'new#frag' }, redirectChain: [] });
    expect(outcome.body.length).toBe(0);
    expect(seen.map((s) => s.url)).toEqual(['/moved']);
  });

  it('keeps an unresolvable Location raw, with no resolved target', async () => {
    routes.set('/bad', redirect(302, 'http://[bad'));
    const outcome = await makeFetcher().fetch('http://site.test/bad');
    expectOk(outcome);
    expect(outcome.redirect).toEqual({ location: null, raw: 'http://[bad' });
  });

  // robots.txt fetches follow redirects (RFC 9309 §2.3.1.2): the chain, loop and limit below.
  it('follows a redirect chain and records each hop in order with its status', async () => {
    routes.set('/r1', redirect(302, '/r2'));
    routes.set('/r2', redirect(301, 'http://site.test/r3'));
    routes.set('/r3', redirect(307, 'r4#fragment'));
    routes.set('/r4', redirect(308, '/final'));
    routes.set('/final', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('done'));
    const outcome = await makeFetcher().fetch('http://site.test/r1', { followRedirects: true });
    expectOk(outcome);
    expect(outcome.finalUrl).toBe('http://site.test/final');
    expect(outcome.body.toString()).toBe('done');
    expect(outcome.redirectChain).toEqual([
      { url: 'http://site.test/r1', status: 302 },
      { url: 'http://site.test/r2', status: 301 },
      { url: 'http://site.test/r3', status: 307 },
      { url: 'http://site.test/r4', status: 308 },
    ]);
    expect(seen.map((s) => s.url)).toEqual(['/r1', '/r2', '/r3', '/r4', '/final']);
  });

  it('does not follow a 3xx without Location', async () => {
    routes.set('/nolocation', (_req, res) => res.writeHead(302).end('no location'));
    for (const followRedirects of [true, false]) {
      const outcome = await makeFetcher().fetch('http://site.test/nolocation', { followRedirects });
      expectOk(outcome);
      expect(outcome.status).toBe(302);
      expect(outcome.redirectChain).toEqual([]);
      expect(outcome.redirect).toBeNull();
    }
  });

  it('detects a redirect loop with REDIRECT_LOOP and keeps the chain', async () => {
    routes.set('/a', redirect(302, '/b'));
    routes.set('/b', redirect(302, '/a'));
    const outcome = await makeFetcher().fetch('http://site.test/a', { followRedirects: true });
    expectError(outcome, 'REDIRECT_LOOP');
    expect(outcome.redirectChain).toEqual([
      { url: 'http://site.test/a', status: 302 },
      { url: 'http://site.test/b', status: 302 },
    ]);
    expect(seen.map((s) => s.url)).toEqual(['/a', '/b']);
  });

  it('detects a self-redirect as a loop', async () => {
    routes.set('/self', redirect(301, '/self'));
    expectError(await makeFetcher().fetch('http://site.test/self', { followRedirects: true }), 'REDIRECT_LOOP');
    expect(seen).toHaveLength(1);
  });

  it('follows exactly maxRedirects hops', async () => {
    for (let i = 0; i < 3; i++) routes.set(`/hop${i}`, redirect(302, `/hop${i + 1}`));
    routes.set('/hop3', (_req, res) => res.writeHead(200).end('arrived'));
    const outcome = await makeFetcher({ maxRedirects: 3 }).fetch('http://site.test/hop0', { followRedirects: true });
    expectOk(outcome);
    expect(outcome.redirectChain).toHaveLength(3);
    expect(outcome.finalUrl).toBe('http://site.test/hop3');
  });

  it('fails with REDIRECT_LIMIT after more than maxRedirects hops', async () => {
    for (let i = 0; i < 10; i++) routes.set(`/hop${i}`, redirect(302, `/hop${i + 1}`));
    const outcome = await makeFetcher({ maxRedirects: 3 }).fetch('http://site.test/hop0', { followRedirects: true });
    expectError(outcome, 'REDIRECT_LIMIT');
    expect(outcome.redirectChain.map((h) => h.url)).toEqual(['http://site.test/hop0', 'http://site.test/hop1', 'http://site.test/hop2', 'http://site.test/hop3']);
    expect(seen).toHaveLength(4); // /hop4 is never requested
  });

  it('maxRedirects 0 refuses the first redirect', async () => {
    routes.set('/once', redirect(302, '/target'));
    expectError(await makeFetcher({ maxRedirects: 0 }).fetch('http://site.test/once', { followRedirects: true }), 'REDIRECT_LIMIT');
  });

  it('refuses a redirect to a non-HTTP scheme with BAD_REDIRECT', async () => {
    routes.set('/ftp', redirect(302, 'ftp://site.test/file'));
    expectError(await makeFetcher().fetch('http://site.test/ftp', { followRedirects: true }), 'BAD_REDIRECT');
  });

  it('refuses an unmapped host with HOST_NOT_MAPPED; the server sees no request', async () => {
    routes.set('/x', (_req, res) => res.writeHead(200).end('should not be reached'));
    const outcome = await makeFetcher().fetch('http://unmapped.test/x');
    expectError(outcome, 'HOST_NOT_MAPPED');
    expect(seen).toHaveLength(0);
  });

  it('refuses a redirect to an unmapped host, keeping the chain so far', async () => {
    routes.set('/away', redirect(302, 'http://elsewhere.test/'));
    const outcome = await makeFetcher().fetch('http://site.test/away', { followRedirects: true });
    expectError(outcome, 'HOST_NOT_MAPPED');
    expect(outcome.redirectChain).toEqual([{ url: 'http://site.test/away', status: 302 }]);
    expect(seen).toHaveLength(1);
  });

  it('fails with TIMEOUT when the server answers slower than timeoutMs', async () => {
    routes.set('/slow', (_req, res) => later(3_000, () => res.writeHead(200).end('too late')));
    const started = performance.now();
    const outcome = await makeFetcher({ timeoutMs: 300 }).fetch('http://site.test/slow');
    expectError(outcome, 'TIMEOUT');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('fails with TIMEOUT when headers arrive but the body trickles past timeoutMs', async () => {
    routes.set('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '1000' });
      res.write('<html>');
      later(3_000, () => res.end());
    });
    const started = performance.now();
    const outcome = await withinMs(makeFetcher({ timeoutMs: 300 }).fetch('http://site.test/trickle'), 2_500, 'fetch');
    expectError(outcome, 'TIMEOUT');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('the timeout budget spans redirects', async () => {
    routes.set('/slow-hop1', (_req, res) => later(200, () => res.writeHead(302, { location: '/slow-hop2' }).end()));
    routes.set('/slow-hop2', (_req, res) => later(200, () => res.writeHead(302, { location: '/slow-hop3' }).end()));
    routes.set('/slow-hop3', (_req, res) => later(200, () => res.writeHead(200).end('late')));
    const outcome = await makeFetcher({ timeoutMs: 450 }).fetch('http://site.test/slow-hop1', { followRedirects: true });
    expectError(outcome, 'TIMEOUT');
  });

  it('reports a socket destroyed mid-response as CONNECTION_RESET or FETCH_FAILED', async () => {
    routes.set('/cut', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100000' });
      res.write('<html>'.repeat(100));
      later(20, () => req.socket.destroy());
    });
    const outcome = await withinMs(makeFetcher().fetch('http://site.test/cut'), 3_000, 'fetch');
    expectError(outcome, 'CONNECTION_RESET', 'FETCH_FAILED');
  });

  it('reports a socket destroyed before any response as CONNECTION_RESET or FETCH_FAILED', async () => {
    routes.set('/drop', (req) => req.socket.destroy());
    const outcome = await withinMs(makeFetcher().fetch('http://site.test/drop'), 3_000, 'fetch');
    expectError(outcome, 'CONNECTION_RESET', 'FETCH_FAILED');
  });

  it('refused connections map to CONNECTION_REFUSED', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const fetcher = makeFetcher({ resolver: new HostResolver({ overrides: [{ host: 'dead.test', address: '127.0.0.1', port: deadPort }], closed: true }) });
    expectError(await fetcher.fetch('http://dead.test/'), 'CONNECTION_REFUSED');
  });

  it('truncates a body over maxBodyBytes at exactly maxBodyBytes', async () => {
    const big = Buffer.alloc(200_000, 0x61);
    routes.set('/big', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(big.length) }).end(big));
    const outcome = await withinMs(makeFetcher({ maxBodyBytes: 10_000 }).fetch('http://site.test/big'), 3_000, 'fetch');
    expectOk(outcome);
    expect(outcome.truncated).toBe(true);
    expect(outcome.body.length).toBe(10_000);
  });

  it('does not truncate a body of exactly maxBodyBytes', async () => {
    routes.set('/exact', (_req, res) => res.writeHead(200).end(Buffer.alloc(10_000, 0x62)));
    const outcome = await makeFetcher({ maxBodyBytes: 10_000 }).fetch('http://site.test/exact');
    expectOk(outcome);
    expect(outcome.truncated).toBe(false);
    expect(outcome.body.length).toBe(10_000);
  });

  it('decodes a gzip response under the cap', async () => {
    const html = '<html>' + 'gzip me '.repeat(1_000) + '</html>';
    routes.set('/gz', (_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(zlib.gzipSync(html)));
    const outcome = await makeFetcher().fetch('http://site.test/gz');
    expectOk(outcome);
    expect(outcome.body.toString()).toBe(html);
    expect(outcome.wireBytes).toBeLessThan(html.length);
    expect(outcome.headers['content-encoding']).toBe('gzip');
  });

  it('truncates a gzip response whose decoded size exceeds maxBodyBytes, within the timeout', async () => {
    const wire = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20)); // ~20 kB on the wire
    routes.set('/gzbig', (_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(wire));
    const outcome = await withinMs(makeFetcher({ maxBodyBytes: 1024 * 1024, timeoutMs: 1_000 }).fetch('http://site.test/gzbig'), 2_000, 'fetch');
    expectOk(outcome);
    expect(outcome.truncated).toBe(true);
    expect(outcome.body.length).toBe(1024 * 1024);
  });

  it('reports a corrupt gzip response as BODY_DECODE_FAILED', async () => {
    routes.set('/badgz', (_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end('not gzip at all'));
    expectError(await withinMs(makeFetcher().fetch('http://site.test/badgz'), 3_000, 'fetch'), 'BODY_DECODE_FAILED');
  });

  it('reuses the connection for sequential requests (keep-alive)', async () => {
    const remotePorts: number[] = [];
    routes.set('/ka', (req, res) => {
      remotePorts.push(req.socket.remotePort ?? -1);
      res.writeHead(200, { 'content-length': '2' }).end('ok');
    });
    const fetcher = makeFetcher();
    for (let i = 0; i < 6; i++) expectOk(await fetcher.fetch('http://site.test/ka'));
    // undici may open a second socket while the first is being returned to the pool; both are then reused.
    expect(remotePorts).toHaveLength(6);
    expect(new Set(remotePorts).size).toBeLessThanOrEqual(2);
  });
});

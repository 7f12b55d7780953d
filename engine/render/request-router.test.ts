import { describe, expect, it } from 'vitest';
import { CodedError } from '../../shared/types/result';
import type { FetchOutcome } from '../fetch/fetcher';
import { browserHeaders, MAX_RENDER_REQUESTS_PER_PAGE, routeRequest, SubresourceGate, type PageRouteState, type RenderRequest } from './request-router';

const state = (): PageRouteState => ({ pageUrl: 'http://a.test/page', documentServed: false, fetched: 0 });
const request = (url: string, extra: Partial<RenderRequest> = {}): RenderRequest => ({ url, method: 'GET', resourceType: 'script', mainFrameNavigation: false, ...extra });

describe('routeRequest: what happens to each request of a rendered page', () => {
  it('answers the page itself once from the fetched body; a later main-frame navigation is blocked', () => {
    const s = state();
    expect(routeRequest(request('http://a.test/page#x', { resourceType: 'document', mainFrameNavigation: true }), s)).toEqual({ action: 'document' });
    expect(routeRequest(request('http://a.test/page', { resourceType: 'document', mainFrameNavigation: true }), s)).toEqual({ action: 'block', reason: 'navigation' });
    expect(routeRequest(request('http://a.test/elsewhere', { resourceType: 'document', mainFrameNavigation: true }), s)).toEqual({ action: 'block', reason: 'navigation' });
  });

  it('fetches scripts, styles, XHR and frames through the gate; skips images, media and fonts', () => {
    const s = state();
    for (const resourceType of ['script', 'stylesheet', 'xhr', 'fetch', 'document']) expect(routeRequest(request('http://a.test/x', { resourceType }), s)).toEqual({ action: 'fetch' });
    for (const resourceType of ['image', 'media', 'font']) expect(routeRequest(request('http://a.test/x', { resourceType }), s)).toEqual({ action: 'skip', resourceType });
    expect(s.fetched).toBe(5);
  });

  it('blocks writes and other schemes; lets data: and blob: through (no network)', () => {
    const s = state();
    expect(routeRequest(request('http://a.test/beacon', { method: 'POST' }), s)).toEqual({ action: 'block', reason: 'method' });
    expect(routeRequest(request('ftp://a.test/x'), s)).toEqual({ action: 'block', reason: 'scheme' });
    expect(routeRequest(request('chrome-extension://abc/x.js'), s)).toEqual({ action: 'block', reason: 'scheme' });
    expect(routeRequest(request('data:text/javascript,1'), s)).toEqual({ action: 'continue' });
    expect(routeRequest(request('blob:http://a.test/123'), s)).toEqual({ action: 'continue' });
    expect(routeRequest(request('http://a.test/x', { method: 'head' }), s)).toEqual({ action: 'fetch' });
  });

  it('blocks requests past the per-page cap', () => {
    const s = { ...state(), fetched: MAX_RENDER_REQUESTS_PER_PAGE };
    expect(routeRequest(request('http://a.test/x'), s)).toEqual({ action: 'block', reason: 'request-cap' });
  });
});

describe('browserHeaders', () => {
  it('keeps the answer\'s headers but the encoding, length, cookies and the truncation marker', () => {
    const json = JSON.stringify({ 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': '10', 'set-cookie': 'a=1', 'access-control-allow-origin': '*', ':truncated': '1 of 9' });
    expect(browserHeaders(json, 'application/javascript')).toEqual({ 'content-type': 'application/javascript', 'access-control-allow-origin': '*' });
    expect(browserHeaders('not json', undefined)).toEqual({});
  });
});

/** A fake origin server: path → [status, body]; records each request with its time. */
function fakeWeb(routes: Record<string, [number, string]>, mapped: readonly string[]) {
  const log: { url: string; atMs: number }[] = [];
  let clock = 0;
  const fetch = async (url: string): Promise<FetchOutcome> => {
    log.push({ url, atMs: clock });
    const route = routes[url];
    const fetchMs = 10;
    clock += fetchMs;
    if (!route) return { ok: true, finalUrl: url, status: 404, contentType: 'text/plain', headers: {}, responseHeadersJson: '{}', body: Buffer.from('no'), wireBytes: 2, truncated: false, redirectChain: [], redirect: null, fetchMs, setCookies: [], protocols: ['http/1.1'] };
    return { ok: true, finalUrl: url, status: route[0], contentType: 'text/plain', headers: {}, responseHeadersJson: '{"content-type":"text/plain"}', body: Buffer.from(route[1]), wireBytes: route[1].length, truncated: false, redirectChain: [], redirect: null, fetchMs, setCookies: [], protocols: ['http/1.1'] };
  };
  const resolve = async (host: string) => {
    if (!mapped.includes(host)) throw new CodedError('HOST_NOT_MAPPED', `${host} not mapped`);
    return {};
  };
  const sleep = async (ms: number) => {
    clock += ms;
  };
  return { log, fetch, resolve, sleep, now: () => clock };
}

describe('SubresourceGate: every allowed request through the resolver, robots.txt and politeness', () => {
  const politeness = { minDelayMs: 100, maxDelayMs: 1000, delayFactor: 0 };

  it('refuses unmapped hosts without asking them anything, robots.txt included', async () => {
    const web = fakeWeb({}, ['a.test']);
    const gate = new SubresourceGate({ ...web, userAgent: 'Crawlbench/0.1', obeyRobots: true, politeness });
    expect(await gate.request('http://elsewhere.invalid/x.js')).toEqual({ kind: 'blocked', reason: 'host-not-mapped' });
    expect(web.log).toEqual([]);
  });

  it('asks robots.txt once per origin before anything else, and blocks what it disallows', async () => {
    const web = fakeWeb({ 'http://a.test/robots.txt': [200, 'User-agent: *\nDisallow: /private/\n'], 'http://a.test/app.js': [200, 'js'] }, ['a.test']);
    const gate = new SubresourceGate({ ...web, userAgent: 'Crawlbench/0.1', obeyRobots: true, politeness });
    const [app, secret] = await Promise.all([gate.request('http://a.test/app.js'), gate.request('http://a.test/private/data.json')]);
    expect(app).toMatchObject({ kind: 'fetched', status: 200, body: Buffer.from('js') });
    expect(secret).toEqual({ kind: 'blocked', reason: 'robots' });
    expect(web.log.map((entry) => entry.url)).toEqual(['http://a.test/robots.txt', 'http://a.test/app.js']);
    // The second request to the host waited the politeness delay after the first.
    expect(web.log[1]!.atMs - web.log[0]!.atMs).toBeGreaterThanOrEqual(100);
    // A 2xx answer is reused: no second fetch.
    await gate.request('http://a.test/app.js');
    expect(web.log).toHaveLength(2);
  });

  it('sends a request its cookie (never robots.txt), and reuses an answer only for the same cookie', async () => {
    const web = fakeWeb({ 'http://a.test/api/me.json': [200, '{}'] }, ['a.test']);
    const cookies: (string | undefined)[] = [];
    const gate = new SubresourceGate({
      ...web,
      fetch: async (url, options) => {
        cookies.push(options?.cookie);
        return web.fetch(url);
      },
      userAgent: 'Crawlbench/0.1',
      obeyRobots: true,
      politeness,
    });
    await gate.request('http://a.test/api/me.json');
    await gate.request('http://a.test/api/me.json', 'sid=s-1');
    await gate.request('http://a.test/api/me.json', 'sid=s-1');
    await gate.request('http://a.test/api/me.json');
    expect(web.log.map((entry) => entry.url)).toEqual(['http://a.test/robots.txt', 'http://a.test/api/me.json', 'http://a.test/api/me.json']);
    expect(cookies).toEqual([undefined, undefined, 'sid=s-1']);
  });

  it('reads robots.txt as RFC 9309 says: 4xx allows all, 5xx disallows all; --no-robots asks none', async () => {
    const web = fakeWeb({ 'http://b.test/robots.txt': [503, ''], 'http://b.test/x.js': [200, 'x'], 'http://c.test/x.js': [200, 'x'] }, ['b.test', 'c.test']);
    const gate = new SubresourceGate({ ...web, userAgent: 'Crawlbench/0.1', obeyRobots: true, politeness });
    expect(await gate.request('http://b.test/x.js')).toEqual({ kind: 'blocked', reason: 'robots' });
    expect(await gate.request('http://c.test/x.js')).toMatchObject({ kind: 'fetched', status: 200 });
    const free = fakeWeb({ 'http://b.test/x.js': [200, 'x'] }, ['b.test']);
    const rogue = new SubresourceGate({ ...free, userAgent: 'Crawlbench/0.1', obeyRobots: false, politeness });
    expect(await rogue.request('http://b.test/x.js')).toMatchObject({ kind: 'fetched' });
    expect(free.log.map((entry) => entry.url)).toEqual(['http://b.test/x.js']);
  });

  it('passes a failed fetch on as failed, with its code', async () => {
    const web = fakeWeb({}, ['a.test']);
    const gate = new SubresourceGate({
      ...web,
      fetch: async (url) => (url.endsWith('/robots.txt') ? web.fetch(url) : { ok: false, error: { code: 'CONNECTION_REFUSED', message: 'refused' }, redirectChain: [], fetchMs: 1 }),
      userAgent: 'Crawlbench/0.1',
      obeyRobots: true,
      politeness,
    });
    expect(await gate.request('http://a.test/x.js')).toEqual({ kind: 'failed', code: 'CONNECTION_REFUSED', message: 'refused' });
  });
});

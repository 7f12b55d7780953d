import { describe, expect, it } from 'vitest';
import { RobotsCache } from './robots-cache';

const cache = () => new RobotsCache({ userAgent: 'Crawlbench/0.1', ttlMs: 1_000, maxCrawlDelayMs: 2_000, retryDelayMs: 100, maxFailures: 2 });
const robots = (status: number | null, text = '') => ({ url: 'http://a.test/robots.txt', status, text, error: status === null ? { code: 'CONNECTION_REFUSED', message: 'refused' } : null, fetchMs: 1 });

describe('RobotsCache (RFC 9309 §2.3.1)', () => {
  it('asks for robots.txt once per origin and holds other URLs while it is fetched', () => {
    const c = cache();
    expect(c.decide('http://a.test/x', 0)).toEqual({ kind: 'fetch', robotsUrl: 'http://a.test/robots.txt' });
    expect(c.decide('http://a.test/y', 0)).toEqual({ kind: 'wait' });
    expect(c.waitingReason('http://a.test')).toBe('robots.txt pending');
  });

  it('applies Disallow/Allow for our product token and caps Crawl-delay', () => {
    const c = cache();
    c.decide('http://a.test/x', 0);
    c.record(robots(200, 'User-agent: *\nDisallow: /private/\nAllow: /private/ok\nCrawl-delay: 10\n'), 0);
    expect(c.decide('http://a.test/private/secret', 1)).toEqual({ kind: 'disallowed', robotsLine: '2: Disallow: /private/' });
    expect(c.decide('http://a.test/private/ok', 1)).toEqual({ kind: 'allowed', crawlDelayMs: 2_000 });
    expect(c.decide('http://a.test/public', 1)).toEqual({ kind: 'allowed', crawlDelayMs: 2_000 });
  });

  it('quotes the deciding rule as written (comments, case and escapes kept), past CRLF and CR line ends and a BOM', () => {
    const c = cache();
    c.decide('http://a.test/x', 0);
    c.record(robots(200, '\ufeffUser-agent: *\r\n# keep out\r\n  DISALLOW: /%7Eadmin   # staff only\rAllow: /\n'), 0);
    expect(c.decide('http://a.test/~admin/x', 1)).toEqual({ kind: 'disallowed', robotsLine: '3: DISALLOW: /%7Eadmin   # staff only' });
  });

  it('treats 4xx as no rules (everything allowed)', () => {
    const c = cache();
    c.decide('http://a.test/x', 0);
    c.record(robots(404), 0);
    expect(c.decide('http://a.test/anything', 1)).toEqual({ kind: 'allowed', crawlDelayMs: 0 });
  });

  it('treats 5xx and unreachable as disallowed-for-now, retries with doubling delay, then gives up', () => {
    const c = cache();
    c.decide('http://a.test/x', 0);
    c.record({ ...robots(500), error: null }, 0);
    expect(c.decide('http://a.test/x', 50)).toEqual({ kind: 'retry-later', retryAtMs: 100 });
    expect(c.decide('http://a.test/x', 100)).toEqual({ kind: 'fetch', robotsUrl: 'http://a.test/robots.txt' });
    c.record({ ...robots(503), error: null }, 100);
    expect(c.decide('http://a.test/x', 150)).toMatchObject({ kind: 'unavailable', error: { code: 'ROBOTS_HTTP_503' }, hostUnreachable: false });
  });

  it('gives up at once on an unreachable host (refused, DNS, not in the resolver map), saying so', () => {
    const c = cache();
    c.decide('http://a.test/x', 0);
    c.record({ url: 'http://a.test/robots.txt', status: null, text: '', error: { code: 'HOST_NOT_MAPPED', message: 'not mapped' }, fetchMs: 0 }, 0);
    expect(c.decide('http://a.test/x', 1)).toEqual({ kind: 'unavailable', error: { code: 'HOST_NOT_MAPPED', message: 'not mapped' }, hostUnreachable: true });
  });

  it.each(['REDIRECT_LOOP', 'REDIRECT_LIMIT', 'BAD_REDIRECT'])(
    'a robots.txt whose redirects lead nowhere (%s) is "unavailable" (RFC 9309 §2.3.1.2): no rules, everything allowed, not retried',
    (code) => {
      const c = cache();
      c.decide('http://a.test/x', 0);
      c.record({ url: 'http://a.test/robots.txt', status: null, text: '', error: { code, message: 'redirects' }, fetchMs: 1 }, 0);
      expect(c.decide('http://a.test/private', 1)).toEqual({ kind: 'allowed', crawlDelayMs: 0 });
      expect(c.waitingReason('http://a.test')).toBeNull();
    },
  );

  it('fetches robots.txt again after the cache TTL', () => {
    const c = cache();
    c.decide('http://a.test/x', 0);
    c.record(robots(200, 'User-agent: *\nDisallow: /\n'), 0);
    expect(c.decide('http://a.test/x', 999)).toEqual({ kind: 'disallowed', robotsLine: '2: Disallow: /' });
    expect(c.decide('http://a.test/x', 1_000)).toEqual({ kind: 'fetch', robotsUrl: 'http://a.test/robots.txt' });
  });
});

describe('RobotsCache memory (issue 9, defect 3)', () => {
  it('holds at most ROBOTS_CACHE_BYTES of rules however many origins a crawl meets; an evicted origin is fetched again', async () => {
    const { ROBOTS_CACHE_BYTES } = await import('./robots-cache');
    const c = cache();
    const text = `User-agent: *\n${'Disallow: /x/y/z\n'.repeat(24_000)}`;
    for (let k = 0; k < 120; k += 1) {
      c.decide(`http://h${k}.test/`, 0);
      c.record({ url: `http://h${k}.test/robots.txt`, status: 200, text, error: null, fetchMs: 1 }, 0);
    }
    expect(c.bytes).toBeLessThanOrEqual(ROBOTS_CACHE_BYTES);
    expect(c.decide('http://h119.test/x/y/z', 1)).toEqual({ kind: 'disallowed', robotsLine: '2: Disallow: /x/y/z' });
    expect(c.decide('http://h0.test/x/y/z', 1)).toEqual({ kind: 'fetch', robotsUrl: 'http://h0.test/robots.txt' });
  });
});

describe('RobotsCache with a robots store (issue 15: kept across runs)', () => {
  it('record returns what to store for 2xx and 4xx, nothing for a 5xx or an unreachable host', () => {
    const c = cache();
    c.decide('http://a.test/x', 0);
    expect(c.record(robots(200, '\ufeffUser-agent: *\nDisallow: /p'), 50)).toEqual({ origin: 'http://a.test', status: 200, errorCode: null, body: 'User-agent: *\nDisallow: /p', fetchedAtMs: 50, expiresAtMs: 1_050 });
    expect(c.record(robots(404, 'not here'), 60)).toEqual({ origin: 'http://a.test', status: 404, errorCode: null, body: '', fetchedAtMs: 60, expiresAtMs: 1_060 });
    expect(c.record(robots(503), 70)).toBeNull();
    expect(c.record(robots(null), 80)).toBeNull();
  });

  it('a restored entry decides URLs with no fetch until its expiry, then robots.txt is asked again', () => {
    const c = cache();
    expect(c.misses('http://a.test')).toBe(true);
    c.restore({ origin: 'http://a.test', status: 200, errorCode: null, body: 'User-agent: *\nDisallow: /private/', fetchedAtMs: 0, expiresAtMs: 1_000 }, 10);
    expect(c.misses('http://a.test')).toBe(false);
    expect(c.decide('http://a.test/private/x', 500)).toEqual({ kind: 'disallowed', robotsLine: '2: Disallow: /private/' });
    expect(c.decide('http://a.test/ok', 500)).toEqual({ kind: 'allowed', crawlDelayMs: 0 });
    expect(c.decide('http://a.test/ok', 1_000)).toEqual({ kind: 'fetch', robotsUrl: 'http://a.test/robots.txt' });
  });

  it('a restored 4xx or redirect failure allows everything; an expired entry, or one past this crawl\'s shorter TTL, is ignored', () => {
    const c = cache();
    c.restore({ origin: 'http://a.test', status: null, errorCode: 'REDIRECT_LOOP', body: '', fetchedAtMs: 0, expiresAtMs: 1_000 }, 10);
    expect(c.decide('http://a.test/x', 20)).toEqual({ kind: 'allowed', crawlDelayMs: 0 });
    c.restore({ origin: 'http://b.test', status: 200, errorCode: null, body: 'User-agent: *\nDisallow: /', fetchedAtMs: 0, expiresAtMs: 100 }, 100);
    expect(c.misses('http://b.test')).toBe(true);
    // Stored for 24 h, but this crawl now trusts robots.txt for 1 s (ttlMs 1 000).
    c.restore({ origin: 'http://c.test', status: 200, errorCode: null, body: 'User-agent: *\nDisallow: /', fetchedAtMs: 0, expiresAtMs: 86_400_000 }, 1_000);
    expect(c.misses('http://c.test')).toBe(true);
  });

  it('a restore never overrides what this run already knows of the origin', () => {
    const c = cache();
    c.decide('http://a.test/x', 0);
    c.restore({ origin: 'http://a.test', status: 200, errorCode: null, body: 'User-agent: *\nDisallow: /', fetchedAtMs: 0, expiresAtMs: 1_000 }, 0);
    expect(c.decide('http://a.test/y', 1)).toEqual({ kind: 'wait' });
  });
});

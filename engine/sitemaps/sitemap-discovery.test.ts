import { describe, expect, it } from 'vitest';
import type { OutsideDecision } from '../schedule/robots-gate';
import type { ParsedSitemap } from '../parse/sitemap-parser';
import type { SitemapResult } from '../worker/protocol';
import { MAX_SITEMAPS_PER_CRAWL, SitemapDiscovery, type SettledSitemap } from './sitemap-discovery';

/** A discovery over fake robots.txt answers and a fake pool, recording what it dispatches and settles. */
function harness(options: { robots?: Record<string, string[]>; decide?: (url: string) => OutsideDecision; stored?: string[]; seeds?: string[] } = {}) {
  const dispatched: { seq: number; url: string }[] = [];
  const settled: SettledSitemap[] = [];
  const hosts = new Map<string, { busy: boolean; nextAtMs: number }>();
  let seq = 0;
  const discovery = new SitemapDiscovery(
    {
      seeds: options.seeds ?? ['http://a.test/'],
      robots: {
        decideOutside: options.decide ?? (() => ({ kind: 'allowed', crawlDelayMs: 0 })),
        robotsSitemaps: (origin) => options.robots?.[origin] ?? [],
      },
      dispatch: (url) => {
        seq += 1;
        dispatched.push({ seq, url });
        return seq;
      },
      // The frontier's host slots, as a fake: one request per host, then 5 × its fetch time (or Crawl-delay).
      hosts: {
        takeHostSlot: (host, nowMs) => {
          const state = hosts.get(host) ?? { busy: false, nextAtMs: 0 };
          if (state.busy) return { taken: false, retryAtMs: null };
          if (state.nextAtMs > nowMs) return { taken: false, retryAtMs: state.nextAtMs };
          hosts.set(host, { busy: true, nextAtMs: state.nextAtMs });
          return { taken: true };
        },
        returnHostSlot: (host, disposition) => hosts.set(host, { busy: false, nextAtMs: disposition.nowMs + Math.max(5 * disposition.fetchMs, disposition.extraDelayMs ?? 0) }),
      },
      record: (sitemap) => settled.push(sitemap),
    },
    options.stored ?? [],
  );
  const answer = (url: string, parsed: Partial<ParsedSitemap> | null, fetchMs = 10): SitemapResult => ({
    url,
    status: parsed ? 200 : 404,
    parsed: parsed ? { kind: 'urlset', entries: [], entriesOverCap: 0, gzipped: false, bytes: 100, error: null, ...parsed } : null,
    error: parsed ? null : { code: 'HTTP_404', message: 'HTTP 404' },
    fetchMs,
  });
  return { discovery, dispatched, settled, answer };
}

describe('SitemapDiscovery', () => {
  it('queues robots.txt Sitemap: lines and the /sitemap.xml probe, fetches one per host at a time, k × fetch time apart', () => {
    const { discovery, dispatched, settled, answer } = harness({ robots: { 'http://a.test': ['http://a.test/s1.xml', 'http://a.test/s2.xml'] } });
    expect(discovery.busy()).toBe(true);
    expect(discovery.dispatch(4, 0)).toBe(1);
    expect(dispatched.map((d) => d.url)).toEqual(['http://a.test/s1.xml']);
    expect(discovery.dispatch(4, 0)).toBe(0);
    discovery.onResult(1, answer('http://a.test/s1.xml', { entries: [{ loc: 'http://a.test/p', lastmod: null }] }), 100);
    expect(settled).toMatchObject([{ url: 'http://a.test/s1.xml', foundVia: 'robots', parentUrl: null, error: null }]);
    // Politeness: 5 × 10 ms after the fetch ended.
    expect(discovery.dispatch(4, 149)).toBe(0);
    expect(discovery.nextWakeAtMs()).toBe(150);
    expect(discovery.dispatch(4, 150)).toBe(1);
    discovery.onResult(2, answer('http://a.test/s2.xml', null), 160);
    discovery.dispatch(4, 1_000);
    expect(dispatched.map((d) => d.url)).toEqual(['http://a.test/s1.xml', 'http://a.test/s2.xml', 'http://a.test/sitemap.xml']);
    discovery.onResult(3, answer('http://a.test/sitemap.xml', null), 1_010);
    expect(settled.map((s) => [s.foundVia, s.error?.code ?? null])).toEqual([['robots', null], ['robots', 'HTTP_404'], ['probe', 'HTTP_404']]);
    expect(discovery.busy()).toBe(false);
  });

  it('follows an index one level: its sitemaps are queued once, an index listed by an index is not read, bad entries are counted', () => {
    const { discovery, dispatched, settled, answer } = harness();
    discovery.dispatch(1, 0);
    const index = { kind: 'sitemapindex' as const, entries: ['http://a.test/c1.xml', 'http://a.test/c1.xml#again', 'mailto:x@a.test', 'http://a.test/nested.xml'].map((loc) => ({ loc, lastmod: null })) };
    discovery.onResult(1, answer('http://a.test/sitemap.xml', index), 0);
    expect(settled[0]).toMatchObject({ foundVia: 'probe', refusedEntries: 1 });
    for (let step = 0; step < 4; step += 1) discovery.dispatch(1, 1_000 * (step + 1));
    discovery.onResult(2, answer('http://a.test/c1.xml', {}), 1_000);
    discovery.dispatch(1, 2_000);
    discovery.onResult(3, answer('http://a.test/nested.xml', { kind: 'sitemapindex', entries: [{ loc: 'http://a.test/deeper.xml', lastmod: null }] }), 2_000);
    discovery.dispatch(1, 9_000);
    expect(dispatched.map((d) => d.url)).toEqual(['http://a.test/sitemap.xml', 'http://a.test/c1.xml', 'http://a.test/nested.xml']);
    expect(settled.at(-1)).toMatchObject({ url: 'http://a.test/nested.xml', foundVia: 'index', parentUrl: 'http://a.test/sitemap.xml', error: { code: 'SITEMAP_NESTED_INDEX' } });
    expect(discovery.busy()).toBe(false);
  });

  it('reads at most MAX_SITEMAPS_PER_CRAWL sitemaps: an index past the cap has the rest counted as refused on its row', () => {
    const { discovery, settled, answer } = harness();
    discovery.dispatch(1, 0);
    const listed = MAX_SITEMAPS_PER_CRAWL + 10_000;
    const index = { kind: 'sitemapindex' as const, entries: Array.from({ length: listed }, (_, i) => ({ loc: `http://a.test/s${i}.xml`, lastmod: null })) };
    discovery.onResult(1, answer('http://a.test/sitemap.xml', index), 0);
    // The probe itself is one of the crawl's sitemaps: the index's first MAX - 1 entries are queued.
    expect(settled[0]).toMatchObject({ foundVia: 'probe', refusedEntries: listed - (MAX_SITEMAPS_PER_CRAWL - 1) });
    expect(discovery.busy()).toBe(true);
  });

  it('waits for robots.txt, never requests a sitemap it disallows, and records an unavailable host', () => {
    let robots: OutsideDecision = { kind: 'pending', wakeAtMs: null, slotsUsed: 1 };
    const decide = (url: string): OutsideDecision => (url.startsWith('http://b.test') ? { kind: 'unavailable', error: { code: 'HOST_NOT_MAPPED', message: 'no' } } : robots);
    const { discovery, dispatched, settled } = harness({ decide, seeds: ['http://a.test/', 'http://b.test/'] });
    // a.test's robots.txt is asked for (one slot); b.test is settled at once.
    expect(discovery.dispatch(4, 0)).toBe(1);
    expect(settled).toMatchObject([{ url: 'http://b.test/sitemap.xml', error: { code: 'SITEMAP_ROBOTS_UNAVAILABLE' } }]);
    robots = { kind: 'pending', wakeAtMs: 5_000, slotsUsed: 0 };
    discovery.dispatch(4, 1);
    expect(discovery.nextWakeAtMs()).toBe(5_000);
    robots = { kind: 'disallowed', robotsLine: '2: Disallow: /' };
    discovery.dispatch(4, 5_000);
    expect(dispatched).toEqual([]);
    expect(settled.at(-1)).toMatchObject({ url: 'http://a.test/sitemap.xml', result: null, error: { code: 'ROBOTS_DISALLOWED' } });
    expect(discovery.busy()).toBe(false);
  });

  it('an index of 10,000 sitemaps on one host costs one robots.txt look per scheduling step while the host is busy', () => {
    let looks = 0;
    const { discovery, dispatched, answer } = harness({
      decide: () => {
        looks += 1;
        return { kind: 'allowed', crawlDelayMs: 0 };
      },
    });
    discovery.dispatch(4, 0);
    discovery.onResult(1, answer('http://a.test/sitemap.xml', { kind: 'sitemapindex', entries: Array.from({ length: 10_000 }, (_, i) => ({ loc: `http://a.test/s${i}.xml`, lastmod: null })) }), 0);
    expect(discovery.dispatch(4, 1_000)).toBe(1);
    looks = 0;
    for (let step = 0; step < 100; step += 1) expect(discovery.dispatch(4, 1_000 + step)).toBe(0);
    expect(looks).toBe(100);
    expect(dispatched).toHaveLength(2);
  });

  it('a resumed crawl skips origins whose probe it stored, and sitemaps it stored', () => {
    const { discovery, dispatched } = harness({ stored: ['http://a.test/sitemap.xml', 'http://b.test/s.xml'], seeds: ['http://a.test/', 'http://b.test/'], robots: { 'http://b.test': ['http://b.test/s.xml'] } });
    expect(discovery.pendingOrigins()).toEqual(['http://b.test']);
    discovery.dispatch(4, 0);
    expect(dispatched.map((d) => d.url)).toEqual(['http://b.test/sitemap.xml']);
  });
});

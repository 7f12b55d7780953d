import { describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings } from '../../shared/types/crawl';
import { URL_SOURCE_BITS } from '../../shared/types/url-sources';
import { seenEntry } from '../dedupe/seen-cache';
import type { ClaimedUrl } from '../store/ports';
import type { PageResult } from '../worker/protocol';
import { LinkPipeline } from './link-pipeline';
import { createUrlIdentifier } from './url-identity';

/** Identities as a crawl's identifier makes them, with the URL as its normalized form and the last two labels as the registrable domain. */
const identify = () => createUrlIdentifier((raw) => ({ ok: true, value: { normalized: raw, key: `key:${raw}` } }), (host) => host.split('.').slice(-2).join('.'));

const from: ClaimedUrl = { id: 1, url: 'http://a.test/', host: 'a.test', depth: 0, attempts: 0, redirectHops: 0 };

function pageWith(urls: string[]): PageResult {
  return { links: urls.map((url) => ({ url, kind: 'a' as const })), nofollow: false, unresolvableLinks: 0, linksOverCap: 0 } as unknown as PageResult;
}

function pipeline(scope: CrawlSettings['scope'] = 'any'): LinkPipeline {
  return new LinkPipeline({ settings: { ...DEFAULT_CRAWL_SETTINGS, scope }, seeds: ['http://a.test/'], identify: identify(), countRefusal: () => undefined });
}

describe('LinkPipeline', () => {
  it('a link whose target its memo knows as linked names the target by id and offers no candidate; others still do', () => {
    const links = pipeline();
    const first = links.pageLinks(from, pageWith(['http://a.test/x', 'http://a.test/y']));
    expect(first.candidates.map((candidate) => candidate.url)).toEqual(['http://a.test/x', 'http://a.test/y']);
    // What ResultCommitter.unknownTargets learns from the store: /x is URL 40, linked.
    first.memos[0]!.linkedEntry = seenEntry(40, URL_SOURCE_BITS.link);
    const second = links.pageLinks(from, pageWith(['http://a.test/x', 'http://a.test/y', 'http://a.test/x#part']));
    expect(second.candidates.map((candidate) => candidate.url)).toEqual(['http://a.test/y']);
    expect(second.memos).toHaveLength(1);
    const rows = links.linkRows(from.id, second.links);
    // One row per (target, kind): the fragment spelling is the same link to /x.
    expect(rows.links.map((row) => [row.rawUrl, row.toKey === null ? null : 'key', row.toUrlId])).toEqual([
      ['http://a.test/x', null, 40],
      ['http://a.test/y', 'key', undefined],
    ]);
  });

  it('with scheme, host and origin strings shared between targets, each target keeps its own host, domain and origin (other ports, schemes, hosts)', () => {
    const links = pipeline();
    const urls = ['http://a.test/1', 'http://a.test:8080/2', 'https://a.test/3', 'http://b.a.test/4', 'http://a.test/5?q=1'];
    const { candidates } = links.pageLinks(from, pageWith(urls));
    expect(candidates.map((candidate) => [candidate.host, candidate.registrableDomain])).toEqual([
      ['a.test', 'a.test'],
      ['a.test', 'a.test'],
      ['a.test', 'a.test'],
      ['b.a.test', 'a.test'],
      ['a.test', 'a.test'],
    ]);
    // The scope rule reads a target's origin: `directory` scope from a seed at http://a.test/ keeps only that origin's paths.
    const kept = pipeline('directory').pageLinks(from, pageWith(urls)).candidates.map((candidate) => candidate.url);
    expect(kept).toEqual(['http://a.test/1', 'http://a.test/5?q=1']);
  });

  it("keeps each URL's rule verdict between its links, and works it out again once a seed's redirect widens the scope", () => {
    const links = pipeline('host');
    const page = pageWith(['http://b.test/p', 'http://a.test/q']);
    // Host scope from http://a.test/: b.test is out, for every link to it while the seeds stay.
    for (let round = 0; round < 2; round += 1) {
      expect(links.pageLinks(from, page).links.map((link) => link.refusedBy)).toEqual(['scope', null]);
    }
    // The seed redirects to b.test (Heritrix's seedsRedirectNewSeeds): the kept verdict is stale.
    const seed: ClaimedUrl = { ...from, depth: 0 };
    expect(links.redirect(seed, { location: 'http://b.test/', raw: 'http://b.test/' }).refusedBy).toBeNull();
    expect(links.pageLinks(from, page).links.map((link) => link.refusedBy)).toEqual([null, null]);
    // A resumed crawl's stored seed redirect targets widen it the same way.
    const resumed = pipeline('host');
    expect(resumed.pageLinks(from, pageWith(['http://c.test/r'])).links[0]!.refusedBy).toBe('scope');
    resumed.addSeedRedirectTargets([{ url: 'http://c.test/', registrableDomain: 'c.test' }]);
    expect(resumed.pageLinks(from, pageWith(['http://c.test/r'])).links[0]!.refusedBy).toBeNull();
  });

  it('judges a link from its kept URL verdict and its own depth, rel and page: a deeper page, a nofollow rel or page refuse what another link to the same URL follows', () => {
    const links = new LinkPipeline({ settings: { ...DEFAULT_CRAWL_SETTINGS, maxDepth: 2, obeyNofollow: true }, seeds: ['http://a.test/'], identify: identify(), countRefusal: () => undefined });
    const url = 'http://a.test/same';
    const refusal = (depth: number, rel: string | undefined, nofollow: boolean) =>
      links.pageLinks({ ...from, depth }, { ...pageWith([]), links: [{ url, kind: 'a', ...(rel ? { rel } : {}) }], nofollow } as unknown as PageResult).links[0]!.refusedBy;
    expect(refusal(0, undefined, false)).toBeNull();
    expect(refusal(2, undefined, false)).toBe('max-depth');
    expect(refusal(0, 'nofollow', false)).toBe('link-nofollow');
    expect(refusal(0, undefined, true)).toBe('nofollow');
    expect(refusal(1, undefined, false)).toBeNull();
  });
});

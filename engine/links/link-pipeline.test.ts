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
});

/** A settled sitemap as the commit batch stores it: its row and the frontier candidates of its URLs. */
import type { LinkPipeline } from '../links/link-pipeline';
import type { AliasWrite, FrontierCandidate, SitemapWrite } from '../store/ports';
import type { SettledSitemap } from './sitemap-discovery';

/**
 * The row of a settled sitemap, the candidates its page URLs make (a `<urlset>`'s, through the
 * link rules: LinkPipeline.sitemapUrls) and the aliases of their spellings (a `<loc>` is a raw
 * spelling the crawl met, like a link's href: URL groups and their canonical see it). An index's
 * entries are sitemaps, queued by the discovery, not candidates.
 */
export function sitemapWrite(settled: SettledSitemap, links: Pick<LinkPipeline, 'sitemapUrls' | 'alias'>): { write: SitemapWrite; candidates: FrontierCandidate[]; aliases: AliasWrite[] } {
  const { result } = settled;
  const parsed = result?.parsed ?? null;
  const urls = parsed?.kind === 'urlset' ? links.sitemapUrls(parsed.entries) : { candidates: [], locs: [], lastmods: [], refused: 0 };
  const aliases: AliasWrite[] = [];
  urls.candidates.forEach((candidate, index) => {
    const alias = links.alias(candidate.normalizedKey, urls.locs[index]!, null);
    if (alias) aliases.push(alias);
  });
  const write: SitemapWrite = {
    url: settled.url,
    foundVia: settled.foundVia,
    parentUrl: settled.parentUrl,
    kind: parsed?.kind ?? null,
    httpStatus: result?.status ?? null,
    gzipped: parsed?.gzipped ?? false,
    bytes: parsed?.bytes ?? 0,
    entries: parsed?.entries.length ?? 0,
    entriesOverCap: parsed?.entriesOverCap ?? 0,
    urlsRefused: urls.refused + settled.refusedEntries,
    error: settled.error,
    fetchMs: Math.round(result?.fetchMs ?? 0),
    fetchedAtMs: settled.settledAtMs,
    listed: urls.candidates.map((candidate, index) => ({ key: candidate.normalizedKey, lastmod: urls.lastmods[index] ?? null, listedAs: urls.locs[index] === candidate.url ? null : urls.locs[index]! })),
  };
  return { write, candidates: urls.candidates, aliases };
}

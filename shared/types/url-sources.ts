/**
 * Where a crawl met a URL: its sources. A URL can have several (a seed that is also linked and
 * listed in a sitemap), so they are kept as a bitmask (`urls.sources`, migration 0018), one bit per
 * source. Lives in shared/types: the engine sets the bits, the inspector and the sitemap report read them.
 */

/**
 * Every source, in display order:
 * - `seed`: given as a seed of the crawl
 * - `link`: reached through a followed link of a fetched page (`<a>`, `<area>`, frames, rel=canonical)
 * - `sitemap`: listed in a sitemap (sitemaps.org) the crawl read
 * - `redirect`: the Location of a redirect answer (RFC 9110 §15.4)
 * - `list`: given in a URL list (list mode)
 */
export const URL_SOURCES = ['seed', 'link', 'sitemap', 'redirect', 'list'] as const;

/** One source of a URL ({@link URL_SOURCES}). */
export type UrlSource = (typeof URL_SOURCES)[number];

/** Source → its bit in `urls.sources`. Stable forever: a new source takes the next free bit. */
export const URL_SOURCE_BITS: Readonly<Record<UrlSource, number>> = { seed: 1, link: 2, sitemap: 4, redirect: 8, list: 16 };

/**
 * The sources a stored bitmask names, in {@link URL_SOURCES} order (unknown bits ignored).
 * @example urlSourcesOf(6) → ['link', 'sitemap']
 * @example urlSourcesOf(0) → [] (a URL stored before migration 0018 whose source could not be told)
 */
export function urlSourcesOf(bits: number): UrlSource[] {
  return URL_SOURCES.filter((source) => (bits & URL_SOURCE_BITS[source]) !== 0);
}

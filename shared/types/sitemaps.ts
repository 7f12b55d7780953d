/**
 * What the sitemap report and the Pages table's sitemap filter name (issue 12 part 1). Lives in
 * shared/types: the engine queries by them, the CLI, the export and the renderer show them.
 */

/**
 * The Pages table's sitemap filter:
 * - `listed`: in at least one sitemap the crawl read
 * - `orphan`: listed, but neither a seed nor reached through any followed link
 * - `listed-not-indexable`: listed, and its answer is not an indexable page (a redirect, 4xx/5xx or
 *   no answer, noindex, canonicalised elsewhere, or blocked by robots.txt)
 */
export const SITEMAP_FILTERS = ['listed', 'orphan', 'listed-not-indexable'] as const;

/** One sitemap filter choice ({@link SITEMAP_FILTERS}). */
export type SitemapFilter = (typeof SITEMAP_FILTERS)[number];

/** The sitemap filter's choices in words. */
export const SITEMAP_FILTER_LABELS: Readonly<Record<SitemapFilter, string>> = {
  listed: 'In a sitemap',
  orphan: 'Orphan (in a sitemap, never linked)',
  'listed-not-indexable': 'In a sitemap, not indexable',
};

/**
 * A finding of the sitemap report, one row each:
 * - `sitemap-error`: a sitemap that could not be read whole (its coded error: SITEMAP_MALFORMED,
 *   HTTP_404 for a file robots.txt or an index names, ROBOTS_DISALLOWED …); a `/sitemap.xml` probe
 *   answered 404 or 410 is not one (the host has no sitemap there)
 * - `orphan`: listed, never linked (see `orphan` above)
 * - `not-indexable`: listed, and not an indexable page (its reason says why)
 * - `non-canonical-variant`: listed in a spelling that is not its URL group's canonical, or as a
 *   duplicate of another page's content (its reason names the canonical or the original)
 */
export const SITEMAP_FINDINGS = ['sitemap-error', 'orphan', 'not-indexable', 'non-canonical-variant'] as const;

/** One finding ({@link SITEMAP_FINDINGS}). */
export type SitemapFinding = (typeof SITEMAP_FINDINGS)[number];

/** One sitemap fetch in a crawl worker: the fetch (redirects followed), then its XML read into entries. */
import type { Fetcher } from '../fetch/fetcher';
import type { SitemapResult } from '../worker/protocol';
import { parseSitemap } from '../parse/sitemap-parser';

/**
 * Fetches the sitemap at `url` with `fetcher` (the crawl's resolver, closed mode and user agent;
 * redirects followed as for robots.txt, the body capped at SITEMAP_MAX_BYTES) and reads it.
 * @returns its status and entries; a transport failure or a non-2xx answer as `error` (the
 *   fetch's code, or HTTP_<status>); never throws: a body the parser cannot read is an `error`
 *   of the parse (SITEMAP_MALFORMED …), with the entries read before it
 */
export async function fetchSitemap(fetcher: Fetcher, url: string): Promise<SitemapResult> {
  const outcome = await fetcher.fetch(url, { followRedirects: true });
  if (!outcome.ok) return { url, status: null, parsed: null, error: outcome.error, fetchMs: outcome.fetchMs };
  if (outcome.status < 200 || outcome.status >= 300) {
    return { url, status: outcome.status, parsed: null, error: { code: `HTTP_${outcome.status}`, message: `HTTP ${outcome.status} from ${outcome.finalUrl}` }, fetchMs: outcome.fetchMs };
  }
  try {
    return { url, status: outcome.status, parsed: await parseSitemap(outcome.body, outcome.truncated), error: null, fetchMs: outcome.fetchMs };
  } catch (error) {
    return { url, status: outcome.status, parsed: null, error: { code: 'SITEMAP_MALFORMED', message: error instanceof Error ? error.message : String(error) }, fetchMs: outcome.fetchMs };
  }
}

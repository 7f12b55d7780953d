/** The links a render adds to a page's result (issue 14 part 3): those only the rendered DOM has, as link kind `rendered`. */
import { STORED_RAW_URL_CHARS } from '../links/link-rules';
import { MAX_LINKS_PER_PAGE } from '../parse/parse-html';
import type { DiscoveredLink, PageResult } from '../worker/protocol';
import type { RenderedLink } from './render-page';

/** Fragment-free URL: the key static and rendered links are compared by. */
function linkKey(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/**
 * Adds to `page.links` the http(s) links of the rendered DOM the static parse did not find (any
 * kind, compared without fragment), as kind `rendered`, in DOM order, one per URL. A link longer
 * than `maxUrlLength` is sent cut with `tooLong` (refused as url-length, as a static one); links
 * past the page's cap (MAX_LINKS_PER_PAGE in all) are counted in `page.linksOverCap`. Other
 * schemes (javascript:, mailto:) are left out: a rendered DOM is full of `javascript:` hrefs.
 * @returns how many links were added
 */
export function addRenderedLinks(page: PageResult, rendered: readonly RenderedLink[], maxUrlLength: number): number {
  const known = new Set(page.links.map((link) => linkKey(link.url)));
  let added = 0;
  for (const link of rendered) {
    if (!/^https?:/i.test(link.url)) continue;
    const key = linkKey(link.url);
    if (known.has(key)) continue;
    known.add(key);
    if (page.links.length >= MAX_LINKS_PER_PAGE) {
      page.linksOverCap += 1;
      continue;
    }
    const discovered: DiscoveredLink = link.url.length > maxUrlLength ? { url: link.url.slice(0, STORED_RAW_URL_CHARS), kind: 'rendered', tooLong: true } : { url: link.url, kind: 'rendered' };
    if (link.text !== '' && discovered.tooLong === undefined) discovered.anchorText = link.text;
    if (link.rel !== '' && discovered.tooLong === undefined) discovered.rel = link.rel;
    page.links.push(discovered);
    added += 1;
  }
  return added;
}


/**
 * A deterministic synthetic web for crawl benchmarks (issue 15): `hosts` hosts named
 * `h{N}.synthetic.test` (N from 0), each with `pagesPerHost` pages: `/` and `/p/{i}` (i from 1).
 * A page is about 44 KB of HTML: paragraphs drawn from a fixed pool (so pages differ, as real
 * pages do) and about 100 links, mostly to pages of its own host, a few to other synthetic hosts,
 * to `/missing/{i}` (404) and to `/r/{i}` (301 to a page). The same hosts × pages give
 * byte-identical pages, every page is reachable from h0's `/` and from each host's `/`, and
 * {@link syntheticExpectedCounts} says what a complete crawl fetches.
 *
 * A few pages are meant to be duplicates: every page whose number ends in 49 of each 50 repeats
 * the page before it byte for byte, and every page ending in 48 repeats the one before it with one
 * paragraph changed (a near-duplicate), so a crawler's duplicate detection has work to do.
 *
 * Rendering is string assembly from precomputed pieces (no per-request randomness, no I/O), so the
 * server (testweb/synthetic-server.ts) is not what a benchmark measures.
 */

/** The suffix every synthetic host shares (`h0.synthetic.test`, `h1.synthetic.test`, …). */
export const SYNTHETIC_DOMAIN = 'synthetic.test';

/** Links to other pages of the same host, following a page (page k links k+1 … k+SEQUENTIAL_LINKS, wrapping). */
const SEQUENTIAL_LINKS = 40;
/** Links to pages of the same host picked by hash. */
const SCATTERED_LINKS = 50;
/** Links to other hosts: one to the next host's `/` (so h0 reaches every host) and the rest by hash. */
const CROSS_HOST_LINKS = 4;
/** Distinct `/missing/{i}` and `/r/{i}` paths per host (i from 1); each page links two of each. */
const BROKEN_PATHS_PER_HOST = 5;
/** Paragraphs in the shared pool and paragraphs on one page. */
const PARAGRAPH_POOL = 256;
const PARAGRAPHS_PER_PAGE = 44;
/** Every DUPLICATE_PERIOD pages, page ≡ period-1 repeats its predecessor exactly, page ≡ period-2 nearly. */
const DUPLICATE_PERIOD = 50;

/** The size of a synthetic web: hosts and pages per host (`/` counts as one page). */
export interface SyntheticShape {
  hosts: number;
  pagesPerHost: number;
}

/** One answer of the synthetic web: status, headers and body (ASCII, so characters = bytes). */
export interface SyntheticResponse {
  status: 200 | 301 | 404;
  contentType: 'text/html; charset=utf-8' | 'text/plain; charset=utf-8';
  /** The redirect target for a 301 (an absolute path on the same host), else null. */
  location: string | null;
  body: string;
}

/** What a complete crawl of a synthetic web fetches, by kind. */
export interface SyntheticExpectedCounts {
  /** HTML pages answering 200: hosts × pagesPerHost. */
  pages: number;
  /** Distinct `/r/{i}` URLs linked (each answers 301 to a page). */
  redirects: number;
  /** Distinct `/missing/{i}` URLs linked (each answers 404). */
  notFound: number;
  /** One robots.txt per host. */
  robotsTxt: number;
  /** Every request a complete crawl makes: the sum of the above. */
  requests: number;
}

/**
 * Checks a synthetic web's size.
 * @throws RangeError INVALID_SYNTHETIC_SHAPE when hosts or pagesPerHost is not a whole number ≥ 1
 *   (pagesPerHost ≥ 2, so `/` has a page to link to), or hosts × pagesPerHost exceeds 10,000,000
 */
export function checkSyntheticShape(shape: SyntheticShape): SyntheticShape {
  const { hosts, pagesPerHost } = shape;
  if (!Number.isInteger(hosts) || hosts < 1) throw new RangeError(`INVALID_SYNTHETIC_SHAPE: hosts must be a whole number of at least 1, got ${hosts}`);
  if (!Number.isInteger(pagesPerHost) || pagesPerHost < 2) throw new RangeError(`INVALID_SYNTHETIC_SHAPE: pages per host must be a whole number of at least 2, got ${pagesPerHost}`);
  if (hosts * pagesPerHost > 10_000_000) throw new RangeError(`INVALID_SYNTHETIC_SHAPE: ${hosts} hosts × ${pagesPerHost} pages is over 10,000,000 pages`);
  return shape;
}

/** `h{index}.synthetic.test`. */
export function syntheticHost(index: number): string {
  return `h${index}.${SYNTHETIC_DOMAIN}`;
}

/** A page's path from its number: 0 → `/`, i → `/p/{i}`. */
export function syntheticPagePath(page: number): string {
  return page === 0 ? '/' : `/p/${page}`;
}

/** A 32-bit mix of up to three integers (deterministic; the same inputs give the same picks everywhere). */
function mix(a: number, b: number, c: number): number {
  let x = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35) ^ Math.imul(c + 0x27d4eb2f, 0x165667b1);
  x ^= x >>> 15;
  x = Math.imul(x, 0x2c1b3c6d);
  x ^= x >>> 12;
  x = Math.imul(x, 0x297a2d39);
  x ^= x >>> 15;
  return x >>> 0;
}

const PARAGRAPHS: readonly string[] = (() => {
  // A 600-word vocabulary of pronounceable words, then 256 paragraphs of about 100 words each.
  const syllables = ['ka', 'lo', 'mi', 'ne', 'su', 'ra', 'to', 'vi', 'den', 'mar', 'pel', 'sor', 'tan', 'bri', 'cho', 'gul'];
  const vocabulary = Array.from({ length: 600 }, (_, i) => {
    const length = 2 + (mix(i, 1, 0) % 3);
    return Array.from({ length }, (_, s) => syllables[mix(i, s, 2) % syllables.length]).join('');
  });
  return Array.from({ length: PARAGRAPH_POOL }, (_, p) => {
    const words = Array.from({ length: 96 + (p % 16) }, (_, w) => vocabulary[mix(p, w, 3) % vocabulary.length]);
    return `<p>${words.join(' ')}.</p>\n`;
  });
})();

/** The page whose content a page shows: an exact duplicate shows its predecessor's. */
function contentSource(page: number): number {
  return page % DUPLICATE_PERIOD === DUPLICATE_PERIOD - 1 ? page - 1 : page;
}

/** The broken-link indexes (1 … BROKEN_PATHS_PER_HOST) a page links: two `/missing/` and two `/r/`. */
function brokenIndexes(page: number): [number, number] {
  return [(page % BROKEN_PATHS_PER_HOST) + 1, ((page + 2) % BROKEN_PATHS_PER_HOST) + 1];
}

/**
 * Where `/r/{index}` redirects: `/p/{index}` when the host has that page, else `/`.
 * @example redirectTarget(3, 101) // '/p/3'
 */
function redirectTarget(index: number, pagesPerHost: number): string {
  return syntheticPagePath(index < pagesPerHost ? index : 0);
}

/**
 * The synthetic web's answer for one request: a page, a redirect, a 404, or robots.txt (allowing
 * everything). Unknown hosts, paths outside the site and page numbers out of range answer 404.
 * @param host lowercase host name without port
 * @param path the path (a query string is ignored)
 */
export function syntheticResponse(shape: SyntheticShape, host: string, path: string): SyntheticResponse {
  const hostIndex = parseHostIndex(host, shape.hosts);
  const query = path.indexOf('?');
  const cleanPath = query === -1 ? path : path.slice(0, query);
  if (hostIndex === null) return notFound(`No synthetic host ${host}`);
  if (cleanPath === '/robots.txt') return { status: 200, contentType: 'text/plain; charset=utf-8', location: null, body: 'User-agent: *\nAllow: /\n' };
  if (cleanPath === '/') return page(shape, hostIndex, 0);
  const match = /^\/(p|r|missing)\/([1-9]\d{0,8})$/.exec(cleanPath);
  if (!match) return notFound(`No page ${cleanPath} on ${host}`);
  const index = Number(match[2]);
  if (match[1] === 'p') return index < shape.pagesPerHost ? page(shape, hostIndex, index) : notFound(`No page ${cleanPath} on ${host}`);
  if (match[1] === 'r' && index <= BROKEN_PATHS_PER_HOST) return { status: 301, contentType: 'text/html; charset=utf-8', location: redirectTarget(index, shape.pagesPerHost), body: '' };
  return notFound(`No page ${cleanPath} on ${host}`);
}

function parseHostIndex(host: string, hosts: number): number | null {
  const match = /^h(0|[1-9]\d{0,8})\.synthetic\.test$/.exec(host);
  if (!match) return null;
  const index = Number(match[1]);
  return index < hosts ? index : null;
}

function notFound(message: string): SyntheticResponse {
  return { status: 404, contentType: 'text/html; charset=utf-8', location: null, body: `<!doctype html><html><head><title>Not found</title></head><body><p>${message}</p></body></html>` };
}

/** Renders page `pageIndex` of host `hostIndex` (exact duplicates render their source page). */
function page(shape: SyntheticShape, hostIndex: number, pageIndex: number): SyntheticResponse {
  const source = contentSource(pageIndex);
  const { hosts, pagesPerHost } = shape;
  const parts: string[] = [
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Synthetic page ${source} of host ${hostIndex}</title>`,
    `<meta name="viewport" content="width=device-width, initial-scale=1"></head>\n<body>\n<header><nav><ul>\n`,
  ];
  for (let step = 1; step <= SEQUENTIAL_LINKS; step += 1) {
    const target = (source + step) % pagesPerHost;
    parts.push(`<li><a href="${syntheticPagePath(target)}">Page ${target}</a></li>\n`);
  }
  parts.push('</ul></nav></header>\n<main>\n<article>\n');
  // A near-duplicate (page ≡ 48 mod 50) shows its predecessor's paragraphs with the last one changed.
  const near = source % DUPLICATE_PERIOD === DUPLICATE_PERIOD - 2 && source > 0;
  const textSource = near ? source - 1 : source;
  for (let p = 0; p < Math.max(PARAGRAPHS_PER_PAGE, SCATTERED_LINKS); p += 1) {
    if (p < PARAGRAPHS_PER_PAGE) {
      const pick = near && p === PARAGRAPHS_PER_PAGE - 1 ? mix(hostIndex, source, p + 1000) : mix(hostIndex, textSource, p);
      parts.push(PARAGRAPHS[pick % PARAGRAPH_POOL] as string);
    }
    // Scattered same-host links sit inside the text, as links in articles do.
    if (p < SCATTERED_LINKS) {
      const target = mix(hostIndex, source, p + 5000) % pagesPerHost;
      parts.push(`<p>See also <a href="${syntheticPagePath(target)}">page ${target}</a>.</p>\n`);
    }
  }
  parts.push('</article>\n<aside><ul>\n');
  for (const index of brokenIndexes(source)) {
    parts.push(`<li><a href="/missing/${index}">Old page ${index}</a></li>\n<li><a href="/r/${index}">Moved page ${index}</a></li>\n`);
  }
  for (let link = 0; link < CROSS_HOST_LINKS; link += 1) {
    const targetHost = link === 0 ? (hostIndex + 1) % hosts : mix(hostIndex, source, link + 9000) % hosts;
    const targetPage = link === 0 ? 0 : mix(hostIndex, source, link + 9500) % pagesPerHost;
    parts.push(`<li><a href="http://${syntheticHost(targetHost)}${syntheticPagePath(targetPage)}">Host ${targetHost} page ${targetPage}</a></li>\n`);
  }
  parts.push(`</ul></aside>\n</main>\n<footer><p>Synthetic web for crawl benchmarks: ${hosts} hosts, ${pagesPerHost} pages each.</p></footer>\n</body></html>\n`);
  return { status: 200, contentType: 'text/html; charset=utf-8', location: null, body: parts.join('') };
}

/**
 * What a complete crawl of the synthetic web fetches: every page once, each distinct `/r/{i}`
 * and `/missing/{i}` linked, and one robots.txt per host. Computed from the same link choice the
 * pages use, so the two cannot disagree.
 * @example syntheticExpectedCounts({ hosts: 200, pagesPerHost: 101 }) // { pages: 20200, redirects: 1000, notFound: 1000, robotsTxt: 200, requests: 22400 }
 */
export function syntheticExpectedCounts(shape: SyntheticShape): SyntheticExpectedCounts {
  checkSyntheticShape(shape);
  const indexes = new Set<number>();
  for (let page = 0; page < shape.pagesPerHost; page += 1) for (const index of brokenIndexes(contentSource(page))) indexes.add(index);
  const pages = shape.hosts * shape.pagesPerHost;
  const redirects = shape.hosts * indexes.size;
  const notFound = shape.hosts * indexes.size;
  return { pages, redirects, notFound, robotsTxt: shape.hosts, requests: pages + redirects + notFound + shape.hosts };
}

/**
 * Every URL a complete crawl requests, host by host: robots.txt, the pages, then the redirects
 * and 404s (the fetch-only floors' URL list; `http://` URLs, one per line when joined).
 */
export function syntheticUrls(shape: SyntheticShape): string[] {
  checkSyntheticShape(shape);
  const indexes = new Set<number>();
  for (let page = 0; page < shape.pagesPerHost; page += 1) for (const index of brokenIndexes(contentSource(page))) indexes.add(index);
  const sorted = [...indexes].sort((a, b) => a - b);
  const urls: string[] = [];
  for (let host = 0; host < shape.hosts; host += 1) {
    const origin = `http://${syntheticHost(host)}`;
    urls.push(`${origin}/robots.txt`);
    for (let page = 0; page < shape.pagesPerHost; page += 1) urls.push(`${origin}${syntheticPagePath(page)}`);
    for (const index of sorted) urls.push(`${origin}/r/${index}`, `${origin}/missing/${index}`);
  }
  return urls;
}

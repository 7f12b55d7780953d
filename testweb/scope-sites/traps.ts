/**
 * Fixture hosts for crawler-trap detection (issue 12 part 4): three small sites, each a few
 * normal pages beside one trap IIR 20.2 and Heritrix describe.
 * - `calendar.test`: an events calendar whose month pages link to the month before and after,
 *   for any year: endless; every month without events is near-identical.
 * - `loop.test`: docs whose intro page links to `intro/` relatively; the server answers any path
 *   below /docs/intro/ (soft routing), so links make /docs/intro/intro/intro/…
 * - `facets.test`: a product list with faceted navigation: every page links to each combination of
 *   sort × view × page size (`?sort=&view=&size=&page=`), and to the next page, without end; plain
 *   `?page=N` pagination (one parameter) ends after five pages.
 * {@link isTrapUrl} is the ground truth tests count fetches and held URLs by.
 */
import type { DynamicRoutes } from '../fixture-server';
import { html, sendHtml, type Handler } from '../fixture-sites';

const page =
  (title: string, body: string): Handler =>
  (_req, res) =>
    sendHtml(res, html(title, body));

/** Site navigation and footer shared by a host's pages (boilerplate, as real sites have). */
function chrome(site: string, links: string[], body: string): string {
  const nav = links.map((href) => `<a href="${href}">${href.replace(/\W+/g, ' ').trim() || 'home'}</a>`).join(' | ');
  return `<header><nav>${nav}</nav></header><main>${body}</main><footer><p>${site} is run by volunteers of the neighbourhood association. Questions about this site go to the office, open on weekdays from nine to five. Copyright the ${site} team, all rights reserved.</p></footer>`;
}

/** A few paragraphs of distinct text for normal page `n` of a site. */
function article(site: string, topic: string, n: number): string {
  const words = ['river', 'garden', 'library', 'market', 'bridge', 'school', 'harbour', 'museum', 'station', 'orchard', 'bakery', 'theatre'];
  const a = words[n % words.length]!;
  const b = words[(n * 5 + 3) % words.length]!;
  return `<h1>${topic} ${n}</h1><p>This ${topic} note number ${n} of ${site} tells how the ${a} near the ${b} changed in year ${1950 + n * 3}.</p><p>${n * 7} people answered the survey about the ${b}; ${n + 2} of them asked for longer opening hours at the ${a}.</p>`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function calendarMonth(year: number, month: number): string {
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const previous = month === 1 ? `/calendar/${year - 1}/12` : `/calendar/${year}/${month - 1}`;
  const next = month === 12 ? `/calendar/${year + 1}/1` : `/calendar/${year}/${month + 1}`;
  const grid = `<table><tr><th>Mo</th><th>Tu</th><th>We</th><th>Th</th><th>Fr</th><th>Sa</th><th>Su</th></tr><tr>${Array.from({ length: days }, (_, d) => `<td>${d + 1}</td>`).join('')}</tr></table>`;
  return chrome('Town hall', CALENDAR_NAV, `<h1>${MONTHS[month - 1]} ${year}</h1>${grid}<p>No events this month.</p><a href="${previous}">Previous month</a> <a href="${next}">Next month</a>`);
}

const CALENDAR_NAV = ['/', '/about.html', '/news/', '/contact.html', '/calendar/2026/11'];
const LOOP_NAV = ['/', '/docs/', '/docs/intro/', '/docs/faq.html'];
const SHOP_NAV = ['/', '/products', '/about.html', '/help.html'];

/** Normal pages of a site: home, about, contact-like pages and `count` articles under `dir`. */
function normalPages(site: string, nav: string[], dir: string, count: number, extra: Record<string, string>): Record<string, Handler> {
  const pages: Record<string, Handler> = {
    '/robots.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow:\n');
    },
    '/': page(site, chrome(site, nav, `<h1>${site}</h1><p>Welcome to ${site}.</p><a href="${dir}">All notes</a>`)),
    [dir]: page(`${site} notes`, chrome(site, nav, `<h1>Notes</h1>${Array.from({ length: count }, (_, n) => `<a href="${dir}note-${n + 1}.html">Note ${n + 1}</a>`).join(' ')}`)),
  };
  for (let n = 1; n <= count; n += 1) pages[`${dir}note-${n}.html`] = page(`${site} note ${n}`, chrome(site, nav, article(site, 'note', n)));
  for (const [path, body] of Object.entries(extra)) pages[path] = page(`${site} ${path}`, chrome(site, nav, body));
  return pages;
}

/** Normal notes per host: enough pages that a few trap fetches stay a small share. */
export const NOTES_PER_HOST = 12;

/** The trap fixture hosts and their fixed pages (the traps are {@link trapsRoute}). */
export const TRAPS_SITES: Record<string, Record<string, Handler>> = {
  'calendar.test': normalPages('Town hall', CALENDAR_NAV, '/news/', NOTES_PER_HOST, {
    '/about.html': `<h1>About</h1><p>The town hall keeps the calendar of public events.</p>`,
    '/contact.html': `<h1>Contact</h1><p>Write to the town hall office.</p>`,
  }),
  'loop.test': normalPages('Loop docs', LOOP_NAV, '/guides/', NOTES_PER_HOST, {
    '/docs/': `<h1>Documentation</h1><a href="intro/">Introduction</a> <a href="faq.html">FAQ</a>`,
    '/docs/faq.html': `<h1>FAQ</h1><p>Frequently asked questions about installing the tool.</p>`,
  }),
  'facets.test': normalPages('Corner shop', SHOP_NAV, '/articles/', NOTES_PER_HOST, {
    '/about.html': `<h1>About the shop</h1><p>A corner shop selling garden tools since 1987.</p>`,
    '/help.html': `<h1>Help</h1><p>Orders ship within two days.</p>`,
  }),
};

const SORTS = ['price', 'name', 'date'];
const VIEWS = ['grid', 'list'];
const SIZES = ['10', '20', '50'];

/** One product listing page: facet links for every combination on this page number, and the next page. */
function productList(query: URLSearchParams): string {
  const pageNumber = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const facets = SORTS.flatMap((sort) => VIEWS.flatMap((view) => SIZES.map((size) => `<a href="/products?sort=${sort}&view=${view}&size=${size}&page=${pageNumber}">${sort} ${view} ${size}</a>`)));
  const items = Array.from({ length: 5 }, (_, i) => `<li>Garden tool ${pageNumber * 5 + i}: a ${['rake', 'spade', 'hoe', 'trowel', 'shears'][i]} of batch ${(pageNumber * 13 + i * 7) % 101}</li>`).join('');
  const faceted = query.has('sort') || query.has('view') || query.has('size');
  let next = '';
  if (faceted) next = `<a href="/products?sort=${query.get('sort') ?? 'price'}&view=${query.get('view') ?? 'grid'}&size=${query.get('size') ?? '10'}&page=${pageNumber + 1}">Next page</a>`;
  else if (pageNumber < PLAIN_PAGES) next = `<a href="/products?page=${pageNumber + 1}">Next page</a>`;
  return chrome('Corner shop', SHOP_NAV, `<h1>Products, page ${pageNumber}</h1><ul>${items}</ul><p>Sort and view:</p>${facets.join(' ')} ${next}`);
}

/** Pages of the plain (one-parameter) product list: it ends. */
export const PLAIN_PAGES = 5;

/** The traps' variable routes (fixture-server.ts DynamicRoutes). */
export const trapsRoute: DynamicRoutes = (host, path) => {
  if (host === 'calendar.test') {
    const match = /^\/calendar\/(\d{1,4})\/(\d{1,2})$/.exec(path);
    if (!match || Number(match[2]) < 1 || Number(match[2]) > 12) return undefined;
    const year = Number(match[1]);
    const month = Number(match[2]);
    return page(`Calendar ${MONTHS[month - 1]} ${year}`, calendarMonth(year, month));
  }
  if (host === 'loop.test' && path.startsWith('/docs/intro/')) {
    // Soft routing: the last segment names the page, whatever directories come before it.
    if (path.endsWith('/setup.html')) return page('Setup', chrome('Loop docs', LOOP_NAV, `<h1>Setup</h1><p>Run the installer, then open the settings file.</p><a href="/docs/">Back to the docs</a>`));
    if (path.endsWith('/')) return page('Introduction', chrome('Loop docs', LOOP_NAV, `<h1>Introduction</h1><p>Start with the setup guide.</p><a href="setup.html">Setup</a> <a href="intro/">Introduction</a>`));
    return undefined;
  }
  if (host === 'facets.test' && path === '/products') return (req, res) => sendHtml(res, html('Products', productList(new URLSearchParams((req.url ?? '').split('?')[1] ?? ''))));
  return undefined;
};

/**
 * True when `pathAndQuery` on `host` lies in a trap's endless URL space (the fixture's ground
 * truth): any calendar month, any path with `intro/intro/`, any faceted product list.
 */
export function isTrapUrl(host: string, pathAndQuery: string): boolean {
  if (host === 'calendar.test') return pathAndQuery.startsWith('/calendar/');
  if (host === 'loop.test') return pathAndQuery.includes('/intro/intro/');
  if (host === 'facets.test') return pathAndQuery.startsWith('/products?') && /[?&](sort|view|size)=/.test(pathAndQuery);
  return false;
}

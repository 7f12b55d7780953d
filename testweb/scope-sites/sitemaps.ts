import zlib from 'node:zlib';
import { html, sendHtml, type Handler } from '../fixture-sites';

/**
 * Fixture hosts for sitemaps (issue 12 part 1, sitemaps.org protocol). Served by
 * `startFixtureServer(SITEMAPS_SITES)`; tests/integration/sitemaps.test.ts states what a user sees.
 * - `sitemaps.test`: robots.txt lists a sitemap index; the index lists a gzipped child sitemap
 *   and a sitemap robots.txt disallows; the child lists linked pages, an orphan page (listed,
 *   never linked), a redirect, a 404, a noindex page, a page canonicalised elsewhere, an exact
 *   copy of a linked page, a page on another host and a page robots.txt disallows. It has no /sitemap.xml (the probe answers 404).
 * - `bad-sitemap.test`: no Sitemap: line; its /sitemap.xml (found by the probe) is not
 *   well-formed XML after its first entry.
 */
const page = (title: string, body: string, head = ''): Handler => (_req, res) => sendHtml(res, html(title, body, head));
const text = (body: string | Buffer, contentType: string, status = 200): Handler => (_req, res) => {
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
};
const redirect = (location: string): Handler => (_req, res) => {
  res.writeHead(301, { location });
  res.end();
};

const urlset = (locs: readonly string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((loc) => `  <url><loc>${loc}</loc><lastmod>2026-11-01</lastmod></url>`).join('\n')}\n</urlset>\n`;
const sitemapIndex = (locs: readonly string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((loc) => `  <sitemap><loc>${loc}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;

const S = 'http://sitemaps.test';
const ABOUT = 'About us: a page that the home page links to, with enough words to be a page of its own.';

export const SITEMAPS_SITES: Record<string, Record<string, Handler>> = {
  'sitemaps.test': {
    '/robots.txt': text(`User-agent: *\nDisallow: /private/\n\nSitemap: ${S}/sitemap-index.xml\n`, 'text/plain'),
    '/sitemap-index.xml': text(sitemapIndex([`${S}/sitemap-pages.xml.gz`, `${S}/private/sitemap-hidden.xml`]), 'application/xml'),
    // A .gz file as a static server sends it: gzip bytes, no Content-Encoding.
    '/sitemap-pages.xml.gz': text(
      zlib.gzipSync(
        urlset([
          `${S}/`,
          `${S}/about.html`,
          `${S}/orphan.html`,
          `${S}/old-page`,
          `${S}/missing.html`,
          `${S}/noindex.html`,
          `${S}/canonical-elsewhere.html`,
          `${S}/about-copy.html`,
          'http://elsewhere.test/listed-offsite.html',
          `${S}/private/listed-blocked.html`,
        ]),
      ),
      'application/gzip',
    ),
    '/private/sitemap-hidden.xml': text(urlset([`${S}/private/listed-secret.html`]), 'application/xml'),
    '/': page('Sitemaps home', '<a href="/about.html">About</a> <a href="/noindex.html">Drafts</a> <a href="/canonical-elsewhere.html">Print</a>'),
    '/about.html': page('About', `<p>${ABOUT}</p><a href="/">Home</a>`),
    '/about-copy.html': page('About', `<p>${ABOUT}</p><a href="/">Home</a>`),
    '/orphan.html': page('Orphan', '<p>Only the sitemap lists this page: no page links to it.</p>'),
    '/old-page': redirect('/about.html'),
    '/noindex.html': page('Drafts', '<p>Drafts are not for search engines.</p>', '<meta name="robots" content="noindex">'),
    '/canonical-elsewhere.html': page('About (print)', '<p>The printable about page.</p>', `<link rel="canonical" href="${S}/about.html">`),
  },
  'bad-sitemap.test': {
    '/robots.txt': text('User-agent: *\nAllow: /\n', 'text/plain'),
    '/sitemap.xml': text(
      '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>http://bad-sitemap.test/listed.html</loc></url>\n  <url><loc>http://bad-sitemap.test/never.html</url>\n</urlset>\n',
      'application/xml',
    ),
    '/': page('Bad sitemap home', '<a href="/a.html">A</a>'),
    '/a.html': page('A', '<p>A linked page.</p>'),
    '/listed.html': page('Listed', '<p>Listed before the sitemap breaks.</p>'),
  },
};

/**
 * Fixture host for seed 001's version URL templates and canonical layers (issue 12 parts 7 and 8):
 * `pydocs.test`, a docs-like site with the same pages under `/3.11/`, `/3.12/` and `/dev/`, some
 * pages in one version only, and links that name pages with session-id and `utm_*` variants first
 * (so the crawl fetches the tracked spelling and meets the clean one later).
 *
 * What a crawl from `http://pydocs.test/` should find (tests/integration/versions-crawl.test.ts):
 * - templates (of normalized URLs, so `/3.11/index.html` is `/3.11/`) `/%s/`, `/%s/library/os.html`,
 *   `/%s/library/datetime.html` with 3.11, 3.12, dev; `/%s/library/tomllib.html` with 3.12, dev; `asyncore.html` (3.11 only) and
 *   `whatsnew/changelog.html` (dev only) in no template;
 * - URL groups `/3.12/library/os.html` (fetched as `?utm_source=…&utm_medium=…`) and
 *   `/3.11/library/datetime.html` (fetched as `?sessionid=…`) whose canonical is the clean spelling;
 * - `/3.12/library/json.html` (fetched as `?utm_campaign=…`) whose page names its clean URL with
 *   rel=canonical: the rel=canonical layer decides there.
 */
import { html, sendHtml, type Handler } from '../fixture-sites';

/** The versions the site serves, oldest first. */
export const PYDOCS_VERSIONS = ['3.11', '3.12', 'dev'] as const;

/** Pages every version has. */
const SHARED_PAGES = ['library/os.html', 'library/datetime.html'];
/** Pages of some versions only. */
const ONLY_IN: Record<(typeof PYDOCS_VERSIONS)[number], string[]> = {
  '3.11': ['library/asyncore.html'],
  '3.12': ['library/tomllib.html', 'library/json.html'],
  dev: ['library/tomllib.html', 'whatsnew/changelog.html'],
};

const links = (hrefs: readonly string[]): string => hrefs.map((href) => `<a href="${href}">${href}</a>`).join(' ');
const page =
  (title: string, body: string, head = ''): Handler =>
  (_request, response) =>
    sendHtml(response, html(title, body, head));

function versionRoutes(version: (typeof PYDOCS_VERSIONS)[number]): Record<string, Handler> {
  const pages = [...SHARED_PAGES, ...ONLY_IN[version]];
  const routes: Record<string, Handler> = {
    [`/${version}/index.html`]: page(`Python ${version} documentation`, links(pages.map((path) => `/${version}/${path}`))),
  };
  for (const path of pages) {
    const head = path === 'library/json.html' ? `<link rel="canonical" href="/${version}/${path}">` : '';
    routes[`/${version}/${path}`] = page(`${path} (${version})`, `<p>${path} in Python ${version}</p> ${links([`/${version}/index.html`])}`, head);
  }
  return routes;
}

/** `pydocs.test`: versioned docs with tracked and session-id link variants. */
export const VERSIONS_SITES: Record<string, Record<string, Handler>> = {
  'pydocs.test': {
    // The home page names three pages by tracked spellings before any version index names them cleanly.
    '/': page(
      'Python docs mirror',
      links([
        '/3.12/library/os.html?utm_source=newsletter&utm_medium=email',
        '/3.11/library/datetime.html?sessionid=A1B2C3',
        '/3.12/library/json.html?utm_campaign=spring',
        ...PYDOCS_VERSIONS.map((version) => `/${version}/index.html`),
      ]),
    ),
    ...versionRoutes('3.11'),
    ...versionRoutes('3.12'),
    ...versionRoutes('dev'),
  },
};

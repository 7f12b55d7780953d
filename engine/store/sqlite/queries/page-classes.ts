/** How SQL classifies a URL for the results views: settled or not, its status class, its media type, its URL range under a path. */
import type { StatusClass } from '../../../../shared/types/overview';

/**
 * SQL test for a URL that is a page of the results views (the Pages table, the Overview): fetched,
 * failed or blocked, i.e. neither queued nor in flight. `u` is the alias of `urls`.
 */
export function settledSql(u: string): string {
  return `${u}.state NOT IN ('pending', 'in_flight')`;
}

/**
 * SQL test for a page row whose URL is settled, without reading the URL's row: its id is not
 * among the crawl's queued or in-flight URLs (a set read from the (crawl_id, state, id) index).
 * Takes one parameter, the crawl id. A page row can belong to a queued URL after a resume with
 * `--refresh-older-than`, which re-queues fetched URLs and keeps their pages until re-fetched.
 * `p` is the alias of `pages`.
 */
export function pageSettledSql(p: string): string {
  return `${p}.url_id NOT IN (SELECT q.id FROM urls q WHERE q.crawl_id = ? AND q.state IN ('pending', 'in_flight'))`;
}

/**
 * SQL expression of a settled URL's status class (shared/types/overview.ts StatusClass): `blocked`
 * for a URL robots.txt disallowed (state `blocked`, or an error ROBOTS_DISALLOWED as stored before
 * that state existed), else its HTTP status's class 2xx … 5xx, else `failed` (no answer: timeout,
 * refused connection, redirect limit …, or a status outside 200–599). `u` is the alias of `urls`.
 * One definition for the Overview's bars, the site tree's counts and the Pages table's Status filter.
 */
export function statusClassSql(u: string): string {
  return `CASE WHEN ${u}.state = 'blocked' OR ${u}.error_code IS 'ROBOTS_DISALLOWED' THEN 'blocked'
    WHEN ${u}.http_status BETWEEN 200 AND 299 THEN '2xx' WHEN ${u}.http_status BETWEEN 300 AND 399 THEN '3xx'
    WHEN ${u}.http_status BETWEEN 400 AND 499 THEN '4xx' WHEN ${u}.http_status BETWEEN 500 AND 599 THEN '5xx' ELSE 'failed' END`;
}

/**
 * SQL test for one status class (the Pages table's Status filter), the same verdict as
 * {@link statusClassSql} written so the state and status indexes can serve it.
 */
export function statusClassTestSql(u: string, statusClass: StatusClass): string {
  const blocked = `(${u}.state = 'blocked' OR ${u}.error_code IS 'ROBOTS_DISALLOWED')`;
  switch (statusClass) {
    case 'blocked':
      return blocked;
    case '2xx':
    case '3xx':
    case '4xx':
    case '5xx': {
      const low = Number(statusClass[0]) * 100;
      return `(${u}.http_status BETWEEN ${low} AND ${low + 99} AND NOT ${blocked})`;
    }
    case 'failed':
      return `(${settledSql(u)} AND NOT ${blocked} AND (${u}.http_status IS NULL OR ${u}.http_status NOT BETWEEN 200 AND 599))`;
    default: {
      const unknown: never = statusClass;
      throw new Error(`Unknown status class ${String(unknown)}`);
    }
  }
}

/**
 * SQL expression of a page's media type: its Content-Type without parameters, trimmed, lower case;
 * null when there was none. `p` is the alias of `pages`.
 * @example 'Text/HTML; charset=utf-8' → 'text/html'
 */
export function mediaTypeSql(p: string): string {
  return `lower(trim(substr(${p}.content_type, 1, instr(${p}.content_type || ';', ';') - 1)))`;
}

/**
 * The origin of a serialized URL: scheme and authority, up to (not including) the path's first `/`.
 * @example originOf('http://a.test:8080/docs/x?q') → 'http://a.test:8080'
 */
export function originOf(url: string): string {
  const start = url.indexOf('://');
  const slash = url.indexOf('/', start === -1 ? 0 : start + 3);
  return slash === -1 ? url : url.slice(0, slash);
}

/**
 * The half-open URL ranges [from, below) holding exactly the URLs whose path starts with
 * `pathPrefix` under each origin: a URL starts with `origin + pathPrefix` iff it sorts in
 * [origin + pathPrefix, origin + pathPrefix with its last character incremented). With an index
 * on (crawl_id, host, url) each range is one index seek, so a query reads only the URLs under the
 * prefix (migration 0014).
 * @example urlPrefixRanges(['http://a.test'], '/docs/') → [['http://a.test/docs/', 'http://a.test/docs0']]
 * @throws Error when `pathPrefix` does not start with `/`
 */
export function urlPrefixRanges(origins: readonly string[], pathPrefix: string): [string, string][] {
  if (!pathPrefix.startsWith('/')) throw new Error(`A path prefix starts with "/": ${JSON.stringify(pathPrefix)}`);
  return origins.map((origin) => {
    const from = origin + pathPrefix;
    return [from, from.slice(0, -1) + String.fromCharCode(from.charCodeAt(from.length - 1) + 1)];
  });
}

/**
 * SQL test for a URL whose path (from the first `/` after `scheme://authority`, query included)
 * starts with a prefix: the Pages table's `pathPrefix` filter, the same URLs urlPrefixRanges
 * selects under every origin of the host. Takes two parameters: the prefix's length and the
 * prefix. Pair it with a host test so an index narrows the rows first. `u` is the alias of `urls`.
 * @example pathPrefixTestSql('u') with ['/docs/'.length, '/docs/'] matches http://a.test/docs/x and https://a.test:8443/docs/
 */
export function pathPrefixTestSql(u: string): string {
  const authorityStart = `instr(${u}.url, '://') + 3`;
  const pathStart = `${authorityStart} + instr(substr(${u}.url, ${authorityStart}), '/') - 1`;
  return `(instr(substr(${u}.url, ${authorityStart}), '/') > 0 AND substr(${u}.url, ${pathStart}, ?) = ?)`;
}

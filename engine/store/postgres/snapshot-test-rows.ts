/**
 * Test helper: a small crawl as table rows, for tests of the PostgreSQL snapshot (engine/store/postgres/snapshot.ts):
 * the same rows go into PostgreSQL (every column, crawl_id on every table, PostgreSQL-only state:
 * urls.owner, hosts, processes) and into a SQLite crawl database (the columns its schema has), so
 * that a snapshot's exports can be compared with the SQLite store's exports of the same data.
 * URLs in every state (done, error, blocked, pending, in flight, held by a trap), a redirect,
 * pages with text, followed and refused links, aliases, an exact and a near content group, a trap,
 * robots.txt, a sitemap, two runs, a checkpoint row, and URLs of two versions of a docs tree.
 * Also {@link insertSyntheticCrawl}: a large generated crawl (set-based SQL) for measuring.
 */
import type pg from 'pg';
import type { WritableDB } from '../sqlite/database';
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import { URL_SOURCE_BITS } from '../../../shared/types/url-sources';
import { createNormalizer } from '../../../shared/url/normalize';
import { linkKindCode, linkRuleCode } from '../sqlite/link-codes';

/** One table's rows, by column name (PostgreSQL's names; SQLite's where it has the column). */
export interface TableRows {
  table: string;
  rows: Record<string, unknown>[];
}

const T0 = 1_700_000_000_000;

/**
 * The sample crawl `crawlId` (URL ids from `firstUrlId`). `discovered_from` of one pending URL
 * points to a URL with a higher id (a copy must not depend on id order).
 */
export function sampleCrawlRows(crawlId: number, firstUrlId: number): TableRows[] {
  const normalize = createNormalizer(DEFAULT_CRAWL_SETTINGS.normalizationProfile);
  const id = (n: number) => firstUrlId + n;
  const trapId = crawlId * 10 + 3;
  type U = { path: string; state: string; status?: number; from?: number | null; depth?: number; error?: [string, string]; trap?: boolean; attempts?: number; sources?: number; owner?: string; robots?: string };
  const urls: U[] = [
    { path: '/', state: 'done', status: 200, from: null, depth: 0, sources: URL_SOURCE_BITS.seed | URL_SOURCE_BITS.sitemap },
    { path: '/docs/v1/intro', state: 'done', status: 200, sources: URL_SOURCE_BITS.link | URL_SOURCE_BITS.sitemap },
    { path: '/docs/v2/intro', state: 'done', status: 200 },
    { path: '/about', state: 'done', status: 200 },
    { path: '/about-us', state: 'done', status: 200 },
    { path: '/missing', state: 'error', status: 404, error: ['HTTP_404', 'Not Found'] },
    { path: '/slow', state: 'error', error: ['TIMEOUT', 'no answer within 10000 ms'], attempts: 3 },
    { path: '/private/x', state: 'blocked', error: ['ROBOTS_DISALLOWED', 'robots.txt disallows it'], robots: 'Disallow: /private' },
    { path: '/next', state: 'pending', from: 12, depth: 2 },
    { path: '/busy', state: 'in_flight', owner: 'proc-a', attempts: 1 },
    { path: '/cal/2024/01', state: 'held', trap: true, depth: 3 },
    { path: '/old', state: 'done', status: 301 },
    { path: '/cal/2024/02', state: 'done', status: 200, depth: 2 },
    { path: '/listed-only', state: 'pending', from: null, sources: URL_SOURCE_BITS.sitemap },
  ];
  const urlRows = urls.map((u, n) => {
    const raw = `http://example.test${u.path}`;
    const normalized = normalize(raw);
    if (!normalized.ok) throw new Error(normalized.error.message);
    return {
      id: id(n),
      crawl_id: crawlId,
      normalized_key: normalized.value.key,
      normalized: normalized.value.normalized,
      url: raw,
      host: 'example.test',
      registrable_domain: 'example.test',
      state: u.state,
      depth: u.depth ?? 1,
      priority: u.depth ?? 1,
      discovered_from: u.from === undefined ? id(0) : u.from === null ? null : id(u.from),
      enqueued_at_ms: T0 + n * 1000,
      fetched_at_ms: ['done', 'error'].includes(u.state) ? T0 + n * 1000 + 500 : null,
      http_status: u.status ?? null,
      error_code: u.error?.[0] ?? null,
      error_reason: u.error?.[1] ?? null,
      attempts: u.attempts ?? (u.state === 'pending' || u.state === 'held' ? 0 : 1),
      redirect_hops: 0,
      robots_line: u.robots ?? null,
      claimed_at_ms: u.state === 'in_flight' ? T0 + 99_000 : null,
      committed_at_ms: ['done', 'error', 'blocked'].includes(u.state) ? T0 + n * 1000 + 600 : null,
      retry_reason: u.attempts && u.attempts > 1 ? 'TIMEOUT' : null,
      sources: u.sources ?? URL_SOURCE_BITS.link,
      trap_id: u.trap ? trapId : null,
      owner: u.owner ?? null,
    };
  });
  const page = (n: number, title: string, fingerprint: string, words: number, extra: Record<string, unknown> = {}) => ({
    url_id: id(n),
    crawl_id: crawlId,
    final_url: urlRows[n]!.url,
    http_status: urlRows[n]!.http_status,
    content_type: 'text/html; charset=utf-8',
    body_bytes: 1000 + n * 37,
    truncated: 0,
    fetch_ms: 20 + n,
    title,
    redirect_chain_json: null,
    fetched_at_ms: urlRows[n]!.fetched_at_ms ?? T0,
    fingerprint,
    minhash: Buffer.from(Array.from({ length: 16 }, (_, i) => (i * 7 + n) & 0xff)),
    text_chars: words * 6,
    noindex: 0,
    location: null,
    links_over_cap: 0,
    response_headers_json: JSON.stringify({ 'content-type': 'text/html; charset=utf-8', server: 'nginx' }),
    meta_description: `About ${title}`,
    h1: title,
    canonical_url: null,
    robots_directives: null,
    indexability: 'indexable',
    word_count: words,
    lang: 'en',
    ...extra,
  });
  const pages = [
    page(0, 'Home', 'fp-home', 120),
    page(1, 'Intro v1', 'fp-v1', 300),
    page(2, 'Intro v2', 'fp-v2', 310),
    page(3, 'About', 'fp-about', 80, { canonical_url: 'http://example.test/about' }),
    page(4, 'About', 'fp-about', 80, { canonical_url: 'http://example.test/about' }),
    page(5, 'Not found', 'fp-404', 5, { indexability: 'non-indexable' }),
    page(11, '', 'fp-old', 0, { location: 'http://example.test/about', content_type: null, indexability: 'non-indexable', title: null, minhash: null }),
    page(12, 'February', 'fp-feb', 40),
  ];
  const pageTexts = [0, 1, 2, 3, 4].map((n) => ({ url_id: id(n), crawl_id: crawlId, text: `${pages[n]!.title as string} — ${'lorem ipsum dolor '.repeat(10 + n)}` }));
  let linkId = crawlId * 1000;
  const link = (from: number, to: number | null, raw: string | null, extra: { kind?: string; refused?: string; anchor?: string; rel?: string } = {}) => ({
    id: ++linkId,
    crawl_id: crawlId,
    from_url_id: id(from),
    to_url_id: to === null ? null : id(to),
    kind: linkKindCode(extra.kind ?? 'a'),
    refused_by: linkRuleCode(extra.refused ?? null),
    raw_url: raw,
    anchor_text: extra.anchor ?? null,
    rel: extra.rel ?? null,
  });
  const links = [
    link(0, 1, null, { anchor: 'Docs v1' }),
    link(0, 2, null, { anchor: 'Docs v2' }),
    link(0, 3, 'http://example.test/about?utm_source=nav', { anchor: 'About' }),
    link(0, 4, null, { anchor: 'About us' }),
    link(0, 5, null),
    link(0, 6, null),
    link(0, 7, null),
    link(0, 11, null, { anchor: 'Old' }),
    link(0, null, 'mailto:someone@example.test', { refused: 'protocol' }),
    link(0, null, 'http://elsewhere.test/', { refused: 'scope' }),
    link(1, 12, null, { rel: 'nofollow', refused: 'nofollow' }),
    link(12, 8, null, { anchor: 'Next' }),
    link(12, 10, null, { anchor: 'January' }),
    link(3, 3, null, { kind: 'canonical' }),
    link(4, 3, null, { kind: 'canonical' }),
    link(11, 3, null, { kind: 'redirect' }),
    link(2, 9, null),
  ];
  const aliases = urlRows.map((u) => ({ url_id: u.id, crawl_id: crawlId, raw_url: u.url, first_seen_from: u.discovered_from, fragment_spellings: 0 }));
  aliases.push({ url_id: id(3), crawl_id: crawlId, raw_url: 'http://example.test/about?utm_source=nav', first_seen_from: id(0), fragment_spellings: 1 });
  const exactGroup = crawlId * 100 + 1;
  const nearGroup = crawlId * 100 + 2;
  const sitemapId = crawlId * 10 + 5;
  return [
    { table: 'crawls', rows: [{ id: crawlId, seeds_json: JSON.stringify(['http://example.test/']), settings_json: JSON.stringify({ ...DEFAULT_CRAWL_SETTINGS, maxPages: 500 }), status: 'running', created_at_ms: T0, finished_at_ms: null }] },
    {
      table: 'traps',
      rows: [
        {
          id: trapId,
          crawl_id: crawlId,
          host: 'example.test',
          pattern: '^http://example\\.test/cal/\\d+/\\d+$',
          template: '/cal/{n}/{n}',
          detector: 'calendar',
          evidence_json: JSON.stringify({ summary: 'dates one month apart, 2 of them' }),
          examples_json: JSON.stringify(['http://example.test/cal/2024/01', 'http://example.test/cal/2024/02']),
          state: 'suspected',
          detected_at_ms: T0 + 13_000,
          updated_at_ms: T0 + 13_000,
        },
      ],
    },
    { table: 'urls', rows: urlRows },
    { table: 'pages', rows: pages },
    { table: 'page_texts', rows: pageTexts },
    { table: 'links', rows: links },
    { table: 'url_aliases', rows: aliases },
    {
      table: 'content_groups',
      rows: [
        { id: exactGroup, crawl_id: crawlId, kind: 'exact', fingerprint: 'fp-about', first_url_id: id(3), created_at_ms: T0 + 5000 },
        { id: nearGroup, crawl_id: crawlId, kind: 'near', fingerprint: null, first_url_id: id(1), created_at_ms: T0 + 3000 },
      ],
    },
    {
      table: 'content_group_members',
      rows: [
        { group_id: exactGroup, url_id: id(3), crawl_id: crawlId, similarity: 1 },
        { group_id: exactGroup, url_id: id(4), crawl_id: crawlId, similarity: 1 },
        { group_id: nearGroup, url_id: id(1), crawl_id: crawlId, similarity: 1 },
        { group_id: nearGroup, url_id: id(2), crawl_id: crawlId, similarity: 0.921875 },
      ],
    },
    {
      table: 'minhash_bands',
      rows: [
        { crawl_id: crawlId, band: 0, bucket: 4_294_967_295, url_id: id(1) },
        { crawl_id: crawlId, band: 0, bucket: 4_294_967_295, url_id: id(2) },
        { crawl_id: crawlId, band: 3, bucket: 12_345, url_id: id(2) },
      ],
    },
    {
      table: 'robots_txt',
      rows: [{ id: crawlId * 10 + 4, crawl_id: crawlId, origin: 'http://example.test', status: 200, error_code: null, body: 'User-agent: *\nDisallow: /private\nSitemap: http://example.test/sitemap.xml\n', fetched_at_ms: T0, expires_at_ms: T0 + 86_400_000 }],
    },
    {
      table: 'sitemaps',
      rows: [
        { id: sitemapId, crawl_id: crawlId, url: 'http://example.test/sitemap.xml', found_via: 'robots', parent_id: null, kind: 'urlset', http_status: 200, gzipped: 0, bytes: 612, entries: 3, entries_over_cap: 0, urls_refused: 0, error_code: null, error_message: null, fetch_ms: 9, fetched_at_ms: T0 + 100 },
        { id: sitemapId + 1, crawl_id: crawlId, url: 'http://example.test/sitemap-news.xml', found_via: 'probe', parent_id: null, kind: null, http_status: 404, gzipped: 0, bytes: 0, entries: 0, entries_over_cap: 0, urls_refused: 0, error_code: 'SITEMAP_NOT_SITEMAP', error_message: 'HTTP 404', fetch_ms: 4, fetched_at_ms: T0 + 200 },
      ],
    },
    {
      table: 'sitemap_urls',
      rows: [0, 1, 13].map((n) => ({ url_id: id(n), sitemap_id: sitemapId, crawl_id: crawlId, lastmod: '2024-01-0' + String(1 + (n % 9)), listed_as: urlRows[n]!.url })),
    },
    {
      table: 'crawl_runs',
      rows: [
        { id: crawlId * 10 + 1, crawl_id: crawlId, started_at_ms: T0, ended_at_ms: T0 + 60_000 },
        { id: crawlId * 10 + 2, crawl_id: crawlId, started_at_ms: T0 + 120_000, ended_at_ms: null },
      ],
    },
    { table: 'checkpoints', rows: [{ id: crawlId * 10 + 6, crawl_id: crawlId, name: 'before-docs', created_at_ms: T0 + 30_000, pages_done: 3, frontier_size: 6, settings_hash: '0123456789abcdef', file: '/nowhere/crawl-before-docs.db' }] },
  ];
}

/** PostgreSQL-only rows of the sample crawl (they must not reach a copy): the host's back-queue row and a process. */
export function postgresOnlyRows(crawlId: number): TableRows[] {
  return [
    { table: 'processes', rows: [{ id: 'proc-a', crawl_id: crawlId, hostname: 'box', pid: 4242, role: 'crawl', started_at_ms: T0, last_beat_ms: T0 + 99_000, lease_ms: 30_000 }] },
    { table: 'hosts', rows: [{ crawl_id: crawlId, host: 'example.test', next_eligible_at_ms: T0 + 100_000, in_flight: 1, holder: 'proc-a' }] },
  ];
}

/**
 * Inserts rows into PostgreSQL: one multi-row INSERT per table, then each identity sequence moved
 * past the ids given (so later inserts without an id do not collide).
 */
export async function insertRowsIntoPostgres(client: pg.Pool | pg.PoolClient, tables: readonly TableRows[]): Promise<void> {
  for (const { table, rows } of tables) {
    if (rows.length === 0) continue;
    const columns = Object.keys(rows[0]!);
    const params: unknown[] = [];
    const values = rows.map((row) => `(${columns.map((c) => `$${params.push(row[c])}`).join(', ')})`);
    await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values.join(', ')}`, params);
    if (columns.includes('id') && table !== 'processes') await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
  }
}

/**
 * Inserts rows into a SQLite crawl database, only the columns its schema has, in one
 * transaction; `in_flight` URLs go in as pending when `inFlightAsPending` (what a copy makes of them).
 */
export function insertRowsIntoSqlite(db: WritableDB, tables: readonly TableRows[], options: { inFlightAsPending?: boolean } = {}): void {
  // discovered_from may point forward: references are checked after the rows are in.
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    for (const { table, rows } of tables) {
      if (rows.length === 0) continue;
      const known = new Set(db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]);
      const columns = Object.keys(rows[0]!).filter((c) => known.has(c));
      const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      for (const row of rows) {
        const values = columns.map((c) => (c === 'state' && table === 'urls' && options.inFlightAsPending && row[c] === 'in_flight' ? 'pending' : row[c]));
        insert.run(values);
      }
    }
  })();
  db.pragma('foreign_keys = ON');
  if (db.prepare(`SELECT COUNT(*) FROM pragma_foreign_key_check`).pluck().get() !== 0) throw new Error('the rows break a reference');
}

/**
 * A generated crawl of `urls` URLs on 50 hosts with `linksPerUrl` links from each done URL, a page
 * and text for each done URL (three quarters of them; the rest pending, a few in flight), inserted
 * by set-based SQL (generate_series) in one transaction: for measuring a copy.
 */
export async function insertSyntheticCrawl(client: pg.Pool | pg.PoolClient, crawlId: number, urls: number, linksPerUrl: number): Promise<void> {
  const settings = JSON.stringify(DEFAULT_CRAWL_SETTINGS);
  await client.query(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES ($1, '["http://h0.test/"]', $2, 'running', ${T0})`, [crawlId, settings]);
  const base = crawlId * 10_000_000;
  await client.query(
    `INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, discovered_from, enqueued_at_ms, fetched_at_ms, http_status, attempts, sources)
     SELECT $1::bigint + g, $2, 'http://h' || (g % 50) || '.test/p/' || g, 'http://h' || (g % 50) || '.test/p/' || g, 'http://h' || (g % 50) || '.test/p/' || g,
            'h' || (g % 50) || '.test', 'h' || (g % 50) || '.test',
            CASE WHEN g % 4 <> 3 THEN 'done' WHEN g % 40 = 3 THEN 'in_flight' ELSE 'pending' END, g % 7, g % 7,
            CASE WHEN g = 1 THEN NULL ELSE $1::bigint + 1 + (g % 97) END, ${T0} + g, CASE WHEN g % 4 <> 3 THEN ${T0} + g + 50 END, CASE WHEN g % 4 <> 3 THEN 200 END,
            CASE WHEN g % 4 <> 3 THEN 1 ELSE 0 END, 2
     FROM generate_series(1, $3::int) AS g`,
    [base, crawlId, urls],
  );
  await client.query(
    `INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, title, fetched_at_ms, fingerprint, text_chars, word_count, indexability, response_headers_json)
     SELECT id, crawl_id, url, 200, 'text/html', 20000 + id % 1000, 30, 'Page ' || id, fetched_at_ms, md5(url), 4000, 700, 'indexable', '{"content-type":"text/html"}'
     FROM urls WHERE crawl_id = $1 AND state = 'done'`,
    [crawlId],
  );
  await client.query(`INSERT INTO page_texts (url_id, crawl_id, text) SELECT id, crawl_id, repeat('word ' || id || ' ', 300) FROM urls WHERE crawl_id = $1 AND state = 'done'`, [crawlId]);
  await client.query(
    `INSERT INTO links (crawl_id, from_url_id, to_url_id, kind, anchor_text)
     SELECT $1, u.id, $2::bigint + 1 + ((u.id - $2::bigint) * 31 + k * 17) % $3::int, 1, 'link ' || k
     FROM urls u CROSS JOIN generate_series(1, $4::int) AS k WHERE u.crawl_id = $1 AND u.state = 'done'`,
    [crawlId, base, urls, linksPerUrl],
  );
  await client.query(`INSERT INTO url_aliases (url_id, crawl_id, raw_url) SELECT id, crawl_id, url FROM urls WHERE crawl_id = $1`, [crawlId]);
}

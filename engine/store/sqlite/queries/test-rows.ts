import type { Database } from 'better-sqlite3';
import { DEFAULT_CRAWL_SETTINGS, type CrawlSettings } from '../../../../shared/types/crawl';
import { createNormalizer } from '../../../../shared/url/normalize';
import { linkKindCode, linkRuleCode } from '../link-codes';
import { EXTEND_LINK_RANGE_SQL, extendLinkRangeArgs } from '../link-ranges';

/** Test helper: one URL row to insert (normalized form and key computed under the standard profile). */
export interface TestUrl {
  url: string;
  state?: 'pending' | 'in_flight' | 'done' | 'error';
  depth?: number;
  from?: number | null;
  status?: number | null;
  aliases?: string[];
}

/** Test helper: inserts a crawl and its URLs (ids in order from the first free id), returns the crawl id and URL ids. */
export function insertCrawl(db: Database, urls: readonly TestUrl[], settings: Partial<CrawlSettings> = {}): { crawlId: number; ids: number[] } {
  const crawlId = Number(
    db.prepare(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES (?, ?, 'stopped', 1)`).run(JSON.stringify([urls[0]?.url ?? 'http://a.test/']), JSON.stringify({ ...DEFAULT_CRAWL_SETTINGS, ...settings }))
      .lastInsertRowid,
  );
  const normalize = createNormalizer(settings.normalizationProfile ?? DEFAULT_CRAWL_SETTINGS.normalizationProfile);
  const insert = db.prepare(
    `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, discovered_from, enqueued_at_ms, http_status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 1, ?)`,
  );
  const alias = db.prepare(`INSERT INTO url_aliases (url_id, raw_url, first_seen_from) VALUES (?, ?, ?)`);
  const ids = urls.map((row) => {
    const normalized = normalize(row.url);
    if (!normalized.ok) throw new Error(normalized.error.message);
    const host = new URL(row.url).hostname;
    const id = Number(
      insert.run(crawlId, normalized.value.key, normalized.value.normalized, row.url, host, host.split('.').slice(-2).join('.'), row.state ?? 'done', row.depth ?? 0, row.from ?? null, row.status ?? (row.state === 'done' || row.state === undefined ? 200 : null))
        .lastInsertRowid,
    );
    for (const raw of [row.url, ...(row.aliases ?? [])]) alias.run(id, raw, row.from ?? null);
    return id;
  });
  return { crawlId, ids };
}

/** Test helper: one links row as stored since migration 0016 (kind and rule by name, stored as their codes). */
export interface TestLink {
  fromUrlId: number;
  toUrlId: number | null;
  /** The link's text; null: the target's URL exactly (the store keeps no text then). */
  rawUrl: string | null;
  /** @default 'a' */
  kind?: string;
  refusedBy?: string | null;
  anchorText?: string | null;
  rel?: string | null;
}

/**
 * Test helper: inserts a links row, its kind and rule encoded by link-codes.ts, and widens its
 * source URL's link range to it (link-ranges.ts), as the crawl writer does. @returns the row id
 */
export function insertLink(db: Database, crawlId: number, link: TestLink): number {
  const id = Number(
    db
      .prepare(`INSERT INTO links (crawl_id, from_url_id, raw_url, to_url_id, kind, refused_by, anchor_text, rel) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(crawlId, link.fromUrlId, link.rawUrl, link.toUrlId, linkKindCode(link.kind ?? 'a'), linkRuleCode(link.refusedBy ?? null), link.anchorText ?? null, link.rel ?? null).lastInsertRowid,
  );
  db.prepare(EXTEND_LINK_RANGE_SQL).run(...extendLinkRangeArgs(link.fromUrlId, { first: id, last: id }));
  return id;
}

/**
 * Test helper: hands `onPrepare` the SQL of every statement `db` prepares from now on.
 * @returns the connection's own prepare, bound (to EXPLAIN a statement unwatched, or to put back)
 */
export function watchPrepare(db: Database, onPrepare: (sql: string) => void): Database['prepare'] {
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    onPrepare(sql);
    return prepare(sql);
  }) as Database['prepare'];
  return prepare;
}

/**
 * Crawl comparison (issue 14 part 7, `crawlbench diff`): what changed on a site between two
 * crawls, in one database or two. URLs are joined on their normalized key (seed 001), so two
 * spellings of one URL (tracking parameters, host case, a fragment, a directory index) are one
 * URL and make no phantom add or remove. Each URL present on both sides is then compared field by
 * field: HTTP status, title, content fingerprint (SHA-256 of the visible text) and, when the
 * fingerprints differ, the estimated Jaccard similarity of the two MinHash sketches, redirect
 * target (pages.location), and error state.
 *
 * Both crawls are read in normalized-key order (the `UNIQUE (crawl_id, normalized_key)` index of
 * `urls` serves the order, so SQLite sorts nothing) in keyset pages, and merge-walked: memory holds
 * a page of each side and the changes found, never a crawl. The one exception is a re-key: when
 * the two crawls key URLs differently (another normalization profile, or other accepted DUST
 * rules), every URL of the after crawl is keyed again under the before crawl's identity and those
 * rows are sorted in memory. Measured on a loaded 2-core machine, two crawls of 100,000 URLs:
 * about 2 s (crawl-diff.test.ts), 3 s with the re-key (normalizing 100,000 URLs takes ~0.9 s).
 */
import { CrawlReader, estimatedJaccard, MINHASH_SIZE, readActiveRules, sketchFromBlob, type ReadableDB } from '../../engine';
import type { CrawlSettings, CrawlStatus } from '../../shared/types/crawl';
import { CHANGE_KINDS, type ChangeKind, type CrawlChange, type DiffCrawlInfo, type UrlSnapshot } from '../../shared/types/comparison';
import { CodedError } from '../../shared/types/result';
import { createCrawlNormalizer } from '../../shared/url/dust/identity';
import type { DustRule } from '../../shared/url/dust/rule';
import type { NormalizationProfile } from '../../shared/url/profiles';

// The vocabulary lives in shared/types/comparison.ts (the renderer's Compare view reads it too).
export { CHANGE_KIND_LABELS, CHANGE_KINDS, type ChangeKind, type CrawlChange, type DiffCrawlInfo, type UrlSnapshot } from '../../shared/types/comparison';

/** One side of a comparison: a database handle (read-only is enough) and a crawl of it. */
export interface DiffSource {
  db: ReadableDB;
  crawlId: number;
}

/** The comparison of two crawls. */
export interface CrawlDiff {
  before: DiffCrawlInfo;
  after: DiffCrawlInfo;
  /**
   * True when the crawls key URLs differently (normalization profile or DUST rules differ): the
   * after crawl's URLs were keyed again under the before crawl's identity for the join.
   */
  rekeyed: boolean;
  /** After-crawl URLs folded into another after-crawl URL by the re-key (same key under the before identity): not compared. */
  foldedByRekey: number;
  /** Similarity at or above which a changed fingerprint is `near-changed`: the before crawl's nearDuplicateThreshold unless overridden. */
  nearDuplicateThreshold: number;
  /** URLs whose normalized key is in both crawls. */
  common: number;
  /** Changes per kind (every kind present, 0 when none). */
  counts: Record<ChangeKind, number>;
  /** Every change, by kind (CHANGE_KINDS order), then URL, then normalized key. */
  changes: CrawlChange[];
}

/** Tuning of {@link diffCrawls}. */
export interface CrawlDiffOptions {
  /** Similarity from which a changed page is `near-changed`, in [0, 1]. @default the before crawl's nearDuplicateThreshold (0.9 unless set) */
  nearDuplicateThreshold?: number;
  /** Rows read per keyset page of each side. @default 2000 */
  pageSize?: number;
}

/** A settled URL row as read, keyed for the merge. */
interface SideRow extends UrlSnapshot {
  key: string;
  hasPage: number;
}

/** A source of one side's rows in ascending key order. */
interface RowStream {
  next(): SideRow | null;
}

/** The first statuses that are HTTP errors (RFC 9110 §15.5, §15.6). */
const HTTP_ERROR_FROM = 400;

/**
 * Compares crawl `after.crawlId` with crawl `before.crawlId` (the older one, usually): URLs joined
 * on the normalized key, each URL checked for every {@link CHANGE_KINDS} kind. Reads only
 * (SELECTs in one read transaction per database, so a crawl running meanwhile is seen at one
 * moment). Schemas older than the columns it reads (fingerprint: migration 0004, location: 0006)
 * read them as null.
 * @returns every change with counts and the two crawls' descriptions ({@link CrawlDiff})
 * @throws CodedError CRAWL_NOT_FOUND (either crawl id is not in its database), NOTHING_TO_COMPARE
 *   (both sides are the same crawl of the same handle), INVALID_DUST_RULE (a stored rule no longer
 *   validates)
 */
export function diffCrawls(before: DiffSource, after: DiffSource, options: CrawlDiffOptions = {}): CrawlDiff {
  if (before.db === after.db && before.crawlId === after.crawlId) {
    throw new CodedError('NOTHING_TO_COMPARE', `Both sides are crawl ${before.crawlId} of the same database: name two crawls (--crawl ID twice) or two databases`);
  }
  const run = (): CrawlDiff => compare(before, after, options);
  const inBefore = (): CrawlDiff => before.db.transaction(run)();
  return after.db === before.db ? inBefore() : after.db.transaction(inBefore)();
}

/**
 * The ids of a database's newest crawls, newest first: `crawlbench diff`'s default sides.
 * @param count how many at most
 */
export function newestCrawlIds(db: ReadableDB, count: number): number[] {
  return db.prepare(`SELECT id FROM crawls ORDER BY id DESC LIMIT ?`).pluck().all(count) as number[];
}

function compare(before: DiffSource, after: DiffSource, options: CrawlDiffOptions): CrawlDiff {
  const beforeCrawl = new CrawlReader(before.db).getCrawl(before.crawlId);
  const afterCrawl = new CrawlReader(after.db).getCrawl(after.crawlId);
  const beforeRules = readActiveRules(before.db, before.crawlId);
  const afterRules = readActiveRules(after.db, after.crawlId);
  const rekeyed = identitySignature(beforeCrawl.settings.normalizationProfile, beforeRules) !== identitySignature(afterCrawl.settings.normalizationProfile, afterRules);
  const threshold = options.nearDuplicateThreshold ?? beforeCrawl.settings.nearDuplicateThreshold;
  const pageSize = options.pageSize ?? 2000;

  const beforeRows = new KeysetStream(before.db, before.crawlId, pageSize);
  let afterRows: RowStream;
  let folded = 0;
  let afterUrls: number;
  if (rekeyed) {
    const rekey = rekeyedRows(new KeysetStream(after.db, after.crawlId, pageSize), createCrawlNormalizer(beforeCrawl.settings.normalizationProfile, beforeRules));
    folded = rekey.folded;
    afterUrls = rekey.rows.length + rekey.folded;
    afterRows = arrayStream(rekey.rows);
  } else {
    afterRows = new KeysetStream(after.db, after.crawlId, pageSize);
    afterUrls = 0;
  }

  const sketches = { before: minhashReader(before.db), after: minhashReader(after.db) };
  const changes: CrawlChange[] = [];
  let beforeUrls = 0;
  let afterSeen = 0;
  let common = 0;
  let b = beforeRows.next();
  let a = afterRows.next();
  while (b || a) {
    if (a && (!b || a.key < b.key)) {
      afterSeen += 1;
      changes.push(change('added', a.key, null, a));
      if (isError(a)) changes.push(change('new-error', a.key, null, a));
      a = afterRows.next();
    } else if (b && (!a || b.key < a.key)) {
      beforeUrls += 1;
      changes.push(change('removed', b.key, b, null));
      b = beforeRows.next();
    } else {
      beforeUrls += 1;
      afterSeen += 1;
      common += 1;
      compareUrl(b!, a!, threshold, sketches, changes);
      b = beforeRows.next();
      a = afterRows.next();
    }
  }
  if (!rekeyed) afterUrls = afterSeen;

  changes.sort(byKindThenUrl);
  const counts = Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, 0])) as Record<ChangeKind, number>;
  for (const item of changes) counts[item.kind] += 1;
  return {
    before: crawlInfo(beforeCrawl.id, beforeCrawl.status, beforeCrawl.createdAtMs, beforeCrawl.settings, beforeRules, beforeUrls),
    after: crawlInfo(afterCrawl.id, afterCrawl.status, afterCrawl.createdAtMs, afterCrawl.settings, afterRules, afterUrls),
    rekeyed,
    foldedByRekey: folded,
    nearDuplicateThreshold: threshold,
    common,
    counts,
    changes,
  };
}

/** The changes of one URL found in both crawls, appended to `out`. */
function compareUrl(b: SideRow, a: SideRow, threshold: number, sketches: { before: (urlId: number) => Buffer | null; after: (urlId: number) => Buffer | null }, out: CrawlChange[]): void {
  if (b.status !== a.status) out.push(change('status', a.key, b, a));
  const bothPages = isSuccess(b) && isSuccess(a);
  if (bothPages && b.title !== a.title) out.push(change('title', a.key, b, a));
  if (bothPages && b.fingerprint !== null && a.fingerprint !== null && b.fingerprint !== a.fingerprint) {
    const similarity = sketchSimilarity(sketches.before(b.urlId), sketches.after(a.urlId));
    out.push({ ...change(similarity !== null && similarity >= threshold ? 'near-changed' : 'content', a.key, b, a), similarity });
  }
  if (b.location !== a.location) out.push(change('redirect', a.key, b, a));
  if (isError(a) && !isError(b)) out.push(change('new-error', a.key, b, a));
}

/** A settled page answered 2xx: its title and text are the page's own. */
function isSuccess(row: SideRow): boolean {
  return row.hasPage === 1 && row.status !== null && row.status >= 200 && row.status < 300;
}

/** The URL failed: state `error`, or an HTTP error status. */
function isError(row: SideRow): boolean {
  return row.state === 'error' || (row.status !== null && row.status >= HTTP_ERROR_FROM);
}

function change(kind: ChangeKind, key: string, before: SideRow | null, after: SideRow | null): CrawlChange {
  return { kind, normalizedKey: key, url: (after ?? before)!.url, before: before && snapshot(before), after: after && snapshot(after) };
}

/** The public fields of a row (the merge's own fields dropped). */
function snapshot(row: SideRow): UrlSnapshot {
  return { urlId: row.urlId, url: row.url, state: row.state, status: row.status, title: row.title, fingerprint: row.fingerprint, location: row.location, errorCode: row.errorCode };
}

const KIND_ORDER = new Map<ChangeKind, number>(CHANGE_KINDS.map((kind, index) => [kind, index]));

function byKindThenUrl(x: CrawlChange, y: CrawlChange): number {
  const kinds = KIND_ORDER.get(x.kind)! - KIND_ORDER.get(y.kind)!;
  if (kinds !== 0) return kinds;
  if (x.url !== y.url) return x.url < y.url ? -1 : 1;
  return x.normalizedKey < y.normalizedKey ? -1 : x.normalizedKey > y.normalizedKey ? 1 : 0;
}

function crawlInfo(crawlId: number, status: CrawlStatus, createdAtMs: number, settings: CrawlSettings, rules: readonly DustRule[], urls: number): DiffCrawlInfo {
  return { crawlId, status, createdAtMs, profile: settings.normalizationProfile.name, dustRules: rules.length, urls };
}

/**
 * What decides a crawl's keys: the profile's switches and lists (not its name) and the DUST rules
 * in force, in order. Equal signatures key every URL alike.
 */
function identitySignature(profile: NormalizationProfile, rules: readonly DustRule[]): string {
  const switches = Object.keys(profile.rules)
    .sort()
    .map((name) => `${name}=${profile.rules[name as keyof NormalizationProfile['rules']]}`);
  return JSON.stringify([switches, profile.directoryIndexes, profile.removeQueryParams, profile.defaultQueryParams, profile.fileExtensions, rules]);
}

/**
 * Estimated Jaccard similarity of two stored MinHash sketches (`pages.minhash`, content-verdict.ts
 * sketchToBlob), by the engine's one formula (dedupe/shingles.ts estimatedJaccard).
 * @returns a value in [0, 1], or null when a sketch is missing, malformed, or the two differ in length
 */
export function sketchSimilarity(a: Uint8Array | null, b: Uint8Array | null): number | null {
  if (!a || !b || a.byteLength === 0 || a.byteLength !== b.byteLength || a.byteLength % 4 !== 0) return null;
  const left = sketchFromBlob(a);
  const right = sketchFromBlob(b);
  return left.length === MINHASH_SIZE ? estimatedJaccard(left, right) : null;
}

/** A page's stored MinHash sketch by URL id, read when a comparison needs it. */
function minhashReader(db: ReadableDB): (urlId: number) => Buffer | null {
  const hasColumn = pageColumns(db).has('minhash');
  if (!hasColumn) return () => null;
  const statement = db.prepare(`SELECT minhash FROM pages WHERE url_id = ?`).pluck();
  return (urlId) => (statement.get(urlId) as Buffer | null | undefined) ?? null;
}

/** Columns of the pages table (older schemas lack some). */
export function pageColumns(db: ReadableDB): Set<string> {
  return new Set(db.prepare(`SELECT name FROM pragma_table_info('pages')`).pluck().all() as string[]);
}

/**
 * The keyset page query of one side: a crawl's settled URLs (a page row, or state `error`) with
 * a normalized key above the last one read, ascending, at most a page. Parameters: crawl id, last
 * key ('' for the first page), page size. Columns the pages table lacks (an older schema opened
 * read-only) are read as NULL. Exported for crawl-diff.test.ts, which checks its plan.
 * @param columns the pages table's columns ({@link pageColumns})
 */
export function settledUrlsSql(columns: ReadonlySet<string>): string {
  const optional = (name: string): string => (columns.has(name) ? `p.${name}` : 'NULL');
  return `SELECT u.id AS urlId, u.normalized_key AS key, u.url, u.state, COALESCE(p.http_status, u.http_status) AS status, u.error_code AS errorCode,
            (p.url_id IS NOT NULL) AS hasPage, p.title, ${optional('fingerprint')} AS fingerprint, ${optional('location')} AS location
     FROM urls u LEFT JOIN pages p ON p.url_id = u.id
     WHERE u.crawl_id = ? AND u.normalized_key > ? AND (p.url_id IS NOT NULL OR u.state = 'error')
     ORDER BY u.normalized_key LIMIT ?`;
}

/**
 * A crawl's settled URLs in ascending normalized-key order, `pageSize` at a time: keyset pages
 * over the `UNIQUE (crawl_id, normalized_key)` index (no sort; crawl-diff.test.ts checks the plan).
 * Keys are UUIDs (lowercase hex and dashes), so SQLite's BINARY order is JavaScript's `<`.
 */
class KeysetStream implements RowStream {
  private readonly statement;
  private rows: SideRow[] = [];
  private at = 0;
  private lastKey = '';
  private done = false;

  constructor(
    db: ReadableDB,
    private readonly crawlId: number,
    private readonly pageSize: number,
  ) {
    this.statement = db.prepare(settledUrlsSql(pageColumns(db)));
  }

  next(): SideRow | null {
    if (this.at === this.rows.length) {
      if (this.done) return null;
      this.rows = this.statement.all(this.crawlId, this.lastKey, this.pageSize) as SideRow[];
      this.at = 0;
      if (this.rows.length < this.pageSize) this.done = true;
      if (this.rows.length === 0) return null;
      this.lastKey = this.rows.at(-1)!.key;
    }
    return this.rows[this.at++]!;
  }
}

function arrayStream(rows: readonly SideRow[]): RowStream {
  let at = 0;
  return { next: () => rows[at++] ?? null };
}

/**
 * Every row of `stream` keyed again by `normalize` (the before crawl's identity) from its fetched
 * spelling, sorted by the new key. Rows whose new keys collide are folded into one: the row with
 * a page wins, then the lowest URL id. A spelling the identity cannot normalize keeps its stored key.
 */
function rekeyedRows(stream: RowStream, normalize: ReturnType<typeof createCrawlNormalizer>): { rows: SideRow[]; folded: number } {
  const rows: SideRow[] = [];
  for (let row = stream.next(); row; row = stream.next()) {
    const normalized = normalize(row.url);
    rows.push(normalized.ok ? { ...row, key: normalized.value.key } : row);
  }
  rows.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : y.hasPage - x.hasPage || x.urlId - y.urlId));
  const kept: SideRow[] = [];
  for (const row of rows) if (kept.at(-1)?.key !== row.key) kept.push(row);
  return { rows: kept, folded: rows.length - kept.length };
}

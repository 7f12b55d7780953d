/** The content-seen test in SQLite: exact fingerprints and MinHash near-duplicates, grouped and stored. */
import type { Statement } from 'better-sqlite3';
import type { WritableDB } from './database';
import { PENDING_BAND_ROWS, PendingBands } from './pending-bands';
import type { ContentFingerprints } from '../../worker/protocol';
import { BandIndex, BAND_INDEX_MAX_BYTES } from '../../dedupe/band-index';
import { BucketFilter } from '../../dedupe/bucket-filter';
import { FingerprintCache } from '../../dedupe/fingerprint-cache';
import { SketchCache } from '../../dedupe/sketch-cache';
import { bandBuckets, estimatedJaccard, MINHASH_SIZE } from '../../dedupe/shingles';
import {
  bestMatchBy,
  DEFAULT_MAX_CANDIDATES,
  DEFAULT_MIN_WORDS_FOR_NEAR,
  sketchFromBlob,
  walkCandidates,
  type ContentDedupeOptions,
  type ContentVerdict,
} from '../../dedupe/content-verdict';

/**
 * Recorded pages whose content fingerprints the exact half of the content-seen test keeps in memory
 * at most: 2^20, about 30 MB when full (FingerprintCache: 17 bytes an entry and 8 to 16 of table;
 * 3 MB at 100,000 pages). A crawl past it creates pages_by_fingerprint and probes that instead.
 */
export const EXACT_FINGERPRINTS_MAX = 1 << 20;

/**
 * The index the exact probe of a crawl past EXACT_FINGERPRINTS_MAX reads (migration 0004 made it for
 * every crawl, 0028 dropped it: its random inserts were a fifth of a commit's WAL frames).
 */
const PAGES_BY_FINGERPRINT_SQL = `CREATE INDEX IF NOT EXISTS pages_by_fingerprint ON pages (crawl_id, fingerprint)`;

/** Pages read at a time when a store derives the band rows of pages without stored ones (the constructor). */
const DERIVE_CHUNK_PAGES = 4096;

/**
 * The next DERIVE_CHUNK_PAGES pages of crawl ?1 after URL id ?2 whose band rows `record` made: 2xx
 * with a sketch, and not an exact duplicate (an exact group's members other than its first page
 * were never indexed). A range of the pages table's key (`+p.crawl_id` keeps SQLite off
 * pages_by_fingerprint, which made each chunk sort the crawl's pages: 8.4 s against 0.6 s for the
 * 98,000 pages of the 100,000-page synthetic crawl).
 */
export const UNINDEXED_PAGES_SQL = `SELECT p.url_id, p.minhash FROM pages p WHERE +p.crawl_id = ? AND p.url_id > ? AND p.minhash IS NOT NULL AND p.http_status < 300
  AND NOT EXISTS (SELECT 1 FROM content_group_members m JOIN content_groups g ON g.id = m.group_id WHERE m.url_id = p.url_id AND g.kind = 'exact' AND g.first_url_id != p.url_id)
  ORDER BY p.url_id LIMIT ${DERIVE_CHUNK_PAGES}`;

/** The fewest equal positions `e` of two sketches with e / MINHASH_SIZE ≥ `threshold` (as bestMatchBy compares), MINHASH_SIZE + 1 when none. */
function enoughEqualValues(threshold: number): number {
  for (let equal = 0; equal <= MINHASH_SIZE; equal += 1) if (equal / MINHASH_SIZE >= threshold) return equal;
  return MINHASH_SIZE + 1;
}

/**
 * The content-seen test (seed 003, IIR 20.2 "Doc FP's"; IIR 19.6 near-duplicates), run on the
 * writer thread inside the crawl's commit transaction, over the crawl's 2xx pages. Exact duplicates
 * share a SHA-256 fingerprint of normalized visible text (found from the fingerprints kept in
 * memory); near-duplicates are found through LSH band buckets of MinHash sketches (the in-memory
 * band index, band-index.ts, while it holds them) and confirmed by estimated Jaccard ≥ threshold.
 * Groups and members are stored (content_groups / content_group_members); a member's similarity
 * is to the group's first page.
 */
export class ContentDedupe {
  /** The smallest recorded page (2xx) of crawl ?1 with fingerprint ?2 other than ?3: through pages_by_fingerprint when it exists, else a scan by URL id. */
  private readonly byFingerprint: Statement;
  private readonly pageFingerprint: Statement;
  /**
   * Each recorded page's fingerprint (as its 64 bits: fingerprint-cache.ts) with the smallest URL id
   * recorded with it, for every recorded page of the crawl; null past `exactMax` pages, when
   * pages_by_fingerprint answers instead.
   */
  private exact: FingerprintCache | null;
  private readonly exactGroup: Statement;
  private readonly insertGroup: Statement;
  private readonly insertMember: Statement;
  private readonly bucketMembers: Statement;
  private readonly sketchOf: Statement;
  private readonly nearGroupOf: Statement;
  private readonly sketches = new SketchCache();
  /** Equal sketch positions a near-duplicate needs: the fewest `e` with e / MINHASH_SIZE ≥ threshold (MINHASH_SIZE + 1 when none). */
  private readonly enoughEqual: number;
  /**
   * The crawl's band buckets (stored or pending), so a probe of a bucket no page has skips its
   * SQLite lookup (bucket-filter.ts). Only once the band index is dropped (past its bytes): while
   * the index holds every row a probe is a binary search in memory, and the filter's 8 MiB would
   * save nothing (null until then).
   */
  private storedBuckets: BucketFilter | null = null;
  private readonly allBuckets: Statement;
  /** Band rows not yet in `minhash_bands`, written sorted when enough wait (pending-bands.ts). */
  private readonly pending: PendingBands;
  /** The rows of `minhash_bands` in memory while they fit (band-index.ts): probes answered without a seek. */
  private readonly stored: BandIndex;

  /**
   * @param bandIndexBytes bytes the in-memory band rows may take (band-index.ts); 0 probes the table only
   * @param exactMax recorded pages whose fingerprints are kept in memory at most ({@link EXACT_FINGERPRINTS_MAX})
   */
  constructor(
    private readonly db: WritableDB,
    private readonly crawlId: number,
    private readonly options: ContentDedupeOptions,
    bandIndexBytes = BAND_INDEX_MAX_BYTES,
    private readonly exactMax = EXACT_FINGERPRINTS_MAX,
  ) {
    this.byFingerprint = db.prepare(`SELECT url_id FROM pages WHERE crawl_id = ? AND fingerprint = ? AND url_id != ? AND http_status < 300 ORDER BY url_id LIMIT 1`).pluck();
    this.pageFingerprint = db.prepare(`SELECT fingerprint, http_status AS status FROM pages WHERE url_id = ?`);
    this.exact = this.loadExact();
    this.exactGroup = db.prepare(`SELECT id FROM content_groups WHERE crawl_id = ? AND kind = 'exact' AND fingerprint = ?`).pluck();
    this.insertGroup = db.prepare(`INSERT INTO content_groups (crawl_id, kind, fingerprint, first_url_id, created_at_ms) VALUES (?, ?, ?, ?, ?)`);
    this.insertMember = db.prepare(`INSERT OR IGNORE INTO content_group_members (group_id, url_id, similarity) VALUES (?, ?, ?)`);
    this.bucketMembers = db.prepare(`SELECT url_id FROM minhash_bands WHERE crawl_id = ? AND band = ? AND bucket = ? AND url_id != ? LIMIT ?`).pluck();
    this.sketchOf = db.prepare(`SELECT minhash FROM pages WHERE url_id = ?`).pluck();
    this.nearGroupOf = db.prepare(
      `SELECT g.id AS id, g.first_url_id AS firstUrlId FROM content_group_members m JOIN content_groups g ON g.id = m.group_id WHERE m.url_id = ? AND g.kind = 'near' LIMIT 1`,
    );
    this.allBuckets = db.prepare(`SELECT band, bucket FROM minhash_bands WHERE crawl_id = ?`).raw();
    this.pending = new PendingBands(db, crawlId);
    this.enoughEqual = enoughEqualValues(options.threshold);
    this.stored = new BandIndex(bandIndexBytes);
    // A resumed crawl's stored buckets (one range of the table's key, in key order: about 1.6M rows at 100,000 pages).
    const indexed = new Set<number>();
    const storedRows = db.prepare(`SELECT band, bucket, url_id FROM minhash_bands WHERE crawl_id = ? ORDER BY band, bucket, url_id`).raw();
    const run: [number, number, number][] = [];
    for (const row of storedRows.iterate(crawlId) as Iterable<[number, number, number]>) {
      indexed.add(row[2]);
      if (!this.stored.complete) continue;
      run.push(row);
      if (run.length === PENDING_BAND_ROWS) {
        const chunk = run.splice(0);
        this.stored.addSorted(chunk.length, (at) => chunk[at]!);
      }
    }
    this.stored.addSorted(run.length, (at) => run[at]!);
    if (!this.stored.complete) this.fillBucketFilter();
    // Pages without stored rows: their rows follow from their sketches. These are the pages `record`
    // indexed (2xx with a sketch, and not an exact duplicate: an exact group's members other than its
    // first page were never indexed) that were not written to the table: every one while the
    // in-memory index held the crawl's rows (pending-bands.ts flush), and those still pending when a
    // run ended without its flush (a crash). Read by URL id in chunks, each handled before the next
    // read (a flush may write the table, which better-sqlite3 refuses while a statement iterates).
    const unindexed = db
      .prepare(UNINDEXED_PAGES_SQL)
      .raw();
    for (let after = 0; ; ) {
      const chunk = unindexed.all(crawlId, after) as [number, Buffer][];
      if (chunk.length === 0) break;
      for (const [urlId, minhash] of chunk) {
        if (indexed.has(urlId)) continue;
        const sketch = sketchFromBlob(minhash);
        if (sketch.length !== MINHASH_SIZE) continue;
        this.index(urlId, bandBuckets(sketch));
        if (this.pending.full) db.transaction(() => this.flushPending())();
      }
      after = chunk[chunk.length - 1]![0];
    }
  }

  /**
   * Moves the band rows still pending where they belong (pending-bands.ts flush: into the in-memory
   * index while it holds every row, else the table), inside the caller's write transaction: called
   * when the run's writer closes. Without it nothing is lost: the next open derives them again.
   */
  flush(): void {
    this.flushPending();
  }

  /**
   * Classifies a page whose row (with fingerprint and sketch) is already written, records its
   * group membership, and indexes its sketch for later pages.
   */
  record(urlId: number, content: ContentFingerprints, nowMs: number): ContentVerdict {
    // The page memory names for this fingerprint, looked up once for the probe and the keeping.
    const held = this.exact?.get(content.fingerprint);
    const original = this.exactOriginal(content.fingerprint, urlId, held);
    this.keepFingerprint(content.fingerprint, urlId, held);
    if (original !== undefined) {
      let groupId = this.exactGroup.get(this.crawlId, content.fingerprint) as number | undefined;
      if (groupId === undefined) {
        groupId = Number(this.insertGroup.run(this.crawlId, 'exact', content.fingerprint, original, nowMs).lastInsertRowid);
        this.insertMember.run(groupId, original, 1);
      }
      this.insertMember.run(groupId, urlId, 1);
      return { kind: 'exact', groupId, duplicateOf: original };
    }
    const buckets = bandBuckets(content.minhash);
    const candidates =
      content.words >= (this.options.minWordsForNear ?? DEFAULT_MIN_WORDS_FOR_NEAR)
        ? walkCandidates(
            buckets.length,
            (band, limit) => (this.storedBuckets === null || this.storedBuckets.mightHold(band, buckets[band]!) ? this.bucketMembersOf(band, buckets[band]!, urlId, limit) : []),
            this.options.maxCandidates ?? DEFAULT_MAX_CANDIDATES,
          )
        : [];
    const best = bestMatchBy(candidates, (candidate) => this.similarity(content.minhash, candidate), this.options.threshold);
    this.index(urlId, buckets);
    if (this.pending.full) this.flushPending();
    this.sketches.set(urlId, content.minhash);
    if (!best) return { kind: 'unique' };
    const existing = this.nearGroupOf.get(best.urlId) as { id: number; firstUrlId: number } | undefined;
    if (existing) {
      const first = this.sketch(existing.firstUrlId);
      const similarity = existing.firstUrlId === best.urlId ? best.similarity : estimatedJaccard(content.minhash, first);
      this.insertMember.run(existing.id, urlId, similarity);
      return { kind: 'near', groupId: existing.id, duplicateOf: existing.firstUrlId, similarity };
    }
    const groupId = Number(this.insertGroup.run(this.crawlId, 'near', null, best.urlId, nowMs).lastInsertRowid);
    this.insertMember.run(groupId, best.urlId, 1);
    this.insertMember.run(groupId, urlId, best.similarity);
    return { kind: 'near', groupId, duplicateOf: best.urlId, similarity: best.similarity };
  }

  /**
   * The recorded pages' fingerprints, each with its smallest URL id (pages by URL id, so the first
   * met is the smallest); null, and pages_by_fingerprint made, when there are more than `exactMax`.
   */
  private loadExact(): FingerprintCache | null {
    const exact = new FingerprintCache({ maxEntries: this.exactMax });
    const recorded = this.db.prepare(`SELECT url_id, fingerprint FROM pages WHERE +crawl_id = ? AND fingerprint IS NOT NULL AND http_status < 300 ORDER BY url_id`).raw();
    for (const [urlId, fingerprint] of recorded.iterate(this.crawlId) as Iterable<[number, string]>) {
      if (exact.has(fingerprint)) continue;
      // Past the bound (leaving the loop ends the statement, before the index is made: better-sqlite3 refuses a write while one iterates).
      if (exact.size >= this.exactMax) break;
      exact.set(fingerprint, urlId);
    }
    if (exact.size < this.exactMax) return exact;
    return this.leaveMemory();
  }

  /** Past `exactMax` recorded pages: makes pages_by_fingerprint, which the exact probe reads from now on, and keeps no fingerprint in memory. */
  private leaveMemory(): null {
    this.db.exec(PAGES_BY_FINGERPRINT_SQL);
    this.exact = null;
    return null;
  }

  /**
   * The smallest recorded page other than `urlId` with `fingerprint` (what `byFingerprint` says), or
   * undefined. From memory while it holds every recorded page: no fingerprint there, no such page;
   * else the page it names, once its row still says so (same fingerprint, still 2xx). Otherwise (a
   * page fetched again since, this page itself fetched again, or two fingerprints sharing 64 bits)
   * the table is read.
   * @param held what memory holds for `fingerprint` (`exact.get`), undefined when nothing or no memory
   */
  private exactOriginal(fingerprint: string, urlId: number, held: number | undefined): number | undefined {
    if (this.exact === null) return this.byFingerprint.get(this.crawlId, fingerprint, urlId) as number | undefined;
    if (held === undefined) return undefined;
    if (held !== urlId) {
      const row = this.pageFingerprint.get(held) as { fingerprint: string | null; status: number } | undefined;
      if (row !== undefined && row.fingerprint === fingerprint && row.status < 300) return held;
    }
    return this.byFingerprint.get(this.crawlId, fingerprint, urlId) as number | undefined;
  }

  /** Keeps `urlId` as the page of `fingerprint` when it is the smallest so far; past `exactMax` pages, makes pages_by_fingerprint and leaves memory. */
  private keepFingerprint(fingerprint: string, urlId: number, held: number | undefined): void {
    const exact = this.exact;
    if (exact === null) return;
    if (held !== undefined) {
      if (urlId < held) exact.set(fingerprint, urlId);
      return;
    }
    if (exact.size >= this.exactMax) this.leaveMemory();
    else exact.set(fingerprint, urlId);
  }

  /** {@link flush}; once the index is dropped, the bucket filter starts from the table, which holds every row from then on. */
  private flushPending(): void {
    this.pending.flush(this.stored);
    if (!this.stored.complete && this.storedBuckets === null) this.fillBucketFilter();
  }

  /** Indexes a page's band buckets for later pages: pending until the next flush, and in the bucket filter when there is one. */
  private index(urlId: number, buckets: readonly number[]): void {
    const filter = this.storedBuckets;
    buckets.forEach((bucket, band) => {
      this.pending.add(band, bucket, urlId);
      filter?.add(band, bucket);
    });
  }

  /**
   * Starts the bucket filter once the band index is dropped: every stored row's bucket, read from
   * `minhash_bands` (one pass over the crawl's rows, about 2.8M when the index outgrows
   * BAND_INDEX_MAX_BYTES), and the pending rows' buckets. From then on {@link index} adds to it.
   */
  private fillBucketFilter(): void {
    const filter = new BucketFilter();
    for (const [band, bucket] of this.allBuckets.iterate(this.crawlId) as Iterable<[number, number]>) filter.add(band, bucket);
    this.pending.forEachBucket((band, bucket) => filter.add(band, bucket));
    this.storedBuckets = filter;
  }

  /**
   * At most `limit` pages with `bucket` in `band` other than `urlId`, stored or pending, by URL id
   * (the table's key order): the stored ones from memory while the band index holds them all.
   */
  private bucketMembersOf(band: number, bucket: number, urlId: number, limit: number): number[] {
    const stored = this.stored.complete ? this.stored.membersOf(band, bucket, urlId, limit) : (this.bucketMembers.all(this.crawlId, band, bucket, urlId, limit) as number[]);
    const pending = this.pending.membersOf(band, bucket, urlId);
    if (pending.length === 0) return stored;
    return [...new Set([...stored, ...pending])].sort((a, b) => a - b).slice(0, limit);
  }

  /**
   * estimatedJaccard of `sketch` and recorded page `urlId`'s sketch, compared in the cache (read
   * from its pages row and cached first on a miss): exact when it reaches the threshold, some
   * smaller value otherwise (SketchCache.equalValues stops early), which bestMatchBy passes over alike.
   */
  private similarity(sketch: Uint32Array, urlId: number): number {
    let equal = this.sketches.equalValues(urlId, sketch, this.enoughEqual);
    if (equal === -1) {
      this.sketch(urlId);
      equal = this.sketches.equalValues(urlId, sketch, this.enoughEqual);
    }
    return equal / MINHASH_SIZE;
  }

  /**
   * A recorded page's sketch, for a comparison made at once: a view of the cache's slab
   * (SketchCache.view, valid until the next sketch is cached), else read from its pages row and
   * cached (empty when it has none).
   */
  private sketch(urlId: number): Uint32Array {
    const held = this.sketches.view(urlId);
    if (held !== undefined) return held;
    const sketch = sketchFromBlob(this.sketchOf.get(urlId) as Buffer | null);
    this.sketches.set(urlId, sketch);
    return sketch;
  }
}


/** The content-seen test in SQLite: exact fingerprints and MinHash near-duplicates, grouped and stored. */
import type { Statement } from 'better-sqlite3';
import type { WritableDB } from './database';
import { PENDING_BAND_ROWS, PendingBands } from './pending-bands';
import type { ContentFingerprints } from '../../worker/protocol';
import { BandIndex, BAND_INDEX_MAX_BYTES } from '../../dedupe/band-index';
import { BucketFilter } from '../../dedupe/bucket-filter';
import { SketchCache } from '../../dedupe/sketch-cache';
import { bandBuckets, estimatedJaccard, MINHASH_SIZE } from '../../dedupe/shingles';
import {
  bestNearMatch,
  DEFAULT_MAX_CANDIDATES,
  DEFAULT_MIN_WORDS_FOR_NEAR,
  sketchFromBlob,
  walkCandidates,
  type ContentDedupeOptions,
  type ContentVerdict,
} from '../../dedupe/content-verdict';

/**
 * The content-seen test (seed 003, IIR 20.2 "Doc FP's"; IIR 19.6 near-duplicates), run on the
 * writer thread inside the crawl's commit transaction. Exact duplicates share a SHA-256 fingerprint
 * of normalized visible text; near-duplicates are found through LSH band buckets of MinHash
 * sketches and confirmed by estimated Jaccard ≥ threshold. Groups and members are stored
 * (content_groups / content_group_members); a member's similarity is to the group's first page.
 */
export class ContentDedupe {
  private readonly byFingerprint: Statement;
  private readonly exactGroup: Statement;
  private readonly insertGroup: Statement;
  private readonly insertMember: Statement;
  private readonly bucketMembers: Statement;
  private readonly sketchOf: Statement;
  private readonly nearGroupOf: Statement;
  private readonly sketches = new SketchCache();
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

  /** @param bandIndexBytes bytes the in-memory band rows may take (band-index.ts); 0 probes the table only */
  constructor(
    db: WritableDB,
    private readonly crawlId: number,
    private readonly options: ContentDedupeOptions,
    bandIndexBytes = BAND_INDEX_MAX_BYTES,
  ) {
    this.byFingerprint = db.prepare(`SELECT url_id FROM pages WHERE crawl_id = ? AND fingerprint = ? AND url_id != ? ORDER BY url_id LIMIT 1`).pluck();
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
    // Pages whose rows were still pending when the last run ended without its flush (a crash): their
    // rows follow from their sketches. These are the pages `record` indexed: 2xx with a sketch, and
    // not an exact duplicate (an exact group's members other than its first page were never indexed).
    const unindexed = db
      .prepare(
        `SELECT p.url_id, p.minhash FROM pages p WHERE p.crawl_id = ? AND p.minhash IS NOT NULL AND p.http_status < 300
           AND NOT EXISTS (SELECT 1 FROM content_group_members m JOIN content_groups g ON g.id = m.group_id WHERE m.url_id = p.url_id AND g.kind = 'exact' AND g.first_url_id != p.url_id)`,
      )
      .raw();
    for (const [urlId, minhash] of unindexed.iterate(crawlId) as Iterable<[number, Buffer]>) {
      if (indexed.has(urlId)) continue;
      const sketch = sketchFromBlob(minhash);
      if (sketch.length !== MINHASH_SIZE) continue;
      this.index(urlId, bandBuckets(sketch));
    }
  }

  /**
   * Writes the band rows still pending (inside the caller's write transaction): called when the
   * run's writer closes. Without it nothing is lost: the next open derives them again.
   */
  flush(): void {
    this.pending.flush(this.stored);
  }

  /**
   * Classifies a page whose row (with fingerprint and sketch) is already written, records its
   * group membership, and indexes its sketch for later pages.
   */
  record(urlId: number, content: ContentFingerprints, nowMs: number): ContentVerdict {
    const original = this.byFingerprint.get(this.crawlId, content.fingerprint, urlId) as number | undefined;
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
    const best = bestNearMatch(content.minhash, candidates, (candidate) => this.sketch(candidate), this.options.threshold);
    this.index(urlId, buckets);
    if (this.pending.full) {
      this.pending.flush(this.stored);
      if (!this.stored.complete && this.storedBuckets === null) this.fillBucketFilter();
    }
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


/** The content-seen test in SQLite: exact fingerprints and MinHash near-duplicates, grouped and stored. */
import type { Statement } from 'better-sqlite3';
import type { WritableDB } from './database';
import { placeholderRows } from './placeholders';
import type { PageContent } from '../../worker/protocol';
import { BucketFilter } from '../../dedupe/bucket-filter';
import { bandBuckets, estimatedJaccard, LSH_BANDS } from '../../dedupe/shingles';
import {
  bestNearMatch,
  createSketchCache,
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
  private readonly insertBands: Statement;
  private readonly sketchOf: Statement;
  private readonly nearGroupOf: Statement;
  private readonly sketches = createSketchCache();
  /** The crawl's stored band buckets, so a probe of a bucket no page has is skipped (bucket-filter.ts). */
  private readonly storedBuckets = new BucketFilter();

  constructor(
    db: WritableDB,
    private readonly crawlId: number,
    private readonly options: ContentDedupeOptions,
  ) {
    this.byFingerprint = db.prepare(`SELECT url_id FROM pages WHERE crawl_id = ? AND fingerprint = ? AND url_id != ? ORDER BY url_id LIMIT 1`).pluck();
    this.exactGroup = db.prepare(`SELECT id FROM content_groups WHERE crawl_id = ? AND kind = 'exact' AND fingerprint = ?`).pluck();
    this.insertGroup = db.prepare(`INSERT INTO content_groups (crawl_id, kind, fingerprint, first_url_id, created_at_ms) VALUES (?, ?, ?, ?, ?)`);
    this.insertMember = db.prepare(`INSERT OR IGNORE INTO content_group_members (group_id, url_id, similarity) VALUES (?, ?, ?)`);
    this.bucketMembers = db.prepare(`SELECT url_id FROM minhash_bands WHERE crawl_id = ? AND band = ? AND bucket = ? AND url_id != ? LIMIT ?`).pluck();
    // A page's LSH_BANDS bucket rows in one statement (one call into SQLite instead of one per band).
    this.insertBands = db.prepare(`INSERT OR IGNORE INTO minhash_bands (crawl_id, band, bucket, url_id) VALUES ${placeholderRows(LSH_BANDS, 4)}`);
    this.sketchOf = db.prepare(`SELECT minhash FROM pages WHERE url_id = ?`).pluck();
    this.nearGroupOf = db.prepare(
      `SELECT g.id AS id, g.first_url_id AS firstUrlId FROM content_group_members m JOIN content_groups g ON g.id = m.group_id WHERE m.url_id = ? AND g.kind = 'near' LIMIT 1`,
    );
    // A resumed crawl's stored buckets (one range of the table's key: about 1.6M rows at 100,000 pages).
    const stored = db.prepare(`SELECT band, bucket FROM minhash_bands WHERE crawl_id = ?`).raw();
    for (const [band, bucket] of stored.iterate(crawlId) as Iterable<[number, number]>) this.storedBuckets.add(band, bucket);
  }

  /**
   * Classifies a page whose row (with fingerprint and sketch) is already written, records its
   * group membership, and indexes its sketch for later pages.
   */
  record(urlId: number, content: PageContent, nowMs: number): ContentVerdict {
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
            (band, limit) => (this.storedBuckets.mightHold(band, buckets[band]!) ? (this.bucketMembers.all(this.crawlId, band, buckets[band], urlId, limit) as number[]) : []),
            this.options.maxCandidates ?? DEFAULT_MAX_CANDIDATES,
          )
        : [];
    const best = bestNearMatch(content.minhash, candidates, (candidate) => this.sketch(candidate), this.options.threshold);
    this.insertBands.run(buckets.flatMap((bucket, band) => [this.crawlId, band, bucket, urlId]));
    buckets.forEach((bucket, band) => this.storedBuckets.add(band, bucket));
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

  /** A recorded page's sketch: from memory, else its pages row (empty when it has none). */
  private sketch(urlId: number): Uint32Array {
    let sketch = this.sketches.get(urlId);
    if (sketch === undefined) {
      sketch = sketchFromBlob(this.sketchOf.get(urlId) as Buffer | null);
      this.sketches.set(urlId, sketch);
    }
    return sketch;
  }
}


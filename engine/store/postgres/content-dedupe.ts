/**
 * The content-seen test in PostgreSQL (issue 13): exact fingerprints and MinHash near-duplicates,
 * grouped and stored exactly as store/sqlite/content-dedupe.ts does, for a batch of pages in a
 * fixed number of round trips, while several crawler processes commit pages of one crawl at once.
 */
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import {
  bestNearMatch,
  DEFAULT_MAX_CANDIDATES,
  DEFAULT_MIN_WORDS_FOR_NEAR,
  sketchFromBlob,
  walkCandidates,
  type ContentDedupeOptions,
  type ContentVerdict,
} from '../../dedupe/content-verdict';
import { SketchCache } from '../../dedupe/sketch-cache';
import { bandBuckets, estimatedJaccard } from '../../dedupe/shingles';
import type { PageRow } from '../ports';
import type { ContentFingerprints } from '../../worker/protocol';

/** A page of a commit batch as the content-seen test reads it (a store/ports.ts PageWrite fits). */
export interface ContentPage {
  /** The page's row: its URL id and the fingerprint stored with it (null for pages without text). */
  row: Pick<PageRow, 'urlId' | 'fingerprint'>;
  /** Its content for the content-seen test; null when the page takes no part (it is still an exact original to later pages). */
  content: ContentFingerprints | null;
}

/**
 * Top bytes of the transaction-level advisory lock keys (pg_advisory_xact_lock, one bigint key
 * space) this module takes, so its two kinds never share a key with each other or with another
 * user of that space (the migration lock's top byte is 0x63, "c").
 */
const FINGERPRINT_LOCK_TAG = 0x43n; // "C": one content fingerprint of one crawl
const NEAR_FIRST_LOCK_TAG = 0x4en; // "N": the near group of one URL

/** A near group of the batch, by id when stored, else by its first page until the batch's insert gives it an id. */
interface NearGroupRef {
  id: number | null;
  firstUrlId: number;
}

/** What {@link PostgresContentIndex.recordBatch} decided for one page before anything is written. */
type Plan =
  | { kind: 'none' }
  | { kind: 'exact'; fingerprint: string; original: number }
  | { kind: 'unique' }
  | { kind: 'near'; group: NearGroupRef; duplicateOf: number; similarity: number };

/**
 * The content-seen test (seed 003, IIR 20.2 "Doc FP's"; IIR 19.6 near-duplicates) of one crawl in
 * PostgreSQL, run inside the commit batch's transaction (READ COMMITTED, the default) on its
 * client. Same rules as the SQLite store: exact duplicates share a SHA-256 fingerprint of the
 * normalized visible text; near-duplicates are found through the LSH band buckets of MinHash
 * sketches (`minhash_bands`) and confirmed by estimated Jaccard ≥ threshold; groups and members
 * are stored in content_groups / content_group_members, a member's similarity being to the group's
 * first page; pages of a batch are classified in order, each seeing the earlier ones.
 *
 * Several processes commit at once, and a transaction does not see another's uncommitted pages:
 * so each fingerprint of a batch is locked (pg_advisory_xact_lock, held to the commit) before the
 * lookup, and so is the best match of each near-duplicate before its group is read. Two processes
 * with pages of one new fingerprint are then serialized: the second sees the first's committed page
 * and joins the one exact group (unique per (crawl_id, fingerprint), written with ON CONFLICT; were
 * the locks skipped, the second's insert would wait on the first's, do nothing and join its group,
 * never fail). Two pages near each other committed at the same moment by two processes may still
 * both be unique (neither sees the other's bands): the LSH index is not locked.
 *
 * Locks: a batch's distinct fingerprints (up to MAX_BACKLOG pages, 512) take that many entries of
 * the server's lock table (max_locks_per_transaction × max_connections, 6,400 by default) until
 * the commit.
 */
export class PostgresContentIndex {
  /** Sketches by URL id: candidates' from `pages.minhash`, the batch's own from their content. */
  private readonly sketches = new SketchCache();

  /**
   * @param crawlId the crawl (its row in `crawls`)
   * @param options the near-duplicate threshold and caps (engine/dedupe/content-verdict.ts)
   */
  constructor(
    private readonly crawlId: number,
    private readonly options: ContentDedupeOptions,
  ) {}

  /**
   * Takes the fingerprint locks of `pages` (those with content) in one statement, in one global
   * order. A writer calls it first in its transaction, before any row lock, so that waiting for a
   * fingerprint can never close a deadlock; {@link recordBatch} then passes `fingerprintsLocked`.
   */
  async lockFingerprints(client: PoolClient, pages: readonly ContentPage[]): Promise<void> {
    const keys = pages.flatMap((page) => (page.content ? [fingerprintLockKey(this.crawlId, page.content.fingerprint)] : []));
    await lockAll(client, keys);
  }

  /**
   * Classifies one page whose content takes part, records its group membership and indexes its
   * sketch ({@link recordBatch} of one page).
   */
  async record(client: PoolClient, urlId: number, content: ContentFingerprints, nowMs: number): Promise<ContentVerdict> {
    const [verdict] = await this.recordBatch(client, [{ row: { urlId, fingerprint: content.fingerprint }, content }], nowMs);
    return verdict!;
  }

  /**
   * Classifies a batch's pages in order (each sees the earlier ones, as if written and recorded one
   * after the other), records their group memberships and indexes their sketches: the fingerprint
   * locks, one lookup of the earlier originals, one read of the candidates' buckets, one of their
   * sketches when not cached, the near-group locks and reads when a page has a near match, and one
   * write of every group, member and band. Works whether or not the batch's page rows are written yet.
   * @param nowMs epoch ms (a new group's created time)
   * @param fingerprintsLocked true when {@link lockFingerprints} already ran in this transaction
   * @returns `verdicts[i]` for `pages[i]`: null when it has no content
   */
  async recordBatch(client: PoolClient, pages: readonly ContentPage[], nowMs: number, { fingerprintsLocked = false }: { fingerprintsLocked?: boolean } = {}): Promise<(ContentVerdict | null)[]> {
    if (!pages.some((page) => page.content !== null)) return pages.map(() => null);
    if (!fingerprintsLocked) await this.lockFingerprints(client, pages);
    const plans = await this.exactPlans(client, pages);
    await this.nearPlans(client, pages, plans);
    return this.write(client, pages, plans, nowMs);
  }

  /**
   * Exact duplicates: a page's original is the smallest URL id among the earlier pages with its
   * fingerprint, stored before the batch or earlier in it (any row with a fingerprint counts, as
   * in SQLite: error pages are originals too). Pages without one are planned `unique` for now.
   */
  private async exactPlans(client: PoolClient, pages: readonly ContentPage[]): Promise<Plan[]> {
    const fingerprints = [...new Set(pages.flatMap((page) => (page.content ? [page.content.fingerprint] : [])))];
    const batchIds = [...new Set(pages.map((page) => page.row.urlId))];
    const { rows } = await client.query<{ fingerprint: string; url_id: number | null }>(
      `SELECT f.fingerprint, (SELECT min(p.url_id) FROM pages p WHERE p.crawl_id = $1 AND p.fingerprint = f.fingerprint AND p.url_id <> ALL($3::bigint[])) AS url_id
       FROM unnest($2::text[]) AS f(fingerprint)`,
      [this.crawlId, fingerprints, batchIds],
    );
    const stored = new Map(rows.filter((row) => row.url_id !== null).map((row) => [row.fingerprint, row.url_id!]));
    // URL ids of the batch's rows met so far, by fingerprint.
    const earlier = new Map<string, number[]>();
    return pages.map(({ row, content }): Plan => {
      let plan: Plan = { kind: 'none' };
      if (content) {
        let original = stored.get(content.fingerprint);
        for (const id of earlier.get(content.fingerprint) ?? []) if (id !== row.urlId && (original === undefined || id < original)) original = id;
        plan = original === undefined ? { kind: 'unique' } : { kind: 'exact', fingerprint: content.fingerprint, original };
      }
      if (row.fingerprint !== null) earlier.set(row.fingerprint, [...(earlier.get(row.fingerprint) ?? []), row.urlId]);
      return plan;
    });
  }

  /**
   * Near-duplicates of the pages planned `unique`: candidates walked band by band over the stored
   * buckets merged with the buckets of the batch's earlier pages, the best match by estimated
   * Jaccard, then its near group (stored, or made earlier in the batch) or a new one. Rewrites
   * `plans` in place.
   */
  private async nearPlans(client: PoolClient, pages: readonly ContentPage[], plans: Plan[]): Promise<void> {
    const minWords = this.options.minWordsForNear ?? DEFAULT_MIN_WORDS_FOR_NEAR;
    const maxCandidates = this.options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
    const buckets = pages.map(({ content }, index) => (content && plans[index]!.kind === 'unique' ? bandBuckets(content.minhash) : null));
    const searched = pages.map(({ content }, index) => buckets[index] !== null && content!.words >= minWords);
    const stored = await this.bucketMembers(client, pages, buckets, searched, maxCandidates);

    // The batch's pages as they are indexed one after the other: bucket members and sketches.
    const batchMembers = new Map<string, number[]>();
    const batchSketches = new Map<number, Uint32Array>();
    const candidates: number[][] = [];
    // Candidates' sketches for this batch (a cache eviction midway cannot lose one): cached, else read.
    const known = new Map<number, Uint32Array>();
    const wanted = new Set<number>();
    pages.forEach(({ row }, index) => {
      const pageBuckets = buckets[index];
      candidates.push([]);
      if (!pageBuckets) return;
      if (searched[index]) {
        const membersOf = (band: number, limit: number): number[] => {
          const merged = new Set([...(stored.get(`${index}:${band}`) ?? []), ...(batchMembers.get(`${band}:${pageBuckets[band]}`) ?? []).filter((id) => id !== row.urlId)]);
          return [...merged].sort((a, b) => a - b).slice(0, limit);
        };
        candidates[index] = walkCandidates(pageBuckets.length, membersOf, maxCandidates);
        for (const id of candidates[index]!) {
          if (batchSketches.has(id) || known.has(id)) continue;
          const cached = this.sketches.get(id);
          if (cached === undefined) wanted.add(id);
          else known.set(id, cached);
        }
      }
      pageBuckets.forEach((bucket, band) => batchMembers.set(`${band}:${bucket}`, [...(batchMembers.get(`${band}:${bucket}`) ?? []), row.urlId]));
      batchSketches.set(row.urlId, pages[index]!.content!.minhash);
    });
    for (const [id, sketch] of await this.readSketches(client, [...wanted])) known.set(id, sketch);
    const sketchOf = (id: number): Uint32Array => earlierSketches.get(id) ?? known.get(id) ?? new Uint32Array(0);

    // Best matches, each page seeing the sketches of the batch's earlier pages.
    const earlierSketches = new Map<number, Uint32Array>();
    const bests = pages.map(({ row, content }, index) => {
      if (!buckets[index]) return null;
      const best = bestNearMatch(content!.minhash, candidates[index]!, sketchOf, this.options.threshold);
      earlierSketches.set(row.urlId, content!.minhash);
      return best;
    });
    const bestIds = [...new Set(bests.flatMap((best) => (best ? [best.urlId] : [])))];
    if (bestIds.length === 0) return;
    await lockAll(client, bestIds.map(nearLockKey));
    const storedGroups = await this.nearGroupsOf(client, bestIds, known);

    // Group rules, in batch order: a stored near group of the best match first (the oldest), else
    // one the batch put it in, else a new group made of the best match (similarity 1) and the page.
    const batchGroups = new Map<number, NearGroupRef>();
    // A URL put in a second group keeps the first for later lookups, as SQLite's (url_id, group_id) index reads them: stored groups before new ones.
    const joined = (urlId: number, group: NearGroupRef): void => {
      const held = batchGroups.get(urlId);
      if (held === undefined || (held.id === null && group.id !== null) || (held.id !== null && group.id !== null && group.id < held.id)) batchGroups.set(urlId, group);
    };
    pages.forEach(({ row, content }, index) => {
      const best = bests[index];
      if (!best) return;
      const existing = storedGroups.get(best.urlId) ?? batchGroups.get(best.urlId);
      if (existing) {
        const similarity = existing.firstUrlId === best.urlId ? best.similarity : estimatedJaccard(content!.minhash, sketchOf(existing.firstUrlId));
        plans[index] = { kind: 'near', group: existing, duplicateOf: existing.firstUrlId, similarity };
        joined(row.urlId, existing);
        return;
      }
      const group: NearGroupRef = { id: null, firstUrlId: best.urlId };
      plans[index] = { kind: 'near', group, duplicateOf: best.urlId, similarity: best.similarity };
      joined(best.urlId, group);
      joined(row.urlId, group);
    });
  }

  /**
   * The stored members of each searched page's bucket in each band, other than the page, at most
   * `limit` each, in URL id order (the SQLite index's order): one statement for the batch.
   * @returns URL ids by `${pageIndex}:${band}`
   */
  private async bucketMembers(client: PoolClient, pages: readonly ContentPage[], buckets: (number[] | null)[], searched: boolean[], limit: number): Promise<Map<string, number[]>> {
    const pageIndexes: number[] = [];
    const bands: number[] = [];
    const bucketValues: number[] = [];
    const selves: number[] = [];
    buckets.forEach((pageBuckets, index) => {
      if (!pageBuckets || !searched[index]) return;
      pageBuckets.forEach((bucket, band) => {
        pageIndexes.push(index);
        bands.push(band);
        bucketValues.push(bucket);
        selves.push(pages[index]!.row.urlId);
      });
    });
    const members = new Map<string, number[]>();
    if (pageIndexes.length === 0) return members;
    const { rows } = await client.query<{ page: number; band: number; url_id: number }>(
      `SELECT q.page, q.band, m.url_id
       FROM unnest($2::int[], $3::int[], $4::bigint[], $5::bigint[]) AS q(page, band, bucket, self)
       CROSS JOIN LATERAL (
         SELECT b.url_id FROM minhash_bands b
         WHERE b.crawl_id = $1 AND b.band = q.band AND b.bucket = q.bucket AND b.url_id <> q.self
         ORDER BY b.url_id LIMIT $6
       ) AS m`,
      [this.crawlId, pageIndexes, bands, bucketValues, selves, limit],
    );
    for (const row of rows) {
      const key = `${row.page}:${row.band}`;
      members.set(key, [...(members.get(key) ?? []), row.url_id]);
    }
    for (const list of members.values()) list.sort((a, b) => a - b);
    return members;
  }

  /** The stored sketches of `urlIds`, cached too (a URL without a page row gets an empty sketch): one statement. */
  private async readSketches(client: PoolClient, urlIds: readonly number[]): Promise<Map<number, Uint32Array>> {
    const sketches = new Map<number, Uint32Array>();
    if (urlIds.length === 0) return sketches;
    const { rows } = await client.query<{ url_id: number; minhash: Buffer | null }>(`SELECT url_id, minhash FROM pages WHERE url_id = ANY($1::bigint[])`, [urlIds]);
    const found = new Map(rows.map((row) => [row.url_id, row.minhash]));
    for (const id of urlIds) {
      const sketch = sketchFromBlob(found.get(id) ?? null);
      sketches.set(id, sketch);
      this.sketches.set(id, sketch);
    }
    return sketches;
  }

  /**
   * The stored near group of each of `urlIds` (the oldest when in several, as SQLite's index
   * reads it), with the first page's sketch put in `known` when not there: one statement. Read
   * after the near locks.
   */
  private async nearGroupsOf(client: PoolClient, urlIds: readonly number[], known: Map<number, Uint32Array>): Promise<Map<number, NearGroupRef>> {
    const { rows } = await client.query<{ url_id: number; id: number; first_url_id: number; minhash: Buffer | null }>(
      `SELECT DISTINCT ON (m.url_id) m.url_id, g.id, g.first_url_id, p.minhash
       FROM content_group_members m JOIN content_groups g ON g.id = m.group_id LEFT JOIN pages p ON p.url_id = g.first_url_id
       WHERE m.url_id = ANY($1::bigint[]) AND g.kind = 'near'
       ORDER BY m.url_id, g.id`,
      [urlIds],
    );
    const groups = new Map<number, NearGroupRef>();
    for (const row of rows) {
      groups.set(row.url_id, { id: row.id, firstUrlId: row.first_url_id });
      if (!known.has(row.first_url_id)) {
        const sketch = this.sketches.get(row.first_url_id) ?? sketchFromBlob(row.minhash);
        known.set(row.first_url_id, sketch);
        this.sketches.set(row.first_url_id, sketch);
      }
    }
    return groups;
  }

  /**
   * Writes the plans in one statement: new exact groups (ON CONFLICT on (crawl_id, fingerprint):
   * one group per fingerprint whoever writes first) with their first member, exact members, new
   * near groups, near members, and the bands of every page not an exact duplicate.
   */
  private async write(client: PoolClient, pages: readonly ContentPage[], plans: Plan[], nowMs: number): Promise<(ContentVerdict | null)[]> {
    const exactFirstOf = new Map<string, number>();
    const exactMemberFingerprints: string[] = [];
    const exactMemberIds: number[] = [];
    const nearFirsts: number[] = [];
    const memberGroupIds: (number | null)[] = [];
    const memberGroupFirsts: (number | null)[] = [];
    const memberIds: number[] = [];
    const memberSimilarities: number[] = [];
    const bandNumbers: number[] = [];
    const bandBucketValues: number[] = [];
    const bandUrlIds: number[] = [];
    const bandRows = new Set<string>();
    const newNearGroups = new Set<NearGroupRef>();
    const addMember = (group: NearGroupRef, urlId: number, similarity: number): void => {
      memberGroupIds.push(group.id);
      memberGroupFirsts.push(group.id === null ? group.firstUrlId : null);
      memberIds.push(urlId);
      memberSimilarities.push(similarity);
    };
    plans.forEach((plan, index) => {
      const { row, content } = pages[index]!;
      if (plan.kind === 'exact') {
        if (!exactFirstOf.has(plan.fingerprint)) exactFirstOf.set(plan.fingerprint, plan.original);
        exactMemberFingerprints.push(plan.fingerprint);
        exactMemberIds.push(row.urlId);
        return;
      }
      if (plan.kind === 'none') return;
      bandBuckets(content!.minhash).forEach((bucket, band) => {
        const key = `${band}:${bucket}:${row.urlId}`;
        if (bandRows.has(key)) return;
        bandRows.add(key);
        bandNumbers.push(band);
        bandBucketValues.push(bucket);
        bandUrlIds.push(row.urlId);
      });
      this.sketches.set(row.urlId, content!.minhash);
      if (plan.kind !== 'near') return;
      if (plan.group.id === null && !newNearGroups.has(plan.group)) {
        newNearGroups.add(plan.group);
        nearFirsts.push(plan.group.firstUrlId);
        addMember(plan.group, plan.group.firstUrlId, 1);
      }
      addMember(plan.group, row.urlId, plan.similarity);
    });
    const { rows } = await client.query<{ kind: 'exact' | 'near'; id: number; fingerprint: string | null; first_url_id: number | null }>(
      `WITH exact_in AS (
         SELECT * FROM unnest($2::text[], $3::bigint[]) AS t(fingerprint, first_url_id)
       ), exact_new AS (
         INSERT INTO content_groups (crawl_id, kind, fingerprint, first_url_id, created_at_ms)
         SELECT $1, 'exact', fingerprint, first_url_id, $4 FROM exact_in
         ON CONFLICT (crawl_id, fingerprint) WHERE kind = 'exact' DO NOTHING
         RETURNING id, fingerprint, first_url_id
       ), exact_groups AS (
         SELECT id, fingerprint FROM exact_new
         UNION ALL
         SELECT g.id, g.fingerprint FROM content_groups g JOIN exact_in i ON g.fingerprint = i.fingerprint WHERE g.crawl_id = $1 AND g.kind = 'exact'
       ), near_new AS (
         INSERT INTO content_groups (crawl_id, kind, fingerprint, first_url_id, created_at_ms)
         SELECT $1, 'near', NULL, first_url_id, $4 FROM unnest($7::bigint[]) AS t(first_url_id)
         RETURNING id, first_url_id
       ), members AS (
         INSERT INTO content_group_members (group_id, url_id, crawl_id, similarity)
         SELECT group_id, url_id, $1, similarity FROM (
           SELECT id AS group_id, first_url_id AS url_id, 1::float8 AS similarity FROM exact_new
           UNION ALL
           SELECT g.id, d.url_id, 1 FROM unnest($5::text[], $6::bigint[]) AS d(fingerprint, url_id) JOIN exact_groups g ON g.fingerprint = d.fingerprint
           UNION ALL
           SELECT coalesce(m.group_id, n.id), m.url_id, m.similarity
           FROM unnest($8::bigint[], $9::bigint[], $10::bigint[], $11::float8[]) AS m(group_id, group_first, url_id, similarity)
           LEFT JOIN near_new n ON n.first_url_id = m.group_first
         ) AS member_rows
         ON CONFLICT (group_id, url_id) DO NOTHING
       ), bands AS (
         INSERT INTO minhash_bands (crawl_id, band, bucket, url_id)
         SELECT $1, band, bucket, url_id FROM unnest($12::int[], $13::bigint[], $14::bigint[]) AS b(band, bucket, url_id)
         ON CONFLICT DO NOTHING
       )
       SELECT 'exact' AS kind, id, fingerprint, NULL::bigint AS first_url_id FROM exact_groups
       UNION ALL
       SELECT 'near', id, NULL, first_url_id FROM near_new`,
      [
        this.crawlId,
        [...exactFirstOf.keys()],
        [...exactFirstOf.values()],
        nowMs,
        exactMemberFingerprints,
        exactMemberIds,
        nearFirsts,
        memberGroupIds,
        memberGroupFirsts,
        memberIds,
        memberSimilarities,
        bandNumbers,
        bandBucketValues,
        bandUrlIds,
      ],
    );
    const exactGroupIds = new Map<string, number>();
    for (const row of rows) {
      if (row.kind === 'exact') exactGroupIds.set(row.fingerprint!, row.id);
      else for (const group of newNearGroups) if (group.firstUrlId === row.first_url_id) group.id = row.id;
    }
    const raced = [...exactFirstOf.keys()].filter((fingerprint) => !exactGroupIds.has(fingerprint));
    if (raced.length > 0) for (const [fingerprint, id] of await this.joinRacedGroups(client, raced, exactMemberFingerprints, exactMemberIds)) exactGroupIds.set(fingerprint, id);
    return plans.map((plan): ContentVerdict | null => {
      switch (plan.kind) {
        case 'none':
          return null;
        case 'unique':
          return { kind: 'unique' };
        case 'exact':
          return { kind: 'exact', groupId: exactGroupIds.get(plan.fingerprint)!, duplicateOf: plan.original };
        case 'near':
          return { kind: 'near', groupId: plan.group.id!, duplicateOf: plan.duplicateOf, similarity: plan.similarity };
      }
    });
  }

  /**
   * The exact groups of `fingerprints` that another transaction made and committed while the write
   * statement waited on its unique index entry (ON CONFLICT DO NOTHING, so not an error; only when
   * the fingerprints were not locked), read again with the batch's members of them added: one statement.
   * @returns group id by fingerprint
   */
  private async joinRacedGroups(client: PoolClient, fingerprints: readonly string[], memberFingerprints: readonly string[], memberIds: readonly number[]): Promise<Map<string, number>> {
    const { rows } = await client.query<{ id: number; fingerprint: string }>(
      `WITH raced AS (
         SELECT id, fingerprint FROM content_groups WHERE crawl_id = $1 AND kind = 'exact' AND fingerprint = ANY($2::text[])
       ), members AS (
         INSERT INTO content_group_members (group_id, url_id, crawl_id, similarity)
         SELECT g.id, d.url_id, $1, 1 FROM unnest($3::text[], $4::bigint[]) AS d(fingerprint, url_id) JOIN raced g ON g.fingerprint = d.fingerprint
         ON CONFLICT (group_id, url_id) DO NOTHING
       )
       SELECT id, fingerprint FROM raced`,
      [this.crawlId, fingerprints, memberFingerprints, memberIds],
    );
    const groups = new Map(rows.map((row) => [row.fingerprint, row.id]));
    const lost = fingerprints.find((fingerprint) => !groups.has(fingerprint));
    if (lost !== undefined) throw new Error(`The exact content group of fingerprint ${lost} is neither stored nor insertable in crawl ${this.crawlId}`);
    return groups;
  }
}

/** The advisory lock key of `fingerprint` in crawl `crawlId`: tag, 24 bits of the crawl id, 32 bits of a hash of the fingerprint. */
function fingerprintLockKey(crawlId: number, fingerprint: string): bigint {
  const hash = createHash('sha256').update(fingerprint).digest().readUInt32BE(0);
  return BigInt.asIntN(64, (FINGERPRINT_LOCK_TAG << 56n) | (BigInt(crawlId % 0x1000000) << 32n) | BigInt(hash));
}

/** The advisory lock key of URL `urlId`'s near group (URL ids are unique across crawls). */
function nearLockKey(urlId: number): bigint {
  return BigInt.asIntN(64, (NEAR_FIRST_LOCK_TAG << 56n) | BigInt(urlId % 2 ** 48));
}

/**
 * Takes transaction-level advisory locks on `keys` in one statement, in ascending order (every
 * process the same order, so two batches never wait on each other's locks in a cycle).
 */
async function lockAll(client: PoolClient, keys: readonly bigint[]): Promise<void> {
  const sorted = [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (sorted.length === 0) return;
  await client.query(`SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k`, [sorted.map(String)]);
}

/**
 * The commit batch's satellite writers on PostgreSQL (issue 13): content-seen test, trap rows,
 * sitemap rows, redirect chains and the robots store, on one throwaway cluster. Rows are made
 * directly with SQL; the content-seen test is also run side by side with the SQLite store on the
 * same pages, and must reach the same verdicts and groups.
 */
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, startPostgres, type PostgresCluster } from '../../../testweb/postgres';
import type { ContentVerdict } from '../../dedupe/content-verdict';
import { sketchToBlob } from '../../dedupe/content-verdict';
import { textSketch } from '../../dedupe/shingles';
import { hostPrefix, templatePattern } from '../../traps/url-shape';
import type { TrapSuspicion } from '../../traps/suspicion';
import type { PageContent } from '../../worker/protocol';
import type { SitemapWrite, StoredRobots } from '../ports';
import { openDatabase } from '../sqlite/connection';
import { ContentDedupe } from '../sqlite/content-dedupe';
import { linkKindCode } from '../sqlite/link-codes';
import { insertCrawl } from '../sqlite/queries/test-rows';
import { PostgresContentIndex, type ContentPage } from './content-dedupe';
import { inTransaction, openPostgresStore, type PostgresStore } from './pool';
import { closedLoops, closesLoop, seedRedirectTargets } from './redirect-chains';
import { PostgresRobotsStore } from './robots-store';
import { PostgresSitemapRows, storedSitemapUrls } from './sitemap-rows';
import { changeTrapState, PostgresTrapRows, runsInPostgres, storedTraps } from './trap-rows';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`PostgreSQL satellite tests skipped: ${unavailable}`);

let cluster: PostgresCluster;
let store: PostgresStore;

/** A URL row to insert: its URL, state (pending unless given), depth (0) and priority (0). */
interface PgUrl {
  url: string;
  state?: 'pending' | 'in_flight' | 'done' | 'error' | 'held';
  depth?: number;
  priority?: number;
  redirectHops?: number;
}

/** Inserts a crawl and its URLs in one statement each. @returns the crawl id and the URL ids in order */
async function pgCrawl(urls: readonly (string | PgUrl)[]): Promise<{ crawlId: number; ids: number[] }> {
  const rows = urls.map((entry) => (typeof entry === 'string' ? { url: entry } : entry));
  const crawl = await store.pool.query<{ id: number }>(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES ('[]', '{}', 'running', 1) RETURNING id`);
  const crawlId = crawl.rows[0]!.id;
  const inserted = await store.pool.query<{ id: number; url: string }>(
    `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, redirect_hops, enqueued_at_ms)
     SELECT $1, u.url, u.url, u.url, u.host, u.host, u.state, u.depth, u.priority, u.hops, 1
     FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[]) WITH ORDINALITY AS u(url, host, state, depth, priority, hops, ord) ORDER BY u.ord
     RETURNING id, url`,
    [
      crawlId,
      rows.map((row) => row.url),
      rows.map((row) => new URL(row.url).hostname),
      rows.map((row) => row.state ?? 'pending'),
      rows.map((row) => row.depth ?? 0),
      rows.map((row) => row.priority ?? 0),
      rows.map((row) => row.redirectHops ?? 0),
    ],
  );
  const idOf = new Map(inserted.rows.map((row) => [row.url, row.id]));
  return { crawlId, ids: rows.map((row) => idOf.get(row.url)!) };
}

/** URLs of a crawl by state, from the trigger-kept `url_counts` shards. */
async function urlCounts(crawlId: number): Promise<Record<string, number>> {
  const { rows } = await store.pool.query<{ state: string; n: number }>(`SELECT state, sum(n)::bigint AS n FROM url_counts WHERE crawl_id = $1 GROUP BY state HAVING sum(n) <> 0`, [crawlId]);
  return Object.fromEntries(rows.map((row) => [row.state, row.n]));
}

/** Resolves to 'waiting' when `promise` has not settled within `ms` (it is blocked on a lock), else 'settled'. */
async function stillWaiting(promise: Promise<unknown>, ms = 300): Promise<'waiting' | 'settled'> {
  return Promise.race([promise.then(() => 'settled' as const), new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms))]);
}

/** Runs `work` in a transaction on a connection of its own, committed when it returns. */
async function withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(store, work);
}

beforeAll(async () => {
  if (unavailable) return;
  cluster = await startPostgres();
  store = await openPostgresStore(cluster.url, 8);
});

afterAll(async () => {
  await store?.close();
  await cluster?.stop();
});

// ---------------------------------------------------------------------------------------------
// The content-seen test

/** Deterministic words: `count` of a 400-word vocabulary, from `seed`. */
function words(seed: number, count: number): string[] {
  let state = seed;
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out.push(`w${(state >>> 8) % 400}`);
  }
  return out;
}

/** `text` with the words at `positions` replaced. */
function edited(text: string[], positions: readonly number[]): string[] {
  const copy = [...text];
  for (const position of positions) copy[position] = `changed${position}`;
  return copy;
}

/** A page's content as the worker computes it: SHA-256 of the normalized text, its MinHash sketch and word count. */
function contentOf(text: readonly string[]): PageContent {
  const sketch = textSketch(text.join(' '))!;
  return { fingerprint: createHash('sha256').update(sketch.normalized).digest('hex'), minhash: sketch.minhash, words: sketch.words, textChars: sketch.normalized.length, excerpt: '' };
}

/** Inserts (or replaces) page rows with their fingerprints and sketches, in one statement. */
async function insertPages(client: PoolClient, crawlId: number, pages: readonly ContentPage[]): Promise<void> {
  await client.query(
    `INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, fingerprint, minhash)
     SELECT p.url_id, $1, 'http://x.test/', 200, 1, 1, 1, p.fingerprint, p.minhash FROM unnest($2::bigint[], $3::text[], $4::bytea[]) AS p(url_id, fingerprint, minhash)
     ON CONFLICT (url_id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, minhash = EXCLUDED.minhash`,
    [crawlId, pages.map((page) => page.row.urlId), pages.map((page) => page.row.fingerprint), pages.map((page) => (page.content ? sketchToBlob(page.content.minhash) : null))],
  );
}

/** Writes a batch's page rows and records it, in one transaction. */
async function recordBatch(index: PostgresContentIndex, crawlId: number, pages: readonly ContentPage[]): Promise<(ContentVerdict | null)[]> {
  return withClient(async (client) => {
    await insertPages(client, crawlId, pages);
    return index.recordBatch(client, pages, 5_000);
  });
}

/** A group as comparable across stores: kind, first page and members with similarity, by page index. */
type GroupShape = { kind: string; first: number; members: [number, number][] };

/** The stored groups of a crawl, by page index (URL ids mapped through `indexOf`). */
function groupShapes(rows: { id: number; kind: string; first: number; url: number; similarity: number }[], indexOf: (id: number) => number): GroupShape[] {
  const groups = new Map<number, GroupShape>();
  for (const row of rows) {
    const group = groups.get(row.id) ?? { kind: row.kind, first: indexOf(row.first), members: [] };
    group.members.push([indexOf(row.url), Math.round(row.similarity * 1e6) / 1e6]);
    groups.set(row.id, group);
  }
  return [...groups.values()].map((group) => ({ ...group, members: group.members.sort((a, b) => a[0] - b[0]) })).sort((a, b) => a.kind.localeCompare(b.kind) || a.first - b.first);
}

/** A verdict as comparable across stores: duplicateOf as a page index, no group id. */
function verdictShape(verdict: ContentVerdict | null, indexOf: (id: number) => number): unknown {
  if (verdict === null || verdict.kind === 'unique') return verdict;
  return verdict.kind === 'exact' ? { kind: 'exact', duplicateOf: indexOf(verdict.duplicateOf) } : { kind: 'near', duplicateOf: indexOf(verdict.duplicateOf), similarity: verdict.similarity };
}

describe.skipIf(unavailable)('PostgresContentIndex (content-seen test)', () => {
  const base = words(1, 300);
  /** Page texts of the side-by-side run: copies, near copies, an unrelated page, a short page, and a page with no content part. */
  const corpus: { text: string[]; takesPart?: boolean }[] = [
    { text: base }, // 0
    { text: words(2, 300) }, // 1 unrelated
    { text: base }, // 2 exact of 0
    { text: edited(base, [10, 150]) }, // 3 near 0
    { text: edited(base, [10, 150, 290]) }, // 4 near 3/0
    { text: words(3, 12) }, // 5 short
    { text: words(3, 12), takesPart: false }, // 6 an error page: an original, never recorded
    { text: words(3, 12) }, // 7 exact of 5 (the lower id of 5 and 6; 6 is no member)
    { text: edited(words(2, 300), [5]) }, // 8 near 1
    { text: base }, // 9 exact of 0
    { text: edited(base, [200]) }, // 10 near 0 (joins 0's group)
    { text: edited(words(2, 300), [5, 6]) }, // 11 near 8/1
  ];

  it('reaches the SQLite store\'s verdicts and groups on the same pages, whatever the batches', async () => {
    const contents = corpus.map((page) => contentOf(page.text));
    const options = { threshold: 0.8 };
    // SQLite: each page's row written, then recorded, one after the other.
    const db = openDatabase(':memory:');
    const sqlite = insertCrawl(
      db,
      corpus.map((_, index) => ({ url: `http://dup.test/${index}` })),
    );
    const sqliteIndex = new ContentDedupe(db, sqlite.crawlId, options);
    const insertSqlitePage = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, fingerprint, minhash) VALUES (?, ?, 'x', 200, 1, 1, 1, ?, ?)`);
    const sqliteVerdicts = contents.map((content, index) => {
      const urlId = sqlite.ids[index]!;
      insertSqlitePage.run(urlId, sqlite.crawlId, content.fingerprint, sketchToBlob(content.minhash));
      return corpus[index]!.takesPart === false ? null : sqliteIndex.record(urlId, content, 5_000);
    });
    const sqliteIndexOf = (id: number) => sqlite.ids.indexOf(id);
    const sqliteGroups = groupShapes(
      db
        .prepare(
          `SELECT g.id, g.kind, g.first_url_id AS first, m.url_id AS url, m.similarity FROM content_groups g JOIN content_group_members m ON m.group_id = g.id WHERE g.crawl_id = ?`,
        )
        .all(sqlite.crawlId) as { id: number; kind: string; first: number; url: number; similarity: number }[],
      sqliteIndexOf,
    );
    db.close();
    // The corpus does what it says (so the comparison compares something).
    expect(sqliteGroups.map((group) => [group.kind, group.first, group.members.length])).toEqual([
      ['exact', 0, 3],
      ['exact', 5, 2],
      ['near', 0, 4],
      ['near', 1, 3],
    ]);

    // PostgreSQL: the same pages in batches of 1, 4, 2 and 5.
    for (const batchSizes of [[1, 4, 2, 5], [12], [3, 3, 3, 3]]) {
      const pg = await pgCrawl(corpus.map((_, index) => `http://dup.test/${index}`));
      const pgIndex = new PostgresContentIndex(pg.crawlId, options);
      const pages: ContentPage[] = contents.map((content, index) => ({ row: { urlId: pg.ids[index]!, fingerprint: content.fingerprint }, content: corpus[index]!.takesPart === false ? null : content }));
      const verdicts: (ContentVerdict | null)[] = [];
      let start = 0;
      for (const size of batchSizes) {
        verdicts.push(...(await recordBatch(pgIndex, pg.crawlId, pages.slice(start, start + size))));
        start += size;
      }
      const pgIndexOf = (id: number) => pg.ids.indexOf(id);
      expect(verdicts.map((verdict) => verdictShape(verdict, pgIndexOf))).toEqual(sqliteVerdicts.map((verdict) => verdictShape(verdict, sqliteIndexOf)));
      const { rows } = await store.pool.query<{ id: number; kind: string; first: number; url: number; similarity: number }>(
        `SELECT g.id, g.kind, g.first_url_id AS first, m.url_id AS url, m.similarity FROM content_groups g JOIN content_group_members m ON m.group_id = g.id WHERE g.crawl_id = $1 AND m.crawl_id = $1`,
        [pg.crawlId],
      );
      expect(groupShapes(rows, pgIndexOf)).toEqual(sqliteGroups);
      // Every page not an exact duplicate is in the LSH index, 16 bands each.
      const bands = await store.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM minhash_bands WHERE crawl_id = $1`, [pg.crawlId]);
      expect(bands.rows[0]!.n).toBe(16 * sqliteVerdicts.filter((verdict) => verdict !== null && verdict.kind !== 'exact').length);
    }
  });

  it('a near-duplicate is found across two pages at the threshold, and not above what the pair reaches', async () => {
    const near = edited(base, [10, 150]);
    for (const [threshold, expected] of [
      [0.8, 'near'],
      [1, 'unique'],
    ] as const) {
      const { crawlId, ids } = await pgCrawl(['http://n.test/a', 'http://n.test/b']);
      const index = new PostgresContentIndex(crawlId, { threshold });
      const [a, b] = [contentOf(base), contentOf(near)];
      expect(await recordBatch(index, crawlId, [{ row: { urlId: ids[0]!, fingerprint: a.fingerprint }, content: a }])).toEqual([{ kind: 'unique' }]);
      const [verdict] = await recordBatch(index, crawlId, [{ row: { urlId: ids[1]!, fingerprint: b.fingerprint }, content: b }]);
      expect(verdict!.kind).toBe(expected);
      if (verdict!.kind === 'near') {
        expect(verdict!.duplicateOf).toBe(ids[0]);
        expect(verdict!.similarity).toBeGreaterThanOrEqual(0.8);
        expect(verdict!.similarity).toBeLessThan(1);
      }
    }
  });

  it('two concurrent transactions with one new fingerprint end in one exact group: the second waits for the first\'s commit', async () => {
    const { crawlId, ids } = await pgCrawl(['http://c.test/1', 'http://c.test/2']);
    const content = contentOf(words(7, 50));
    const page = (urlId: number): ContentPage => ({ row: { urlId, fingerprint: content.fingerprint }, content });
    const one = await store.pool.connect();
    const two = await store.pool.connect();
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      await insertPages(one, crawlId, [page(ids[0]!)]);
      await insertPages(two, crawlId, [page(ids[1]!)]);
      const first = await new PostgresContentIndex(crawlId, { threshold: 0.9 }).recordBatch(one, [page(ids[0]!)], 1);
      const second = new PostgresContentIndex(crawlId, { threshold: 0.9 }).recordBatch(two, [page(ids[1]!)], 1);
      expect(await stillWaiting(second)).toBe('waiting');
      await one.query('COMMIT');
      const [verdict] = await second;
      await two.query('COMMIT');
      expect(first).toEqual([{ kind: 'unique' }]);
      expect(verdict).toMatchObject({ kind: 'exact', duplicateOf: ids[0] });
    } finally {
      one.release();
      two.release();
    }
    const { rows } = await store.pool.query(`SELECT g.kind, g.first_url_id AS first, m.url_id AS url FROM content_groups g JOIN content_group_members m ON m.group_id = g.id WHERE g.crawl_id = $1 ORDER BY m.url_id`, [crawlId]);
    expect(rows).toEqual([
      { kind: 'exact', first: ids[0], url: ids[0] },
      { kind: 'exact', first: ids[0], url: ids[1] },
    ]);
  });

  it('two transactions making the same exact group at once (fingerprints not locked) end in one group, not an error', async () => {
    const { crawlId, ids } = await pgCrawl(['http://r.test/0', 'http://r.test/1', 'http://r.test/2']);
    const content = contentOf(words(8, 50));
    const page = (urlId: number): ContentPage => ({ row: { urlId, fingerprint: content.fingerprint }, content });
    await recordBatch(new PostgresContentIndex(crawlId, { threshold: 0.9 }), crawlId, [page(ids[0]!)]);
    const one = await store.pool.connect();
    const two = await store.pool.connect();
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      const first = await new PostgresContentIndex(crawlId, { threshold: 0.9 }).recordBatch(one, [page(ids[1]!)], 1, { fingerprintsLocked: true });
      // The second's group insert waits on the first's uncommitted unique entry, then does nothing.
      const second = new PostgresContentIndex(crawlId, { threshold: 0.9 }).recordBatch(two, [page(ids[2]!)], 1, { fingerprintsLocked: true });
      expect(await stillWaiting(second)).toBe('waiting');
      await one.query('COMMIT');
      const [verdict] = await second;
      await two.query('COMMIT');
      expect(verdict).toEqual({ kind: 'exact', groupId: (first[0] as { groupId: number }).groupId, duplicateOf: ids[0] });
    } finally {
      one.release();
      two.release();
    }
    const { rows } = await store.pool.query(`SELECT g.id, m.url_id AS url FROM content_groups g JOIN content_group_members m ON m.group_id = g.id WHERE g.crawl_id = $1 ORDER BY m.url_id`, [crawlId]);
    expect(new Set(rows.map((row) => row.id)).size).toBe(1);
    expect(rows.map((row) => row.url)).toEqual(ids);
  });

  it('two concurrent transactions with near-duplicates of one page end in one near group', async () => {
    const { crawlId, ids } = await pgCrawl(['http://m.test/y', 'http://m.test/a', 'http://m.test/b']);
    const y = contentOf(base);
    const a = contentOf(edited(base, [20]));
    const b = contentOf(edited(base, [280]));
    await recordBatch(new PostgresContentIndex(crawlId, { threshold: 0.8 }), crawlId, [{ row: { urlId: ids[0]!, fingerprint: y.fingerprint }, content: y }]);
    const one = await store.pool.connect();
    const two = await store.pool.connect();
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      const first = await new PostgresContentIndex(crawlId, { threshold: 0.8 }).recordBatch(one, [{ row: { urlId: ids[1]!, fingerprint: a.fingerprint }, content: a }], 1);
      const second = new PostgresContentIndex(crawlId, { threshold: 0.8 }).recordBatch(two, [{ row: { urlId: ids[2]!, fingerprint: b.fingerprint }, content: b }], 1);
      expect(await stillWaiting(second)).toBe('waiting');
      await one.query('COMMIT');
      const [verdict] = await second;
      await two.query('COMMIT');
      expect(first[0]).toMatchObject({ kind: 'near', duplicateOf: ids[0] });
      expect(verdict).toMatchObject({ kind: 'near', duplicateOf: ids[0], groupId: (first[0] as { groupId: number }).groupId });
    } finally {
      one.release();
      two.release();
    }
    const { rows } = await store.pool.query(`SELECT g.kind, m.url_id AS url FROM content_groups g JOIN content_group_members m ON m.group_id = g.id WHERE g.crawl_id = $1 ORDER BY m.url_id`, [crawlId]);
    expect(rows).toEqual(ids.map((url) => ({ kind: 'near', url })));
  });

  it('record() classifies one page; a batch without content writes nothing', async () => {
    const { crawlId, ids } = await pgCrawl(['http://one.test/a', 'http://one.test/b']);
    const index = new PostgresContentIndex(crawlId, { threshold: 0.9 });
    const content = contentOf(words(9, 40));
    const verdicts = await withClient(async (client) => {
      await insertPages(client, crawlId, [{ row: { urlId: ids[0]!, fingerprint: content.fingerprint }, content }, { row: { urlId: ids[1]!, fingerprint: content.fingerprint }, content }]);
      return [await index.record(client, ids[0]!, content, 1), await index.record(client, ids[1]!, content, 1), await index.recordBatch(client, [{ row: { urlId: ids[1]!, fingerprint: null }, content: null }], 1)];
    });
    // Both rows were written before either was recorded: record() sees every other stored row.
    expect(verdicts[0]).toMatchObject({ kind: 'exact', duplicateOf: ids[1] });
    expect(verdicts[1]).toMatchObject({ kind: 'exact', duplicateOf: ids[0] });
    expect(verdicts[2]).toEqual([null]);
  });
});

// ---------------------------------------------------------------------------------------------
// Trap rows

const suspicion = (host: string, pattern: string, example: string): TrapSuspicion => ({
  detector: 'counter-sequence',
  host,
  pattern,
  template: pattern,
  evidence: { summary: 'test', observed: 30, threshold: 30 },
  example,
});

describe.skipIf(unavailable)('PostgresTrapRows', () => {
  const calendar = templatePattern('t.test', '/calendar/{n}/{n}');

  it('records new traps once, holds the pending URLs a new trap matches on its host, and releases them', async () => {
    const { crawlId, ids } = await pgCrawl([
      { url: 'http://t.test/calendar/2031/1', priority: 2 },
      { url: 'http://t.test/calendar/2031/2', priority: 1 },
      { url: 'http://t.test/calendar/2031/3', state: 'in_flight' },
      { url: 'http://t.test/calendar/2031/4', state: 'done' },
      'http://t.test/about',
      'http://other.test/calendar/2031/1',
      ...Array.from({ length: 6 }, (_, i) => `http://t.test/calendar/2032/${i + 1}`),
    ]);
    const traps = new PostgresTrapRows(crawlId);
    const trap = suspicion('t.test', calendar, 'http://t.test/calendar/2031/5');
    const { added, held } = await withClient(async (client) => {
      const added = await traps.record(client, [trap, trap], 1_000);
      return { added, held: await traps.holdPending(client, added) };
    });
    expect(added).toEqual([trap]);
    const trapId = traps.holdingIdOf(calendar)!;
    expect(trapId).toBeGreaterThan(0);
    // Pending matches on t.test only, by priority then id; not the in-flight, done, other-path or other-host URLs.
    expect(held).toEqual([...ids.slice(6), ids[1], ids[0]].map((id) => ({ id, host: 't.test' })));
    expect(await urlCounts(crawlId)).toEqual({ pending: 2, in_flight: 1, done: 1, held: 8 });
    const row = await store.pool.query<{ examples_json: string; state: string }>(`SELECT examples_json, state FROM traps WHERE id = $1`, [trapId]);
    expect(JSON.parse(row.rows[0]!.examples_json)).toEqual(['http://t.test/calendar/2031/5', 'http://t.test/calendar/2032/1', 'http://t.test/calendar/2032/2', 'http://t.test/calendar/2032/3', 'http://t.test/calendar/2032/4']);
    expect(row.rows[0]!.examples_json).toBe(JSON.stringify(JSON.parse(row.rows[0]!.examples_json)));

    // Stored already: another process's record adds nothing, but learns the id.
    const other = new PostgresTrapRows(crawlId);
    expect(await withClient((client) => other.record(client, [trap], 2_000))).toEqual([]);
    expect(other.holdingIdOf(calendar)).toBe(trapId);

    expect(await withClient((client) => traps.changeState(client, trapId, 'excluded', 3_000))).toEqual({ pattern: calendar, host: 't.test', released: 0 });
    expect(await urlCounts(crawlId)).toMatchObject({ held: 8 });
    expect(await changeTrapState(store, crawlId, trapId, 'released', 4_000)).toEqual({ pattern: calendar, host: 't.test', released: 8 });
    expect(await urlCounts(crawlId)).toEqual({ pending: 10, in_flight: 1, done: 1 });
    expect(await changeTrapState(store, crawlId + 1_000, trapId, 'released', 4_000)).toBeNull();
    expect(await storedTraps(store.pool, crawlId)).toEqual([{ host: 't.test', pattern: calendar, state: 'released' }]);
    // Released: no longer holds new URLs.
    await withClient((client) => other.load(client));
    expect(other.holdingIdOf(calendar)).toBeUndefined();
    expect(other.idOf(calendar)).toBe(trapId);
  });

  it('a URL two new traps match goes to the first; examples stop at five across calls', async () => {
    const { crawlId, ids } = await pgCrawl(['http://t.test/a/1', 'http://t.test/a/2', 'http://t.test/b/1']);
    const traps = new PostgresTrapRows(crawlId);
    const first = suspicion('t.test', `${hostPrefix('t.test')}/a/\\d+$`, 'http://t.test/a/9');
    const second = suspicion('t.test', `${hostPrefix('t.test')}/[ab]/\\d+$`, 'http://t.test/b/9');
    const held = await withClient(async (client) => traps.holdPending(client, await traps.record(client, [first, second], 1)));
    expect(held.map((url) => url.id)).toEqual(ids);
    const { rows } = await store.pool.query(`SELECT u.id, t.pattern FROM urls u JOIN traps t ON t.id = u.trap_id WHERE u.crawl_id = $1 ORDER BY u.id`, [crawlId]);
    expect(rows.map((row) => row.pattern)).toEqual([first.pattern, first.pattern, second.pattern]);
    const firstId = traps.idOf(first.pattern)!;
    await withClient((client) => traps.addExamples(client, ['x1', 'http://t.test/a/1', 'x2', 'x3', 'x4'].map((url) => ({ trapId: firstId, url }))));
    await withClient((client) => new PostgresTrapRows(crawlId).addExample(client, firstId, 'x5'));
    const examples = await store.pool.query<{ examples_json: string }>(`SELECT examples_json FROM traps WHERE id = $1`, [firstId]);
    expect(JSON.parse(examples.rows[0]!.examples_json)).toEqual(['http://t.test/a/9', 'http://t.test/a/1', 'http://t.test/a/2', 'x1', 'x2']);
  });

  it('a pattern PostgreSQL cannot run (a bound above 255) is tested in JavaScript, with the same result', async () => {
    const deep = `http://t.test/${'d/'.repeat(300)}x`;
    const { crawlId, ids } = await pgCrawl([deep, `http://t.test/${'d/'.repeat(299)}`, 'http://t.test/d/']);
    const pattern = `${hostPrefix('t.test')}/(?:[^/?]*/){300}`;
    expect(runsInPostgres(pattern)).toBe(false);
    const traps = new PostgresTrapRows(crawlId);
    const held = await withClient(async (client) => traps.holdPending(client, await traps.record(client, [suspicion('t.test', pattern, deep)], 1)));
    expect(held).toEqual([{ id: ids[0], host: 't.test' }]);
  });

  it('PostgreSQL\'s ~ and JavaScript agree on the patterns the detectors write', async () => {
    const patterns = [
      templatePattern('a-b.test', '/calendar/{n}/{n}'),
      templatePattern('a.test', '/list?page={n}&sort=x.y'),
      templatePattern('a.test', '/p(1)/[x]/{n}+'),
      `${hostPrefix('a.test')}/(?:[^/?]*/){3}`,
      `${hostPrefix('a.test')}/docs/(?:[^/?]*/){2}`,
      `${hostPrefix('a.test')}/x/(?:a/b/){2}a/b(?:[/?]|$)`,
      `${hostPrefix('a.test')}/search\\?[^#]*&`,
    ];
    const urls = [
      'http://a-b.test/calendar/2031/7',
      'https://a-b.test:8080/calendar/2031/7',
      'http://a-b.test/calendar/2031/7/x',
      'http://a.test/list?page=3&sort=x.y',
      'http://a.test/list?page=3&sort=xzy',
      'http://a.test/p(1)/[x]/12+',
      'http://a.test/1/2/3/',
      'http://a.test/1/2/',
      'http://a.test/docs/a/b/c',
      'http://a.test/x/a/b/a/b/a/b/',
      'http://a.test/x/a/b/a/b/a/bc',
      'http://a.test/search?q=1&r=2',
      'http://a.test/search?q=1',
      'http://axtest/1/2/3/',
    ];
    for (const pattern of patterns) expect(runsInPostgres(pattern), pattern).toBe(true);
    const { rows } = await store.pool.query<{ pattern: string; url: string; matches: boolean }>(`SELECT p AS pattern, u AS url, u ~ p AS matches FROM unnest($1::text[]) AS p, unnest($2::text[]) AS u`, [patterns, urls]);
    expect(rows.length).toBe(patterns.length * urls.length);
    expect(rows.filter((row) => row.matches).length).toBeGreaterThan(5);
    for (const row of rows) expect(row.matches, `${row.pattern} ~ ${row.url}`).toBe(new RegExp(row.pattern).test(row.url));
    for (const pattern of ['^a{256}', '^(?=x)', '^[a-z]', '^\\w+', '^[]x]', '^a{', '(?i)a', '^x\\']) expect(runsInPostgres(pattern), pattern).toBe(false);
  });

  it('a release waits for a batch that loaded the trap, and puts back the URLs that batch held', async () => {
    const { crawlId, ids } = await pgCrawl(['http://t.test/calendar/1/1', 'http://t.test/calendar/1/2']);
    const writer = new PostgresTrapRows(crawlId);
    await withClient(async (client) => writer.holdPending(client, await writer.record(client, [suspicion('t.test', calendar, 'http://t.test/calendar/1/9')], 1)));
    const trapId = writer.idOf(calendar)!;
    const batch = await store.pool.connect();
    try {
      await batch.query('BEGIN');
      await writer.load(batch, [calendar]);
      expect(writer.holdingIdOf(calendar)).toBe(trapId);
      // The batch stores a new URL held under the trap it loaded.
      await batch.query(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms, trap_id) VALUES ($1, 'k', 'n', 'http://t.test/calendar/1/3', 't.test', 'held', 1, 1, 1, $2)`, [
        crawlId,
        trapId,
      ]);
      const release = changeTrapState(store, crawlId, trapId, 'released', 9);
      expect(await stillWaiting(release)).toBe('waiting');
      await batch.query('COMMIT');
      expect(await release).toEqual({ pattern: calendar, host: 't.test', released: 3 });
    } finally {
      batch.release();
    }
    expect(await urlCounts(crawlId)).toEqual({ pending: 3 });
    expect(ids.length).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// Sitemap rows

const sitemap = (url: string, fields: Partial<SitemapWrite> = {}): SitemapWrite => ({
  url,
  foundVia: 'robots',
  parentUrl: null,
  kind: 'urlset',
  httpStatus: 200,
  gzipped: false,
  bytes: 100,
  entries: 2,
  entriesOverCap: 0,
  urlsRefused: 0,
  error: null,
  fetchMs: 5,
  fetchedAtMs: 1_000,
  listed: [],
  ...fields,
});

describe.skipIf(unavailable)('PostgresSitemapRows', () => {
  it('writes sitemap rows with their parent and listings; a sitemap read again replaces its row and keeps its id', async () => {
    const { crawlId, ids } = await pgCrawl(['http://s.test/a', 'http://s.test/b', 'http://s.test/c']);
    const keys = new Map([
      ['ka', ids[0]!],
      ['kb', ids[1]!],
      ['kc', ids[2]!],
    ]);
    const idOf = (key: string): number => {
      const id = keys.get(key);
      if (id === undefined) throw new Error(`unknown key ${key}`);
      return id;
    };
    const rows = new PostgresSitemapRows(crawlId);
    await withClient(async (client) => {
      await rows.write(client, sitemap('http://s.test/sitemap_index.xml', { kind: 'sitemapindex' }), idOf);
      await rows.write(
        client,
        sitemap('http://s.test/sitemap.xml', {
          foundVia: 'index',
          parentUrl: 'http://s.test/sitemap_index.xml',
          listed: [
            { key: 'ka', lastmod: '2024-01-01', listedAs: null },
            { key: 'kb', lastmod: null, listedAs: 'HTTP://S.TEST/b' },
            { key: 'ka', lastmod: '2024-02-02', listedAs: null },
          ],
        }),
        idOf,
      );
      await rows.write(client, sitemap('http://s.test/broken.xml', { kind: null, httpStatus: 404, error: { code: 'HTTP_404', message: 'Not Found' } }), idOf);
    });
    const read = async () =>
      (
        await store.pool.query(
          `SELECT s.id, s.url, s.found_via, p.url AS parent, s.kind, s.http_status, s.error_code, s.fetched_at_ms FROM sitemaps s LEFT JOIN sitemaps p ON p.id = s.parent_id WHERE s.crawl_id = $1 ORDER BY s.id`,
          [crawlId],
        )
      ).rows;
    const before = await read();
    expect(before.map(({ id: _, ...row }) => row)).toEqual([
      { url: 'http://s.test/sitemap_index.xml', found_via: 'robots', parent: null, kind: 'sitemapindex', http_status: 200, error_code: null, fetched_at_ms: 1_000 },
      { url: 'http://s.test/sitemap.xml', found_via: 'index', parent: 'http://s.test/sitemap_index.xml', kind: 'urlset', http_status: 200, error_code: null, fetched_at_ms: 1_000 },
      { url: 'http://s.test/broken.xml', found_via: 'robots', parent: null, kind: null, http_status: 404, error_code: 'HTTP_404', fetched_at_ms: 1_000 },
    ]);
    const listings = async () =>
      (await store.pool.query(`SELECT url_id, crawl_id, lastmod, listed_as FROM sitemap_urls WHERE sitemap_id = $1 ORDER BY url_id`, [before[1]!.id])).rows;
    expect(await listings()).toEqual([
      { url_id: ids[0], crawl_id: crawlId, lastmod: '2024-02-02', listed_as: null },
      { url_id: ids[1], crawl_id: crawlId, lastmod: null, listed_as: 'HTTP://S.TEST/b' },
    ]);

    // Read again by another process: the row is replaced (same id), listings updated and added.
    await withClient((client) =>
      new PostgresSitemapRows(crawlId).write(
        client,
        sitemap('http://s.test/sitemap.xml', { foundVia: 'index', parentUrl: 'http://s.test/sitemap_index.xml', fetchedAtMs: 2_000, listed: [{ key: 'kc', lastmod: '2025-01-01', listedAs: null }, { key: 'kb', lastmod: '2025-01-01', listedAs: null }] }),
        idOf,
      ),
    );
    const after = await read();
    expect(after[1]).toMatchObject({ id: before[1]!.id, fetched_at_ms: 2_000 });
    expect(await listings()).toEqual([
      { url_id: ids[0], crawl_id: crawlId, lastmod: '2024-02-02', listed_as: null },
      { url_id: ids[1], crawl_id: crawlId, lastmod: '2025-01-01', listed_as: null },
      { url_id: ids[2], crawl_id: crawlId, lastmod: '2025-01-01', listed_as: null },
    ]);
    expect(await storedSitemapUrls(store.pool, crawlId)).toEqual(['http://s.test/sitemap_index.xml', 'http://s.test/sitemap.xml', 'http://s.test/broken.xml']);
    expect(await storedSitemapUrls(store.pool, crawlId + 1_000)).toEqual([]);
    await expect(withClient((client) => rows.write(client, sitemap('http://s.test/x.xml', { listed: [{ key: 'nope', lastmod: null, listedAs: null }] }), idOf))).rejects.toThrow(/unknown key nope/);
  });
});

// ---------------------------------------------------------------------------------------------
// Redirect chains

describe.skipIf(unavailable)('redirect chains', () => {
  async function redirect(crawlId: number, from: number, to: number): Promise<void> {
    await store.pool.query(`INSERT INTO links (crawl_id, from_url_id, to_url_id, kind, raw_url) VALUES ($1, $2, $3, $4, 'x')`, [crawlId, from, to, linkKindCode('redirect')]);
  }

  it('closesLoop: a self-redirect, and a known target whose stored redirects lead back; not a target that leads elsewhere (the SQLite test\'s inputs)', async () => {
    const { crawlId, ids } = await pgCrawl(['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://a.test/4']);
    await redirect(crawlId, ids[1]!, ids[2]!); // 2 -> 3
    await redirect(crawlId, ids[2]!, ids[0]!); // 3 -> 1
    expect(await closesLoop(store.pool, crawlId, ids[3]!, ids[3]!, 10)).toBe(true);
    expect(await closesLoop(store.pool, crawlId, ids[0]!, ids[1]!, 10)).toBe(true); // 1 -> 2 -> 3 -> 1
    expect(await closesLoop(store.pool, crawlId, ids[0]!, ids[1]!, 2)).toBe(true); // exactly two hops back
    expect(await closesLoop(store.pool, crawlId, ids[0]!, ids[1]!, 1)).toBe(false); // beyond maxSteps
    expect(await closesLoop(store.pool, crawlId, ids[3]!, ids[1]!, 10)).toBe(false); // 4 -> 2 -> 3 -> 1: no way back to 4
    // Another crawl's links are not followed.
    expect(await closesLoop(store.pool, crawlId + 1_000, ids[0]!, ids[1]!, 10)).toBe(false);
    // The newest redirect of a URL stands: 3 now redirects to 4.
    await redirect(crawlId, ids[2]!, ids[3]!);
    expect(await closesLoop(store.pool, crawlId, ids[0]!, ids[1]!, 10)).toBe(false);
    expect(await closesLoop(store.pool, crawlId, ids[3]!, ids[1]!, 10)).toBe(true);
  });

  it('closedLoops: a batch\'s later redirect sees the earlier ones, in one round trip; a stored cycle not through the URL ends', async () => {
    const { crawlId, ids } = await pgCrawl(['http://b.test/1', 'http://b.test/2', 'http://b.test/3', 'http://b.test/4', 'http://b.test/5']);
    await redirect(crawlId, ids[3]!, ids[4]!); // 4 -> 5
    await redirect(crawlId, ids[4]!, ids[3]!); // 5 -> 4 (a cycle)
    expect(
      await closedLoops(store.pool, crawlId, [
        { urlId: ids[0]!, targetId: ids[1]!, maxSteps: 10 }, // 1 -> 2: 2 leads nowhere yet
        { urlId: ids[1]!, targetId: ids[2]!, maxSteps: 10 }, // 2 -> 3
        { urlId: ids[2]!, targetId: ids[0]!, maxSteps: 10 }, // 3 -> 1 -> 2 -> 3: a loop through this batch's hops
        { urlId: ids[2]!, targetId: ids[3]!, maxSteps: 10 }, // 3 -> 4 -> 5 -> 4 …: a cycle, not back to 3
        { urlId: ids[0]!, targetId: ids[1]!, maxSteps: 1 }, // 1 -> 2 -> 3 -> 4: not within one hop
      ]),
    ).toEqual([false, false, true, false, false]);
    expect(await closedLoops(store.pool, crawlId, [])).toEqual([]);
  });

  it('seedRedirectTargets: URLs at depth 0 reached by redirects', async () => {
    const { crawlId } = await pgCrawl(['http://a.test/', { url: 'http://www.a.test/', redirectHops: 1 }, { url: 'http://www.a.test/x', depth: 1, redirectHops: 1 }]);
    expect(await seedRedirectTargets(store.pool, crawlId)).toEqual([{ url: 'http://www.a.test/', registrableDomain: 'www.a.test' }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Robots store

describe.skipIf(unavailable)('PostgresRobotsStore', () => {
  const rules = (origin: string, fields: Partial<StoredRobots> = {}): StoredRobots => ({
    origin,
    status: 200,
    errorCode: null,
    body: 'User-agent: *\nDisallow: /private/\n',
    fetchedAtMs: 1_000,
    expiresAtMs: 1_000 + 86_400_000,
    ...fields,
  });
  const byOrigin = (list: StoredRobots[]) => [...list].sort((x, y) => x.origin.localeCompare(y.origin));

  it('loads what was saved, field for field, until its expiry, for any number of origins in one read; never another crawl\'s', async () => {
    const { crawlId } = await pgCrawl(['http://a.test/']);
    const { crawlId: otherCrawl } = await pgCrawl(['http://a.test/']);
    const robots = new PostgresRobotsStore(store, crawlId);
    const entries = [rules('http://a.test'), rules('https://b.test:8443', { status: 404, body: '' }), rules('http://c.test', { status: null, errorCode: 'REDIRECT_LOOP', body: '' })];
    for (const entry of entries) await robots.save(entry);
    const origins = ['http://a.test', 'https://b.test:8443', 'http://c.test', 'http://never.test', ...Array.from({ length: 2_000 }, (_, i) => `http://n${i}.test`)];
    const again = new PostgresRobotsStore(store, crawlId);
    expect(byOrigin(await again.load(origins, 2_000))).toEqual(byOrigin(entries));
    expect(await again.load(origins, 1_000 + 86_400_000)).toEqual([]);
    expect(await again.load([], 2_000)).toEqual([]);
    expect(await new PostgresRobotsStore(store, otherCrawl).load(origins, 2_000)).toEqual([]);
  });

  it('a save replaces the origin\'s entry; a body of 500 KiB is kept whole', async () => {
    const { crawlId } = await pgCrawl(['http://a.test/']);
    const robots = new PostgresRobotsStore(store, crawlId);
    await robots.save(rules('http://a.test'));
    const big = `User-agent: *\n${'Disallow: /x\n'.repeat(40_000)}`.slice(0, 500 * 1024);
    await robots.save(rules('http://a.test', { body: big, fetchedAtMs: 5_000, expiresAtMs: 6_000 }));
    expect(await robots.load(['http://a.test'], 5_500)).toEqual([rules('http://a.test', { body: big, fetchedAtMs: 5_000, expiresAtMs: 6_000 })]);
    const count = await store.pool.query(`SELECT count(*)::int AS n FROM robots_txt WHERE crawl_id = $1`, [crawlId]);
    expect(count.rows[0]!.n).toBe(1);
  });

  it('a refused save is a storage error in plain words', async () => {
    const robots = new PostgresRobotsStore(store, 1);
    // The schema refuses an entry with neither a status nor an error: a caller's bug, passed through.
    await expect(robots.save(rules('http://x.test', { status: null, errorCode: null }))).rejects.toThrow(/check constraint/);
  });
});

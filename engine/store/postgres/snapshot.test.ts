import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, startPostgres, type PostgresCluster } from '../../../testweb/postgres';
import { insertRowsIntoPostgres, insertSyntheticCrawl, postgresOnlyRows, sampleCrawlRows } from './snapshot-test-rows';
import { openDatabase } from '../sqlite/connection';
import { openPostgresStore, type PostgresStore } from './pool';
import { copyCrawlToSqlite, SNAPSHOT_TABLES } from './snapshot';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`PostgreSQL snapshot tests skipped: ${unavailable}`);

describe.skipIf(unavailable)('copyCrawlToSqlite: a PostgreSQL crawl as a SQLite crawl database', () => {
  let cluster: PostgresCluster;
  let store: PostgresStore;
  let dir: string;
  const sample = sampleCrawlRows(7, 1001);

  beforeAll(async () => {
    cluster = await startPostgres();
    store = await openPostgresStore(cluster.url, 6);
    await insertRowsIntoPostgres(store.pool, sample);
    await insertRowsIntoPostgres(store.pool, postgresOnlyRows(7));
    await store.pool.query(`UPDATE urls SET owner = 'proc-a' WHERE state = 'in_flight'`);
    // Another crawl in the same store: never in crawl 7's copy.
    await insertRowsIntoPostgres(store.pool, sampleCrawlRows(8, 5001));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-snapshot-'));
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await cluster?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table of the crawl column for column, ids kept, other crawls and PostgreSQL-only state left out', async () => {
    const file = path.join(dir, 'copy.db');
    const progress: string[] = [];
    const result = await copyCrawlToSqlite(store, 7, file, { onProgress: (table) => void progress.push(table) });
    for (const { table, rows } of sample) expect(result.rows[table], table).toBe(rows.length);
    expect(Object.keys(result.rows)).toEqual(SNAPSHOT_TABLES.map((t) => t.table));
    expect(progress).toContain('urls');
    expect(result.bytes).toBe(fs.statSync(file).size);
    const db = openDatabase(file, { readonly: true });
    try {
      expect(db.prepare(`SELECT id FROM crawls`).pluck().all()).toEqual([7]);
      const urls = sample.find((t) => t.table === 'urls')!.rows;
      const copied = db.prepare(`SELECT * FROM urls ORDER BY id`).all() as Record<string, unknown>[];
      expect(copied.map((u) => u.id)).toEqual(urls.map((u) => u.id));
      for (const [i, row] of copied.entries()) {
        const source = urls[i]!;
        for (const [column, value] of Object.entries(row)) {
          // SQLite only: derived from the copied links (link-ranges.ts), checked below.
          if (column === 'first_link_id' || column === 'last_link_id') continue;
          const expected = column === 'state' && source.state === 'in_flight' ? 'pending' : source[column];
          expect(value, `urls.${column} of ${String(source.url)}`).toEqual(expected);
        }
      }
      // Each source URL names the ids of its copied links.
      const ranges = db.prepare(`SELECT from_url_id AS id, MIN(id) AS first, MAX(id) AS last FROM links GROUP BY from_url_id ORDER BY from_url_id`).all();
      expect(ranges.length).toBeGreaterThan(0);
      expect(db.prepare(`SELECT id, first_link_id AS first, last_link_id AS last FROM urls WHERE first_link_id IS NOT NULL ORDER BY id`).all()).toEqual(ranges);
      // In flight in PostgreSQL, pending in the copy (a resumable state); its attempts kept.
      expect(db.prepare(`SELECT state, attempts FROM urls WHERE url = 'http://example.test/busy'`).get()).toEqual({ state: 'pending', attempts: 1 });
      expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE state = 'in_flight'`).pluck().get()).toBe(0);
      // A BLOB, a REAL and a bigint bucket survive as they were.
      const page = sample.find((t) => t.table === 'pages')!.rows[0]!;
      expect(db.prepare(`SELECT minhash FROM pages WHERE url_id = ?`).pluck().get(page.url_id)).toEqual(page.minhash);
      expect(db.prepare(`SELECT similarity FROM content_group_members WHERE similarity < 1`).pluck().get()).toBe(0.921875);
      expect(db.prepare(`SELECT MAX(bucket) FROM minhash_bands`).pluck().get()).toBe(4_294_967_295);
      // The forward discovered_from reference is kept, and no reference is broken.
      expect(db.prepare(`SELECT discovered_from FROM urls WHERE url = 'http://example.test/next'`).pluck().get()).toBe(1013);
      expect(db.prepare(`SELECT COUNT(*) FROM pragma_foreign_key_check`).pluck().get()).toBe(0);
      // Derived SQLite tables: the version index (docs v1/v2) and link counts.
      expect(db.prepare(`SELECT template, versions FROM version_templates WHERE versions >= 2`).all()).toEqual([{ template: expect.stringContaining('example.test/docs/'), versions: 2 }]);
      expect(db.prepare(`SELECT inlinks FROM link_counts WHERE url_id = 1004`).pluck().get()).toBe(4);
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
      for (const pgOnly of ['hosts', 'processes', 'host_slots', 'url_counts']) expect(tables).not.toContain(pgOnly);
      expect(db.prepare(`SELECT name FROM pragma_table_info('urls') WHERE name = 'owner'`).get()).toBeUndefined();
    } finally {
      db.close();
    }
    // The copy is a crawl database another command can open read-write and resume from.
    const writable = openDatabase(file, { create: false });
    expect(writable.prepare(`SELECT COUNT(*) FROM urls WHERE state = 'pending'`).pluck().get()).toBe(3);
    writable.close();
    expect(fs.readdirSync(dir).filter((name) => name.includes('partial'))).toEqual([]);
  });

  it('refuses a missing crawl and an existing file, leaving nothing behind', async () => {
    await expect(copyCrawlToSqlite(store, 99, path.join(dir, 'none.db'))).rejects.toMatchObject({ code: 'CRAWL_NOT_FOUND' });
    expect(fs.existsSync(path.join(dir, 'none.db'))).toBe(false);
    fs.writeFileSync(path.join(dir, 'taken.db'), 'mine');
    await expect(copyCrawlToSqlite(store, 7, path.join(dir, 'taken.db'))).rejects.toMatchObject({ code: 'SNAPSHOT_EXISTS' });
    expect(fs.readFileSync(path.join(dir, 'taken.db'), 'utf8')).toBe('mine');
  });

  it('is one snapshot: transactions committed during the copy are in it not at all, those before it wholly', async () => {
    // Before: one transaction adding a URL and a link to it (both must be in the copy).
    await store.pool.query(
      `WITH u AS (INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (1500, 7, 'http://example.test/before', 'http://example.test/before', 'http://example.test/before', 'example.test', 1, 1, 1) RETURNING id)
       INSERT INTO links (crawl_id, from_url_id, to_url_id, kind) SELECT 7, 1001, id, 1 FROM u`,
    );
    let writes = 0;
    const file = path.join(dir, 'during.db');
    const result = await copyCrawlToSqlite(store, 7, file, {
      async onProgress(table) {
        if (table !== 'urls' && table !== 'links' && table !== 'checkpoints') return;
        // While the copy is under way, another connection commits URLs, links, a settled state and a run.
        writes += 1;
        const urlId = 1600 + writes;
        await store.pool.query(`BEGIN; INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (${urlId}, 7, 'k${urlId}', 'k${urlId}', 'http://example.test/w${urlId}', 'example.test', 1, 1, 1);
          INSERT INTO links (crawl_id, from_url_id, to_url_id, kind) VALUES (7, 1001, ${urlId}, 1);
          UPDATE urls SET state = 'done', http_status = 200 WHERE id = 1009;
          INSERT INTO crawl_runs (crawl_id, started_at_ms) VALUES (7, ${Date.now()}); COMMIT`);
      },
    });
    expect(writes).toBe(3);
    const db = openDatabase(file, { readonly: true });
    try {
      expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE id = 1500`).pluck().get()).toBe(1);
      expect(db.prepare(`SELECT COUNT(*) FROM links WHERE to_url_id = 1500`).pluck().get()).toBe(1);
      expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE id > 1600`).pluck().get()).toBe(0);
      expect(db.prepare(`SELECT COUNT(*) FROM links WHERE to_url_id > 1600`).pluck().get()).toBe(0);
      expect(db.prepare(`SELECT state FROM urls WHERE id = 1009`).pluck().get()).toBe('pending');
      expect(db.prepare(`SELECT COUNT(*) FROM crawl_runs`).pluck().get()).toBe(2);
      expect(result.rows.urls).toBe(15);
    } finally {
      db.close();
    }
    // PostgreSQL has them all.
    expect((await store.pool.query(`SELECT count(*) AS n FROM urls WHERE crawl_id = 7 AND id > 1600`)).rows[0].n).toBe(3);
    await store.pool.query(`DELETE FROM crawl_runs WHERE crawl_id = 7 AND id > 100; DELETE FROM links WHERE crawl_id = 7 AND to_url_id > 1500; DELETE FROM urls WHERE id > 1500 AND crawl_id = 7; UPDATE urls SET state = 'pending', http_status = NULL WHERE id = 1009`);
  });

  it('leaves no file when the copy fails part way: a failing step, or the server ending the connection', async () => {
    const file = path.join(dir, 'failed.db');
    await expect(
      copyCrawlToSqlite(store, 7, file, {
        onProgress(table) {
          if (table === 'links') throw new Error('stopped at links');
        },
      }),
    ).rejects.toThrow('stopped at links');
    expect(fs.readdirSync(dir).filter((name) => name.includes('failed'))).toEqual([]);
    const killed = copyCrawlToSqlite(store, 7, file, {
      async onProgress(table) {
        if (table === 'pages') await store.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND datname = current_database()`);
      },
    });
    await expect(killed).rejects.toMatchObject({ code: 'STORE_UNREACHABLE' });
    expect(fs.readdirSync(dir).filter((name) => name.includes('failed'))).toEqual([]);
    // The pool recovers: the next copy works.
    await expect(copyCrawlToSqlite(store, 7, file)).resolves.toMatchObject({ rows: { crawls: 1 } });
  });

  it('copies a crawl of 20,000 URLs and 45,000 links (measured)', async () => {
    await insertSyntheticCrawl(store.pool, 20, 20_000, 3);
    const file = path.join(dir, 'big.db');
    const started = performance.now();
    const result = await copyCrawlToSqlite(store, 20, file);
    const ms = performance.now() - started;
    console.log(`copy of ${result.rows.urls} URLs, ${result.rows.links} links, ${result.rows.pages} pages (+ texts) to SQLite: ${Math.round(ms)} ms, ${(result.bytes / 1e6).toFixed(1)} MB`);
    expect(result.rows.urls).toBe(20_000);
    expect(result.rows.links).toBe(45_000);
    const db = openDatabase(file, { readonly: true });
    expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE state = 'pending'`).pluck().get()).toBe(5000);
    db.close();
  }, 120_000);

  it('under a writer committing batches all through the copy, holds each batch wholly or not at all', async () => {
    await insertSyntheticCrawl(store.pool, 21, 20_000, 3);
    const base = 21 * 10_000_000;
    let stop = false;
    let committed = 0;
    // One commit batch: a new URL and its link, and a pending URL settled with its page.
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const marker = base + 900_000 + i;
        // Pending URLs of the synthetic crawl are g % 4 = 3 (g % 40 = 3 in flight): g = 40 i + 7, 499 of them.
        const settled = i < 499 ? base + 40 * i + 7 : null;
        await store.pool.query(`BEGIN;
          INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (${marker}, 21, 'm${marker}', 'm${marker}', 'http://h1.test/m/${marker}', 'h1.test', 1, 1, 1);
          INSERT INTO links (crawl_id, from_url_id, to_url_id, kind) VALUES (21, ${base + 1}, ${marker}, 1);
          ${settled === null ? '' : `UPDATE urls SET state = 'done', http_status = 200, fetched_at_ms = 2 WHERE id = ${settled};
          INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms) VALUES (${settled}, 21, 'http://h1.test/', 200, 10, 1, 2);`}
          COMMIT`);
        committed += 1;
      }
    })();
    let failed: unknown = null;
    writer.catch((error: unknown) => (failed = error));
    while (committed < 3 && failed === null) await new Promise((resolve) => setTimeout(resolve, 5));
    const file = path.join(dir, 'busy.db');
    let result;
    try {
      result = await copyCrawlToSqlite(store, 21, file);
    } finally {
      stop = true;
      await writer;
    }
    const db = openDatabase(file, { readonly: true });
    try {
      const markers = db.prepare(`SELECT COUNT(*) FROM urls WHERE id >= ?`).pluck().get(base + 900_000) as number;
      expect(db.prepare(`SELECT COUNT(*) FROM links WHERE to_url_id >= ?`).pluck().get(base + 900_000)).toBe(markers);
      // Every URL the snapshot has as done has its page, and no page belongs to a URL it has as pending.
      expect(db.prepare(`SELECT COUNT(*) FROM urls u WHERE crawl_id = 21 AND state = 'done' AND NOT EXISTS (SELECT 1 FROM pages p WHERE p.url_id = u.id)`).pluck().get()).toBe(0);
      expect(db.prepare(`SELECT COUNT(*) FROM pages p JOIN urls u ON u.id = p.url_id WHERE u.state = 'pending'`).pluck().get()).toBe(0);
      expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = 21 AND state = 'done'`).pluck().get()).toBe(15_000 + Math.min(markers, 499));
      expect(markers).toBeGreaterThanOrEqual(3);
      // The writer went on during the copy: the snapshot lacks what it committed after the snapshot began.
      expect(committed).toBeGreaterThan(markers);
      expect(result.rows.urls).toBe(20_000 + markers);
    } finally {
      db.close();
    }
  }, 120_000);
});

import BetterSqlite3, { type Database } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from './index';

describe('migrate / 0001-initial', () => {
  let db: Database;

  beforeEach(() => {
    db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
  });

  afterEach(() => {
    db.close();
  });

  const ONLY_0001 = MIGRATIONS.slice(0, 1);
  const userVersion = () => db.pragma('user_version', { simple: true }) as number;

  it('lists migrations with ascending versions from 1 (numbers reserved by parallel branches may land out of order, never reused)', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions[0]).toBe(1);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(MIGRATIONS[0]).toMatchObject({ version: 1, name: 'initial' });
  });

  it('applies [1] on a fresh database and sets user_version to 1', () => {
    expect(userVersion()).toBe(0);
    expect(migrate(db, ONLY_0001)).toEqual([1]);
    expect(userVersion()).toBe(1);
  });

  it('is idempotent: a second call applies nothing and changes nothing', () => {
    migrate(db, ONLY_0001);
    const schemaBefore = db.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY name`).all();
    expect(migrate(db, ONLY_0001)).toEqual([]);
    expect(userVersion()).toBe(1);
    expect(db.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY name`).all()).toEqual(schemaBefore);
  });

  it('creates the expected tables and indexes', () => {
    migrate(db, ONLY_0001);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).pluck().all();
    expect(tables).toEqual(['crawls', 'links', 'pages', 'settings', 'urls']);
    const indexes = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name`).pluck().all();
    expect(indexes).toEqual(['links_by_from', 'links_by_to', 'pages_by_crawl', 'urls_by_host_state', 'urls_by_state']);
  });

  it('gives the urls table the frontier columns', () => {
    migrate(db, ONLY_0001);
    const columns = (db.pragma('table_info(urls)') as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual([
      'id',
      'crawl_id',
      'normalized_key',
      'normalized',
      'url',
      'host',
      'registrable_domain',
      'state',
      'depth',
      'priority',
      'discovered_from',
      'enqueued_at_ms',
      'fetched_at_ms',
      'http_status',
      'error_code',
      'error_reason',
      'attempts',
    ]);
  });

  it('declares UNIQUE(crawl_id, normalized_key) on urls', () => {
    migrate(db, ONLY_0001);
    const uniques = (db.pragma('index_list(urls)') as { name: string; unique: number; origin: string }[]).filter((i) => i.unique === 1 && i.origin === 'u');
    const uniqueColumns = uniques.map((i) => (db.pragma(`index_info(${JSON.stringify(i.name)})`) as { name: string }[]).map((c) => c.name));
    expect(uniqueColumns).toEqual([['crawl_id', 'normalized_key']]);
  });

  it('enforces the URL-seen constraint per crawl, and the state CHECK', () => {
    migrate(db, ONLY_0001);
    db.prepare(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0), (2, '[]', '{}', 'running', 0)`).run();
    const insert = db.prepare(
      `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (?, ?, 'n', 'u', 'h', 0, 0, 0)`,
    );
    insert.run(1, 'k1');
    expect(() => insert.run(1, 'k1')).toThrow(/UNIQUE constraint failed: urls\.crawl_id, urls\.normalized_key/);
    expect(() => insert.run(2, 'k1')).not.toThrow();
    expect(db.prepare(`SELECT state, attempts FROM urls WHERE crawl_id = 1`).get()).toEqual({ state: 'pending', attempts: 0 });
    expect(() => db.prepare(`UPDATE urls SET state = 'bogus' WHERE crawl_id = 1`).run()).toThrow(/CHECK constraint failed/);
    expect(() => db.prepare(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES ('[]', '{}', 'exploded', 0)`).run()).toThrow(
      /CHECK constraint failed/,
    );
  });

  it('cascades a crawl deletion to its urls', () => {
    migrate(db, ONLY_0001);
    db.prepare(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`).run();
    db.prepare(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (1, 'k', 'n', 'u', 'h', 0, 0, 0)`).run();
    db.prepare(`DELETE FROM crawls WHERE id = 1`).run();
    expect(db.prepare(`SELECT COUNT(*) FROM urls`).pluck().get()).toBe(0);
  });

  it('refuses a database from a newer Crawlbench with code SCHEMA_TOO_NEW and leaves it untouched', () => {
    db.pragma('user_version = 99');
    let caught: unknown;
    try {
      migrate(db, ONLY_0001);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as { code?: string }).code).toBe('SCHEMA_TOO_NEW');
    expect((caught as Error).message).toMatch(/99/);
    expect(userVersion()).toBe(99);
    expect(db.prepare(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'`).pluck().get()).toBe(0);
  });

  it('applies only migrations newer than user_version, each atomically', () => {
    const applied: string[] = [];
    const steps = [
      { version: 1, name: 'one', up: () => applied.push('one') },
      { version: 2, name: 'two', up: (d: Database) => (applied.push('two'), d.exec('CREATE TABLE t2 (x)')) },
      {
        version: 3,
        name: 'broken',
        up: (d: Database) => {
          d.exec('CREATE TABLE t3 (x)');
          throw new Error('boom');
        },
      },
    ];
    db.pragma('user_version = 1');
    expect(() => migrate(db, steps)).toThrow('boom');
    expect(applied).toEqual(['two']);
    expect(userVersion()).toBe(2); // step 2 committed, step 3 rolled back
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all();
    expect(tables).toEqual(['t2']);
  });
});

import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ReadableDB } from '../database';
import { LINK_KIND_CODES } from '../link-codes';
import { InspectorQueries } from '../queries/inspector-queries';
import { watchPrepare } from '../queries/test-rows';
import { INLINKS_INDEX } from '../sort-indexes';
import { migrate, MIGRATIONS } from './index';

describe('migration 0022 redirects-by-target', () => {
  it('indexes redirect links by target only, and the inspector walks a redirect chain back through it with the inlinks index dropped', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 22));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    const url = db.prepare(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (?, 1, ?, ?, ?, 'a.test', 'done', 0, 0, 0)`);
    for (const id of [1, 2, 3, 4]) url.run(id, `k${id}`, `http://a.test/${id}`, `http://a.test/${id}`);
    const link = db.prepare(`INSERT INTO links (crawl_id, from_url_id, to_url_id, kind) VALUES (1, ?, ?, ?)`);
    link.run(1, 2, LINK_KIND_CODES.redirect);
    link.run(2, 3, LINK_KIND_CODES.redirect);
    link.run(4, 3, LINK_KIND_CODES.a);
    expect(migrate(db)).toContain(22);
    expect(db.prepare(`SELECT COUNT(*) FROM links INDEXED BY links_redirects_by_to WHERE crawl_id = 1 AND to_url_id = 3 AND kind = ${LINK_KIND_CODES.redirect}`).pluck().get()).toBe(1);
    db.exec(`DROP INDEX ${INLINKS_INDEX.name}`);
    const captured: string[] = [];
    const prepare = watchPrepare(db, (sql) => captured.push(sql));
    expect(new InspectorQueries(db as ReadableDB).redirectChain(1, 3).map((hop) => hop.urlId)).toEqual([1, 2, 3]);
    const redirectInto = captured.find((sql) => /to_url_id = \? AND kind = /.test(sql))!;
    const plan = (prepare(`EXPLAIN QUERY PLAN ${redirectInto}`).all(1, 3) as { detail: string }[]).map((step) => step.detail).join(' | ');
    expect(plan).toContain('links_redirects_by_to');
    expect(plan).not.toMatch(/SCAN l(inks)?\b/);
    db.close();
  });
});

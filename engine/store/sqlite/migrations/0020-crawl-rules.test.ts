import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0020 crawl-rules', () => {
  it('adds accepted rules per crawl with their counts, and an undo log that goes with its rule', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 20));
    expect(migrate(db)).toContain(20);
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'paused', 0)`);
    const insert = db.prepare(`INSERT INTO crawl_rules (crawl_id, source, rule_json, description, accepted_at_ms, undone_at_ms) VALUES (1, ?, '{}', 'r', 100, ?)`);
    insert.run('dust', null);
    expect(() => insert.run('guess', null)).toThrow(/CHECK/);
    expect(() => insert.run('content-group', 50)).toThrow(/CHECK/);
    db.exec(`INSERT INTO crawl_rule_changes (rule_id, seq, kind, url_id, data_json) VALUES (1, 0, 'merge', 7, '{}'), (1, 1, 'rekey', 8, '{}')`);
    expect(() => db.exec(`INSERT INTO crawl_rule_changes (rule_id, seq, kind, url_id, data_json) VALUES (1, 2, 'drop', 9, '{}')`)).toThrow(/CHECK/);
    db.exec(`DELETE FROM crawls WHERE id = 1`);
    expect(db.prepare(`SELECT COUNT(*) FROM crawl_rule_changes`).pluck().get()).toBe(0);
    db.close();
  });
});

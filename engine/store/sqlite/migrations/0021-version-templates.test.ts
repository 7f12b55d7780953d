import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0021 version-templates', () => {
  it('adds templates and their members on an existing crawl, one template text per crawl, removed with their crawl', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 21));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'stopped', 0)`);
    db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (1, 1, 'k1', 'http://d.test/3.11/a', 'http://d.test/3.11/a', 'd.test', 'done', 0, 0, 0)`);
    expect(migrate(db)).toContain(21);
    const template = db.prepare(`INSERT INTO version_templates (crawl_id, template, versions) VALUES (1, 'http://d.test/%s/a', 1)`).run().lastInsertRowid;
    db.prepare(`INSERT INTO url_versions (template_id, url_id, version) VALUES (?, 1, '3.11')`).run(template);
    expect(() => db.prepare(`INSERT INTO version_templates (crawl_id, template, versions) VALUES (1, 'http://d.test/%s/a', 1)`).run()).toThrow(/UNIQUE/);
    expect(() => db.prepare(`INSERT INTO version_templates (crawl_id, template, versions) VALUES (1, 'http://d.test/%s/b', -1)`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`INSERT INTO url_versions (template_id, url_id, version) VALUES (?, 99, '3')`).run(template)).toThrow(/FOREIGN KEY/);
    db.exec(`DELETE FROM crawls WHERE id = 1`);
    expect(db.prepare(`SELECT (SELECT COUNT(*) FROM version_templates) + (SELECT COUNT(*) FROM url_versions)`).pluck().get()).toBe(0);
    db.close();
  });
});

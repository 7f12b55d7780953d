import type { Database } from 'better-sqlite3';

/** The CHECK on urls.state as migration 0010 wrote it. */
const OLD_STATE_CHECK = /CHECK\s*\(\s*state\s+IN\s*\(\s*'pending'\s*,\s*'in_flight'\s*,\s*'done'\s*,\s*'error'\s*,\s*'blocked'\s*\)\s*\)/;

/**
 * 0019: crawler traps (issue 12 part 4). `urls.state` accepts `held` (a URL a suspected trap holds:
 * not fetched, not lost, reversible), `urls.trap_id` names the trap that holds it (null for every
 * other URL; kept after a release, so the report can say which URLs a trap once held), and `traps`
 * keeps each suspected trap of a crawl: host, pattern (a regular-expression source over the whole
 * URL, linear-time constructs only), the template people read, detector, evidence (JSON), examples
 * (JSON array), state (suspected / released / excluded) and times (epoch ms). A trap's held count
 * is not stored: it is counted from urls through the partial index `urls_held_by_trap`, the one
 * source of it.
 *
 * urls is rebuilt for the wider CHECK as migration 0010 does (lang_altertable.html §7: foreign keys
 * off, every row copied with its id, indexes, triggers and views created again).
 * @throws Error when the stored urls table has no CHECK of the 0010 form (nothing is changed)
 */
export const migration0019 = {
  version: 19,
  name: 'held-traps',
  foreignKeysOff: true,
  up(db: Database): void {
    const tableSql = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'urls'`).pluck().get() as string | undefined;
    if (tableSql === undefined || !OLD_STATE_CHECK.test(tableSql)) throw new Error('migration 0019: the urls table has no state CHECK of the expected form');
    // The states as of this migration (not URL_STATES: a shipped migration never changes).
    const newSql = tableSql
      .replace(/^CREATE TABLE\s+("?)urls\1/, 'CREATE TABLE urls_new')
      .replace(OLD_STATE_CHECK, `CHECK (state IN ('pending', 'in_flight', 'done', 'error', 'blocked', 'held'))`);
    const dependents = db
      .prepare(`SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND ((type IN ('index', 'trigger') AND tbl_name = 'urls') OR (type = 'view' AND sql LIKE '%urls%'))`)
      .all() as { type: 'index' | 'trigger' | 'view'; name: string; sql: string }[];
    for (const view of dependents.filter((d) => d.type === 'view')) db.exec(`DROP VIEW "${view.name}"`);
    db.exec(newSql);
    db.exec(`INSERT INTO urls_new SELECT * FROM urls`);
    db.exec(`DROP TABLE urls`);
    db.exec(`ALTER TABLE urls_new RENAME TO urls`);
    for (const dependent of dependents) db.exec(dependent.sql);
    db.exec(`
      CREATE TABLE traps (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        host TEXT NOT NULL,
        pattern TEXT NOT NULL,
        template TEXT NOT NULL,
        detector TEXT NOT NULL,
        evidence_json TEXT NOT NULL,
        examples_json TEXT NOT NULL DEFAULT '[]',
        state TEXT NOT NULL DEFAULT 'suspected' CHECK (state IN ('suspected', 'released', 'excluded')),
        detected_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL,
        UNIQUE (crawl_id, pattern)
      );
      ALTER TABLE urls ADD COLUMN trap_id INTEGER REFERENCES traps(id) ON DELETE SET NULL;
      CREATE INDEX urls_held_by_trap ON urls (trap_id, state) WHERE trap_id IS NOT NULL;
    `);
  },
};

import type { Database } from 'better-sqlite3';

/** The CHECK on urls.state as every migration before 0010 wrote it. */
const OLD_STATE_CHECK = /CHECK\s*\(\s*state\s+IN\s*\(\s*'pending'\s*,\s*'in_flight'\s*,\s*'done'\s*,\s*'error'\s*\)\s*\)/;

/**
 * 0010: robots.txt-refused URLs get a state of their own (issue 11). `urls.state` accepts
 * `blocked` (a URL robots.txt refused before any request: not an error), and `urls.robots_line`
 * keeps the robots.txt rule that refused it as `12: Disallow: /private/` (1-based line number and
 * the line as written, capped; null for every other URL, and for blocked URLs whose rule is not
 * known).
 *
 * SQLite cannot alter a CHECK constraint, so `urls` is rebuilt as https://www.sqlite.org/lang_altertable.html
 * §7 describes: the new table is created from the stored CREATE statement with the wider CHECK,
 * every row copied with its id, the old table dropped and the new one renamed; its indexes (and
 * any triggers and views naming it) are created again from their stored SQL. The other tables'
 * foreign keys name `urls` by name and keep pointing at the same ids. Foreign keys must be off
 * meanwhile (a DROP TABLE would otherwise cascade into pages, links, aliases…): the migration is
 * flagged `foreignKeysOff`, so {@link migrate} turns them off around its transaction and runs
 * PRAGMA foreign_key_check before committing.
 * @throws Error when the stored urls table has no CHECK of the known form (nothing is changed)
 */
export const migration0010 = {
  version: 10,
  name: 'blocked-state',
  foreignKeysOff: true,
  up(db: Database): void {
    const tableSql = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'urls'`).pluck().get() as string | undefined;
    if (tableSql === undefined || !OLD_STATE_CHECK.test(tableSql)) throw new Error('migration 0010: the urls table has no state CHECK of the expected form');
    // The states as of this migration (not URL_STATES: a shipped migration never changes).
    const newSql = tableSql.replace(/^CREATE TABLE\s+("?)urls\1/, 'CREATE TABLE urls_new').replace(OLD_STATE_CHECK, `CHECK (state IN ('pending', 'in_flight', 'done', 'error', 'blocked'))`);
    // Indexes, triggers and views that name urls, to create again after the rename (autoindexes have no SQL: the UNIQUE clause makes them).
    const dependents = db
      .prepare(`SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND ((type IN ('index', 'trigger') AND tbl_name = 'urls') OR (type = 'view' AND sql LIKE '%urls%'))`)
      .all() as { type: 'index' | 'trigger' | 'view'; name: string; sql: string }[];
    for (const view of dependents.filter((d) => d.type === 'view')) db.exec(`DROP VIEW "${view.name}"`);
    db.exec(newSql);
    db.exec(`INSERT INTO urls_new SELECT * FROM urls`);
    db.exec(`DROP TABLE urls`);
    db.exec(`ALTER TABLE urls_new RENAME TO urls`);
    for (const dependent of dependents) db.exec(dependent.sql);
    db.exec(`ALTER TABLE urls ADD COLUMN robots_line TEXT`);
  },
};

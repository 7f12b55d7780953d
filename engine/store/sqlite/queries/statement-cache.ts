/** Prepared statements kept by SQL text, so paged queries reuse them. */
import type { Statement } from 'better-sqlite3';
import type { ReadableDB } from '../database';

/**
 * Prepared statements reused per SQL text (STYLE.md convention 7). Queries whose WHERE clause
 * depends on the filters build one of a few SQL strings; each is prepared once per connection.
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: ReadableDB) {}

  /** The prepared statement for `sql`, prepared on first use. */
  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** True when the database has a table of this name (for optional tables such as page_texts). */
  hasTable(name: string): boolean {
    return this.get(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;
  }
}

/** The numbered schema migrations and the function that applies them, each in its own transaction. */
import type { Database } from 'better-sqlite3';
import { migration0001 } from './0001-initial';
import { migration0002 } from './0002-url-aliases';
import { migration0003 } from './0003-checkpoints';
import { migration0004 } from './0004-content-duplicates';
import { migration0005 } from './0005-page-texts';
import { migration0006 } from './0006-redirect-hops';
import { migration0007 } from './0007-links-over-cap';
import { migration0008 } from './0008-crawl-lease';
import { migration0009 } from './0009-page-analysis';
import { migration0010 } from './0010-blocked-state';
import { migration0011 } from './0011-pages-table';
import { migration0012 } from './0012-crawl-runs';
import { migration0013 } from './0013-url-timeline';
import { migration0014 } from './0014-site-tree-index';
import { migration0015 } from './0015-robots-txt';
import { migration0016 } from './0016-compact-links';
import { migration0017 } from './0017-minhash-bands-clustered';
import { migration0018 } from './0018-url-sources-sitemaps';
import { migration0019 } from './0019-held-traps';
import { migration0020 } from './0020-crawl-rules';
import { migration0021 } from './0021-version-templates';
import { migration0022 } from './0022-redirects-by-target';
import { migration0023 } from './0023-page-bodies';
import { migration0024 } from './0024-page-extractions';
import { migration0025 } from './0025-page-renders';
import { migration0026 } from './0026-page-text-blocks';
import { migration0027 } from './0027-url-link-ranges';
import { migration0028 } from './0028-exact-fingerprints-in-memory';

/** One schema step. `version` numbers ascend from 1 (numbers may be taken by parallel branches and land out of order, never reused); PRAGMA user_version records the last applied. */
export interface Migration {
  version: number;
  name: string;
  /**
   * The migration rebuilds a table others reference (lang_altertable.html §7): foreign keys are
   * turned off around its transaction, and PRAGMA foreign_key_check must find nothing before it commits.
   */
  foreignKeysOff?: boolean;
  up(db: Database): void;
}

/** Every migration, in order. Append only: a shipped migration is never edited. */
export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004, migration0005, migration0006, migration0007, migration0008, migration0009, migration0010, migration0011, migration0012, migration0013, migration0014, migration0015, migration0016, migration0017, migration0018, migration0019, migration0020, migration0021, migration0022, migration0023, migration0024, migration0025, migration0026, migration0027, migration0028];

/**
 * Brings `db` to the newest schema, each migration in its own `BEGIN IMMEDIATE` transaction that
 * reads user_version again under the write lock: two processes opening one old file at once apply
 * each step once (the second waits on busy_timeout, then finds it done).
 * @returns the versions applied by this call (empty when already current)
 * @throws CodedError-like Error with code SCHEMA_TOO_NEW when the file comes from a newer Crawlbench
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  const newest = migrations.at(-1)?.version ?? 0;
  if (current > newest) {
    throw Object.assign(new Error(`Database schema version ${current} is newer than this Crawlbench supports (${newest})`), {
      code: 'SCHEMA_TOO_NEW',
    });
  }
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    // PRAGMA foreign_keys is a no-op inside a transaction: it is switched before and after.
    const restoreForeignKeys = migration.foreignKeysOff === true && (db.pragma('foreign_keys', { simple: true }) as number) === 1;
    if (restoreForeignKeys) db.pragma('foreign_keys = OFF');
    try {
      const ran = db
        .transaction(() => {
          // Another process may have applied it since the first read.
          if ((db.pragma('user_version', { simple: true }) as number) >= migration.version) return false;
          migration.up(db);
          if (migration.foreignKeysOff === true) {
            const broken = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
            if (broken.length > 0) {
              const first = broken[0]!;
              throw new Error(`migration ${migration.version} ${migration.name} would leave ${broken.length} broken foreign keys (first: ${first.table} row ${first.rowid} → ${first.parent})`);
            }
          }
          db.pragma(`user_version = ${migration.version}`);
          return true;
        })
        .immediate();
      if (ran) applied.push(migration.version);
    } finally {
      if (restoreForeignKeys) db.pragma('foreign_keys = ON');
    }
  }
  return applied;
}

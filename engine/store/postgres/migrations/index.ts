/**
 * The PostgreSQL schema migrations (issue 13) and the function that applies them: numbered,
 * append-only, each in its own transaction, under a transaction-level advisory lock so that two
 * processes starting on one empty database apply each step once (the second waits, then finds it
 * done). `crawlbench_schema` records the versions applied.
 */
import type { PoolClient } from 'pg';
import { CodedError } from '../../../../shared/types/result';
import { POSTGRES_SCHEMA_1 } from './0001-initial';
import { POSTGRES_SCHEMA_2 } from './0002-page-bodies';
import { POSTGRES_SCHEMA_3 } from './0003-page-extractions';
import { POSTGRES_SCHEMA_4 } from './0004-page-renders';

/** One schema step: `sql` runs as one multi-statement query inside the step's transaction. */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, in order. Append only: a shipped migration is never edited. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  { version: 1, name: 'initial', sql: POSTGRES_SCHEMA_1 },
  { version: 2, name: 'page-bodies', sql: POSTGRES_SCHEMA_2 },
  { version: 3, name: 'page-extractions', sql: POSTGRES_SCHEMA_3 },
  { version: 4, name: 'page-renders', sql: POSTGRES_SCHEMA_4 },
];

/** pg_advisory_xact_lock key of the migration step (any constant the crawler alone uses: "crawlben" in ASCII). */
const MIGRATION_LOCK_KEY = 0x637261776c62656en;

/**
 * Brings the database to the newest schema.
 * @returns the versions applied by this call (empty when already current)
 * @throws CodedError SCHEMA_TOO_NEW when the database was written by a newer Crawlbench
 */
export async function migratePostgres(client: PoolClient, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<number[]> {
  const newest = migrations.at(-1)?.version ?? 0;
  const applied: number[] = [];
  await client.query(`CREATE TABLE IF NOT EXISTS crawlbench_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`).catch(async (error: unknown) => {
    // Two processes creating it at once: the loser's unique violation on pg_type means it exists now.
    if ((error as { code?: string }).code !== '23505') throw error;
  });
  for (const migration of migrations) {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
      const current = Number((await client.query<{ v: number | null }>('SELECT max(version) AS v FROM crawlbench_schema')).rows[0]?.v ?? 0);
      if (current > newest) throw new CodedError('SCHEMA_TOO_NEW', `The PostgreSQL database's Crawlbench schema is version ${current}, newer than this Crawlbench supports (${newest}): upgrade Crawlbench, or use another database`);
      if (current < migration.version) {
        await client.query(migration.sql);
        await client.query('INSERT INTO crawlbench_schema (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        applied.push(migration.version);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
  return applied;
}

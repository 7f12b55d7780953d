import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CheckpointInfo } from '../../engine';
import { copyCrawlToSqlite, createCheckpoint, createPostgresCheckpoint, listCheckpoints, listPostgresCheckpoints, newestPostgresCrawl, openDatabase, openPostgresStore, type PostgresStore } from '../../engine';
import { CodedError } from '../../shared/types/result';
import { failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';
import { parseStoreArg } from '../store-arg';

export const CHECKPOINTS_USAGE = 'Usage: crawlbench checkpoints --db FILE|--store URL [--crawl ID] [--create NAME] [--to FILE] [--json]';

/**
 * `crawlbench checkpoints`: lists a database's checkpoints (time, crawl, pages done, frontier
 * size, settings hash), or with `--create NAME` snapshots a crawl now. Listing opens the database
 * read-only (nothing in the file changes); either way a file that is not a Crawlbench database is
 * refused (NOT_A_CRAWL_DB, SCHEMA_TOO_NEW, DB_NOT_FOUND), exit code 2.
 * With `--store postgres://…` (issue 13): listing reads the store's checkpoint rows; `--create
 * NAME` copies the crawl into a SQLite file (`--to FILE`, default
 * `$XDG_DATA_HOME/crawlbench/postgres-checkpoints/HOST-PORT-DB/crawl-ID-NAME.db`) and records it
 * in PostgreSQL; `--to FILE` alone writes a standalone SQLite copy of the crawl (a new file,
 * openable with --db FILE and resumable there). `--store FILE` is `--db FILE`.
 */
export async function checkpointsCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { db: { type: 'string' }, store: { type: 'string' }, crawl: { type: 'string' }, create: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' } } }));
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'checkpoints'));
  }
  if (values.db === undefined && values.store === undefined) return failLine(io, `MISSING_FLAG: --db FILE or --store URL is required (see crawlbench checkpoints --help)`);
  let db;
  let pgStore: PostgresStore | null = null;
  try {
    let crawlId = intFlag('crawl', values.crawl, 1);
    const store = parseStoreArg(values)!;
    let list: CheckpointInfo[];
    if (store.kind === 'postgres') {
      pgStore = await openPostgresStore(store.url, 2);
      if (values.create !== undefined || values.to !== undefined) {
        crawlId ??= (await newestPostgresCrawl(pgStore)) ?? undefined;
        if (crawlId === undefined) throw new CodedError('CRAWL_NOT_FOUND', `No crawl in ${pgStore.url}`);
      }
      if (values.create !== undefined) {
        const file = path.resolve(values.to ?? path.join(postgresCheckpointFolder(store.url), `crawl-${crawlId}-${values.create}.db`));
        if (values.to === undefined) fs.mkdirSync(path.dirname(file), { recursive: true });
        const made = await createPostgresCheckpoint(pgStore, crawlId!, values.create, file);
        io.stderr.write(`checkpoint ${made.name} of crawl ${made.crawlId}: ${made.pagesDone} pages done, ${made.frontierSize} in the frontier -> ${made.file}\n`);
      } else if (values.to !== undefined) {
        const file = path.resolve(values.to);
        const copied = await copyCrawlToSqlite(pgStore, crawlId!, file);
        io.stderr.write(`copied crawl ${crawlId} of ${pgStore.url} (${copied.rows.urls} URLs, ${copied.rows.pages} pages, ${copied.rows.links} links; ${copied.bytes} bytes) -> ${file}; open it with --db ${file}\n`);
        return 0;
      }
      list = await listPostgresCheckpoints(pgStore, crawlId);
    } else {
      if (values.to !== undefined) return failLine(io, `INVALID_FLAG: --to FILE copies a PostgreSQL crawl (--store postgres://…); a SQLite database's checkpoints are files already`);
      // Creating writes the checkpoint's row: a read-write handle; listing only reads.
      const writable = values.create ? openDatabase(store.file, { create: false }) : null;
      db = writable ?? openDatabase(store.file, { readonly: true });
      if (values.create && writable) {
        crawlId ??= (db.prepare(`SELECT MAX(id) FROM crawls`).pluck().get() as number | null) ?? 0;
        const made = await createCheckpoint(writable, crawlId, values.create);
        io.stderr.write(`checkpoint ${made.name} of crawl ${made.crawlId}: ${made.pagesDone} pages done, ${made.frontierSize} in the frontier -> ${made.file}\n`);
      }
      list = listCheckpoints(db, crawlId);
    }
    if (values.json) {
      for (const c of list) io.stdout.write(`${JSON.stringify(c)}\n`);
    } else if (list.length === 0) {
      io.stdout.write('no checkpoints\n');
    } else {
      io.stdout.write(`${'time'.padEnd(25)}${'crawl'.padEnd(7)}${'name'.padEnd(28)}${'done'.padStart(8)}${'frontier'.padStart(10)}  settings\n`);
      for (const c of list) {
        io.stdout.write(`${new Date(c.createdAtMs).toISOString().padEnd(25)}${String(c.crawlId).padEnd(7)}${c.name.padEnd(28)}${String(c.pagesDone).padStart(8)}${String(c.frontierSize).padStart(10)}  ${c.settingsHash}\n`);
      }
    }
    return 0;
  } catch (error) {
    return failWith(io, error);
  } finally {
    db?.close();
    await pgStore?.close();
  }
}

/** Default folder of a PostgreSQL store's checkpoint files: `$XDG_DATA_HOME/crawlbench/postgres-checkpoints/HOST-PORT-DB`. */
export function postgresCheckpointFolder(storeUrl: string): string {
  const url = new URL(storeUrl);
  const name = `${url.hostname}-${url.port || '5432'}-${decodeURIComponent(url.pathname.slice(1))}`.replace(/[^\w.-]/g, '_');
  const dataHome = process.env['XDG_DATA_HOME'] || path.join(os.homedir(), '.local', 'share');
  return path.join(dataHome, 'crawlbench', 'postgres-checkpoints', name);
}

import { parseArgs } from 'node:util';
import { CodedError } from '../../shared/types/result';
import type { TrapRow } from '../../shared/types/traps';
import { listTraps, openDatabase } from '../../engine';
import { CrawlService } from '../../app/services/crawl-service';
import { failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';
import { parseStoreArg } from '../store-arg';
import { snapshotToTempFile, type TempSnapshot } from '../store-snapshot';

export const TRAPS_USAGE = `Usage: crawlbench traps --db FILE|--store URL [--crawl ID] [--release PATTERN|ID] [--exclude PATTERN|ID] [--json]

  Lists the crawler traps the trap guard suspected in a crawl (newest crawl unless --crawl): host,
  detector, pattern, URLs held, evidence and examples.
  --release PATTERN|ID   its held URLs go back to pending (a resume fetches them); new matches are crawled
  --exclude PATTERN|ID   its URLs stay held and new matches are held for good (a permanent exclude rule)
  A trap is named by its id or by its pattern exactly as listed. Changing one takes the crawl lease:
  it fails with DB_BUSY while another process crawls the database. --store postgres://… lists the
  traps of a snapshot of a PostgreSQL crawl (releasing or excluding one there is not supported yet).`;

/** The trap `spec` names (an id, or a pattern as listed). @throws CodedError TRAP_NOT_FOUND */
function findTrap(traps: readonly TrapRow[], spec: string): TrapRow {
  const byId = /^\d+$/.test(spec) ? traps.find((trap) => trap.id === Number(spec)) : undefined;
  const trap = byId ?? traps.find((candidate) => candidate.pattern === spec);
  if (!trap) throw new CodedError('TRAP_NOT_FOUND', `No trap ${JSON.stringify(spec)} in this crawl: list them with crawlbench traps --db FILE`);
  return trap;
}

function trapLines(trap: TrapRow): string {
  return [
    `#${trap.id} ${trap.host} ${trap.state} ${trap.detector}: ${trap.template} (${trap.heldCount} held)`,
    `    pattern   ${trap.pattern}`,
    `    evidence  ${trap.evidence.summary}`,
    ...trap.examples.map((example) => `    example   ${example}`),
  ].join('\n');
}

/**
 * `crawlbench traps`: lists a crawl's suspected crawler traps (one JSON line each with `--json`),
 * or releases / excludes one (`--release`, `--exclude`) in the database under the crawl lease.
 * @returns 0; 2 for a bad flag, a missing or foreign database, no such crawl or trap, DB_BUSY
 */
export async function trapsCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { db: { type: 'string' }, store: { type: 'string' }, crawl: { type: 'string' }, release: { type: 'string' }, exclude: { type: 'string' }, json: { type: 'boolean' } } }));
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'traps'));
  }
  if (values.db === undefined && values.store === undefined) return failLine(io, `MISSING_FLAG: --db FILE or --store URL is required (see crawlbench traps --help)`);
  if (values.release !== undefined && values.exclude !== undefined) return failLine(io, `INVALID_FLAG: give --release or --exclude, not both`);
  const change = values.release !== undefined ? { spec: values.release, state: 'released' as const } : values.exclude !== undefined ? { spec: values.exclude, state: 'excluded' as const } : null;
  let db;
  let snapshot: TempSnapshot | null = null;
  try {
    const store = parseStoreArg(values)!;
    let crawlFlag = intFlag('crawl', values.crawl, 1);
    if (store.kind === 'postgres') {
      if (change) {
        throw new CodedError('STORE_UNSUPPORTED', `traps --release and --exclude do not work on a PostgreSQL crawl yet: copy it with crawlbench checkpoints --store URL --crawl ID --to FILE and change the trap there (crawlbench traps --db FILE)`);
      }
      snapshot = await snapshotToTempFile(store.url, crawlFlag);
      crawlFlag = snapshot.crawlIds[0];
    }
    const dbFile = snapshot?.file ?? (store.kind === 'sqlite' ? store.file : '');
    const shown = snapshot?.shownUrl ?? dbFile;
    // Changing a trap writes: a read-write handle; listing only reads.
    const writable = change ? openDatabase(dbFile, { create: false }) : null;
    db = writable ?? openDatabase(dbFile, { readonly: true });
    const crawlId = crawlFlag ?? (db.prepare(`SELECT MAX(id) FROM crawls`).pluck().get() as number | null);
    if (!crawlId) throw new CodedError('CRAWL_NOT_FOUND', `No crawl in ${shown}`);
    if (db.prepare(`SELECT 1 FROM crawls WHERE id = ?`).get(crawlId) === undefined) throw new CodedError('CRAWL_NOT_FOUND', `No crawl ${crawlId} in ${shown}`);
    if (change && writable) {
      const trap = findTrap(listTraps(db, crawlId), change.spec);
      const service = new CrawlService(writable);
      const result = await service.setTrapState(crawlId, trap.id, change.state);
      io.stderr.write(`trap #${trap.id} on ${result.host} ${change.state}${change.state === 'released' ? `: ${result.released} URLs back to pending (crawlbench resume fetches them)` : `: its URLs stay held${result.excludeRuleAdded ? '; its pattern joins the crawl\'s --exclude rules' : ''}`}\n`);
    }
    const traps = listTraps(db, crawlId);
    if (values.json) for (const trap of traps) io.stdout.write(`${JSON.stringify(trap)}\n`);
    else io.stdout.write(traps.length === 0 ? `no traps suspected in crawl ${crawlId}\n` : `${traps.map(trapLines).join('\n')}\n`);
    return 0;
  } catch (error) {
    return failWith(io, error);
  } finally {
    db?.close();
    snapshot?.remove();
  }
}

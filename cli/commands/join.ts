import { parseArgs } from 'node:util';
import { limitHeapGrowth, parseHostOverride } from '../../engine';
import { CodedError } from '../../shared/types/result';
import { parseStoreArg } from '../store-arg';
import { failLine, failWith, intFlag, parseErrorLine, settingFlag, type CommandIo } from '../io';
import { resolverFlags } from './crawl';
import { runSharedCrawl } from './shared-run';

export const JOIN_USAGE = `Usage: crawlbench join --store postgres://USER@HOST:PORT/DB [--crawl ID] [--threads N]
       [--resolve host=ip:port]... [--closed] [--lease-ms MS] [--json]

  Adds this process to a crawl kept in PostgreSQL (started by crawlbench crawl --store …), on this
  machine or another: it claims hosts from the shared frontier and works until the frontier is
  empty and no process has anything in flight. Without --crawl it joins the newest running crawl.
  The crawl's stored settings apply (its --resolve overrides and --closed included); --resolve and
  --closed given here are added for this process, --threads sets this process's fetch slots.
  --lease-ms MS   how long this process may go silent before the others take back its in-flight
                  URLs (default 30000; a killed process's URLs return to pending after it)`;

/**
 * `crawlbench join`: works on a running PostgreSQL crawl until it ends. Prints the same summary as
 * `crawl --json` (with `store` and `processId`).
 * @returns 0; 2 for a bad flag or no running crawl (NO_RUNNING_CRAWL); 3 when the store failed; 130/143 on a signal
 */
export async function joinCommand(argv: string[], io: CommandIo): Promise<number> {
  // This process crawls: heap headroom near the live set (engine/schedule/heap-growth.ts).
  limitHeapGrowth();
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...resolverFlags, store: { type: 'string' }, crawl: { type: 'string' }, threads: { type: 'string' }, 'lease-ms': { type: 'string' }, json: { type: 'boolean' } } }));
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'join'));
  }
  if (!values.store) return failLine(io, 'MISSING_FLAG: --store postgres://USER@HOST:PORT/DB is required (see crawlbench join --help)');
  let storeUrl: string;
  try {
    const storeArg = parseStoreArg({ store: values.store });
    if (storeArg?.kind !== 'postgres') throw new CodedError('INVALID_STORE_URL', `join works on a crawl kept in PostgreSQL (--store postgres://USER@HOST:PORT/DB); ${values.store} names a SQLite file, which one process crawls at a time`);
    storeUrl = storeArg.url;
  } catch (error) {
    return failWith(io, error);
  }
  let crawlId: number | undefined;
  let threads: number | undefined;
  let leaseMs: number | undefined;
  let hostOverrides;
  try {
    crawlId = intFlag('crawl', values.crawl, 1);
    threads = settingFlag('threads', 'threads', values.threads);
    leaseMs = intFlag('lease-ms', values['lease-ms'], 1000, 3_600_000);
    hostOverrides = (values.resolve ?? []).map(parseHostOverride);
  } catch (error) {
    return failWith(io, error);
  }
  return runSharedCrawl(io, storeUrl, { hostOverrides, closedResolver: values.closed ?? false, ...(leaseMs !== undefined ? { leaseMs } : {}), json: values.json ?? false }, (service) =>
    service.join(crawlId ?? null, threads === undefined ? {} : { threads }),
  );
}

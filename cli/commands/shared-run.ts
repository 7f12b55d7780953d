/**
 * What `crawl`, `join` and `resume` do alike on a PostgreSQL store (issue 13): open the store,
 * run this process's part of the shared crawl with a progress line on stderr that names how many
 * processes work on it, stop on SIGINT/SIGTERM, and print the summary line (`--json`: the same
 * fields as a SQLite crawl's, `store` instead of `db`, plus `processId`).
 */
import { openPostgresStore, redactStoreUrl, type PostgresStore } from '../../engine';
import { SharedCrawlService, type SharedCrawlOptions, type SharedRun } from '../../app/services/shared-crawl-service';
import { CodedError } from '../../shared/types/result';
import { EXIT_SIGNAL, failWith, type CommandIo } from '../io';
import { trapStopSignals } from '../signals';
import { housekeepingLine } from './crawl';

/**
 * Runs `begin` (start, join or resume on the service) to the end of this process's part.
 * @returns the command's exit code: 0; 2 for bad input or nothing to join; 3 when the store
 *   failed; 130/143 on a signal
 */
export async function runSharedCrawl(io: CommandIo, storeUrl: string, options: SharedCrawlOptions & { json?: boolean }, begin: (service: SharedCrawlService) => Promise<SharedRun>): Promise<number> {
  let store: PostgresStore;
  try {
    store = await openPostgresStore(storeUrl);
  } catch (error) {
    return failWith(io, error);
  }
  const startedAt = performance.now();
  let service: SharedCrawlService | null = null;
  const processes = () => service?.processes().length ?? 0;
  service = new SharedCrawlService(store, options, { onHousekeeping: (stats) => io.stderr.write(housekeepingLine(stats).replace(/\n$/, `  processes ${processes()}\n`)) });
  const signals = trapStopSignals(io, () => service?.stop());
  try {
    const run = await begin(service);
    io.stderr.write(`crawl ${run.crawlId} in ${redactStoreUrl(storeUrl)}: this process is ${run.processId}\n`);
    const summary = await run.done;
    const seconds = Math.round((performance.now() - startedAt) / 10) / 100;
    io.stderr.write(`done: fetched ${summary.fetched}, errors ${summary.errors}, blocked by robots.txt ${summary.blocked}, held by suspected traps ${summary.held}, frontier left ${summary.queued}, ${seconds} s (the crawl's counts, all processes)\n`);
    if (options.json) {
      io.stdout.write(
        `${JSON.stringify({ crawlId: run.crawlId, pagesFetched: summary.fetched, errors: summary.errors, blocked: summary.blocked, held: summary.held, frontierLeft: summary.queued, seconds, store: redactStoreUrl(storeUrl), processId: run.processId, status: summary.status })}\n`,
      );
    }
    return signals.received ? EXIT_SIGNAL[signals.received] : 0;
  } catch (error) {
    return failWith(io, error instanceof CodedError ? error : new Error(`crawl failed: ${(error as Error).message}`));
  } finally {
    signals.dispose();
    await store.close().catch(() => undefined);
  }
}

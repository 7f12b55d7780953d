import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createParentFolder, limitHeapGrowth, parseHostOverride } from '../../engine';
import { startBrowserServer } from '../../server/browser-server';
import { createAppServices } from '../../app/services/app-services';
import { appRoot } from '../../app/services/resources';
import { failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';
import { resolverFlags } from './crawl';
import { parseStoreArg } from '../store-arg';
import { snapshotToTempFile, type TempSnapshot } from '../store-snapshot';

/** `--port N --token TOKEN` restarts the server at the address an open page already has, so that page reconnects by itself. */
export const SERVE_USAGE = 'Usage: crawlbench serve [--db FILE|--store URL [--crawl ID]] [--port N] [--token TOKEN] [--resolve host=ip:port]... [--closed] [--chromium PATH] [--renderer DIR]';

/** Default database of the workbench: $XDG_DATA_HOME/crawlbench/crawlbench.db (~/.local/share/…). */
export function defaultDatabasePath(): string {
  const dataHome = process.env['XDG_DATA_HOME'] || path.join(os.homedir(), '.local', 'share');
  return path.join(dataHome, 'crawlbench', 'crawlbench.db');
}

/**
 * `crawlbench serve`: browser mode. Serves the built renderer and the IPC contract over a
 * WebSocket on 127.0.0.1, prints the URL to open (`http://127.0.0.1:PORT/t/TOKEN/`, the
 * per-launch token in its path), and runs until SIGINT/SIGTERM, stopping crawls cleanly (status
 * `stopped`, resumable; the crawl lease released).
 * `--store postgres://…` (issue 13) serves a snapshot of the store's crawls (or of `--crawl ID`)
 * copied at start into a temporary SQLite file (engine copyCrawlsToSqlite), which the startup line
 * says: nothing done in the page reaches PostgreSQL, and a restart takes a fresh snapshot; the copy
 * is removed on exit. `--store FILE` is `--db FILE`.
 * @returns 0 after a signal; 2 for a bad flag or a database it cannot open (NOT_A_CRAWL_DB, …)
 */
export async function serveCommand(argv: string[], io: CommandIo): Promise<number> {
  // This process crawls: heap headroom near the live set (engine/schedule/heap-growth.ts).
  limitHeapGrowth();
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...resolverFlags, db: { type: 'string' }, store: { type: 'string' }, crawl: { type: 'string' }, port: { type: 'string' }, renderer: { type: 'string' }, token: { type: 'string' }, chromium: { type: 'string' } } }));
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'serve'));
  }
  let services;
  let port: number | undefined;
  let hostOverrides;
  let snapshot: TempSnapshot | null = null;
  try {
    port = intFlag('port', values.port, 0, 65_535);
    hostOverrides = (values.resolve ?? []).map(parseHostOverride);
    const store = parseStoreArg(values);
    if (values.crawl !== undefined && store?.kind !== 'postgres') return failLine(io, 'INVALID_FLAG: --crawl ID picks the crawl of a PostgreSQL store (--store postgres://…) to serve');
    if (store?.kind === 'postgres') snapshot = await snapshotToTempFile(store.url, intFlag('crawl', values.crawl, 1) ?? 'all');
    const dbPath = snapshot?.file ?? (store?.kind === 'sqlite' ? store.file : defaultDatabasePath());
    if (!store) createParentFolder(dbPath);
    services = createAppServices({
      dbPath,
      mode: 'browser',
      version: process.env['npm_package_version'] ?? '0.1.0',
      hostOverrides,
      closedResolver: values.closed ?? false,
      // The Chromium crawls render JavaScript with when their settings name none.
      ...(values.chromium ? { chromiumPath: values.chromium } : {}),
    });
  } catch (error) {
    snapshot?.remove();
    return failWith(io, error);
  }
  const rendererDir = values.renderer ?? path.join(appRoot(), 'out', 'renderer');
  let server;
  try {
    server = await startBrowserServer({ services, rendererDir, ...(port !== undefined ? { port } : {}), ...(values.token ? { token: values.token } : {}) });
  } catch (error) {
    await services.close();
    snapshot?.remove();
    return failLine(io, (error as Error).message);
  }
  if (snapshot) {
    const crawls = snapshot.crawlIds.length === 0 ? 'no crawls' : `crawl${snapshot.crawlIds.length === 1 ? '' : 's'} ${snapshot.crawlIds.join(', ')}`;
    io.stdout.write(
      `Crawlbench browser mode, serving a snapshot of ${snapshot.shownUrl} (${crawls}) taken at ${new Date(snapshot.takenAtMs).toISOString()}, read-only towards PostgreSQL (nothing done here reaches it; restart to refresh): open ${server.url}\n`,
    );
  } else io.stdout.write(`Crawlbench browser mode: open ${server.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  await services.close();
  snapshot?.remove();
  return 0;
}

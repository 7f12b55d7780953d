/**
 * Crawl benchmark (issue 4): the Python docs mirror on loopback nginx crawled by Crawlbench's CLI,
 * by Crawlee's CheerioCrawler (same concurrency, same site), by a fetch-only floor (plain undici
 * GETs of the URL list Crawlbench fetched) and by fetch+work (those GETs in 2 threads, each answer
 * through the crawl worker's page work, processFetch, with no scheduling or storage:
 * contenders/fetch-parse.ts). Each runs as its own process, as plain JavaScript
 * (Crawlbench's CLI bundle; the contenders bundled the same way), so no contender pays for a
 * TypeScript loader; peak RSS is that process's VmHWM. Politeness is off for all (loopback
 * server). Targets: Crawlbench at most 2x the floor's time, at least 15x Crawlee's pages/s, peak
 * RSS at most 300 MB (issue 15 raised the Crawlee ratio to 25x). Crawlbench runs three times: keeping bodies (the default), with
 * --no-store-bodies, and with --warc, each with its database (and WARC) size per 1,000 pages: the
 * cost of stored bodies and of the live WARC.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { build } from 'esbuild';
import { cliBundle } from '../scripts/cli-bundle.mjs';
import { startTestWeb } from '../testweb';
import { measureNode, type RunMeasurement } from './measure';

const CONCURRENCY = 8;
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function line(name: string, pages: number, run: RunMeasurement): string {
  return `  ${name.padEnd(12)} ${String(pages).padStart(5)} pages  ${run.seconds.toFixed(2).padStart(6)} s  ${(pages / run.seconds).toFixed(1).padStart(7)} pages/s  peak RSS ${run.peakRssMb.toFixed(0).padStart(4)} MB`;
}

/** A crawl database's size (file and WAL) per 1,000 pages, in words. */
function perThousand(db: string, pages: number): string {
  const bytes = [db, `${db}-wal`].reduce((sum, file) => sum + (fs.existsSync(file) ? fs.statSync(file).size : 0), 0);
  return `${((bytes / Math.max(pages, 1)) * 1000 / 1024 / 1024).toFixed(2)} MB per 1,000 pages`;
}

/** Bundles a contender to plain JavaScript under out/bench/ (inside the repository, so its packages resolve). */
async function contender(name: string): Promise<string> {
  const outfile = path.join(root, 'out', 'bench', `${name}.mjs`);
  await build({ entryPoints: [path.join(root, 'bench', 'contenders', `${name}.ts`)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
  return outfile;
}

export async function runCrawlBench(): Promise<void> {
  // Built before any clock starts: the CLI bundle (normally built on first use) and the contenders.
  await cliBundle();
  const [fetchOnly, fetchParse, crawleeScript] = [await contender('fetch-only'), await contender('fetch-parse'), await contender('crawlee')];
  const web = await startTestWeb();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-bench-'));
  try {
    const crawl = (db: string, extra: string[]) =>
      measureNode([
        path.join(root, 'bin', 'crawlbench.mjs'),
        'crawl',
        'http://docs.python.test/',
        '--db',
        db,
        ...web.resolveFlags,
        '--closed',
        '--json',
        '--threads',
        String(CONCURRENCY),
        '--per-host',
        String(CONCURRENCY),
        '--delay-factor',
        '0',
        ...extra,
      ]);
    // The default crawl keeps every body (issue 14 part 1); the same crawl without them shows what keeping costs.
    const db = path.join(dir, 'bench.db');
    const ours = await crawl(db, []);
    const oursPages = Number(ours.report['pagesFetched']);
    const plainDb = path.join(dir, 'plain.db');
    const plain = await crawl(plainDb, ['--no-store-bodies']);
    const plainPages = Number(plain.report['pagesFetched']);
    const warcDb = path.join(dir, 'warc.db');
    const warcFile = path.join(dir, 'bench.warc.gz');
    const archived = await crawl(warcDb, ['--warc', warcFile]);
    const archivedPages = Number(archived.report['pagesFetched']);
    // JavaScript rendering (issue 14 part 3): what --render auto costs (Chromium's own memory is not in the peak RSS).
    const renderDb = path.join(dir, 'render.db');
    const rendered = await crawl(renderDb, ['--render', 'auto']);

    const reader = new BetterSqlite3(db, { readonly: true });
    const urls = (reader.prepare(`SELECT url FROM urls WHERE state IN ('done', 'error') ORDER BY id`).pluck().all() as string[]).map((u) =>
      u.replace('//docs.python.test/', `//127.0.0.1:${web.nginx.port}/`),
    );
    reader.close();
    const listFile = path.join(dir, 'urls.txt');
    fs.writeFileSync(listFile, urls.join('\n'));
    const floor = await measureNode([fetchOnly, listFile, String(CONCURRENCY)]);
    const pageWork = await measureNode([fetchParse, listFile, String(CONCURRENCY), '-', 'page-work']);
    const crawlee = await measureNode([crawleeScript, `http://127.0.0.1:${web.nginx.port}/`, String(CONCURRENCY)], {
      CRAWLEE_STORAGE_DIR: path.join(dir, 'crawlee-storage'),
    });
    const crawleePages = Number(crawlee.report['pages']);

    console.log(`crawl benchmark: Python docs mirror (${urls.length} URLs) on loopback nginx; concurrency ${CONCURRENCY}; politeness OFF for every contender (loopback server)`);
    console.log(line('crawlbench', oursPages, ours) + `  database ${perThousand(db, oursPages)} (bodies kept)`);
    console.log(line('  no bodies', plainPages, plain) + `  database ${perThousand(plainDb, plainPages)} (--no-store-bodies)`);
    console.log(line('  + WARC', archivedPages, archived) + `  database ${perThousand(warcDb, archivedPages)}, WARC ${((fs.statSync(warcFile).size / Math.max(archivedPages, 1)) * 1000 / 1024 / 1024).toFixed(2)} MB per 1,000 pages (--warc)`);
    const renders = new BetterSqlite3(renderDb, { readonly: true });
    const renderStats = renders.prepare(`SELECT count(*) AS pages, coalesce(round(avg(render_ms)), 0) AS ms FROM page_renders`).get() as { pages: number; ms: number };
    renders.close();
    console.log(line('  rendered', Number(rendered.report['pagesFetched']), rendered) + `  ${renderStats.pages} pages rendered, ${renderStats.ms} ms each on average (--render auto; Chromium's memory is not in the peak RSS)`);
    console.log(line('crawlee', crawleePages, crawlee));
    console.log(line('fetch-only', Number(floor.report['pages']), floor));
    console.log(line('fetch+work', Number(pageWork.report['pages']), pageWork) + `  (the crawl worker's page work on each answer, no scheduling or storage)`);
    const oursRate = oursPages / ours.seconds;
    const crawleeRate = crawleePages / crawlee.seconds;
    console.log(`  ratios       crawlbench/fetch-only time ${(ours.seconds / floor.seconds).toFixed(2)}x (target <= 2x); crawlbench/crawlee pages/s ${(oursRate / crawleeRate).toFixed(2)}x (target >= 25x, issue 15; issue 4 asked 15x); peak RSS ${ours.peakRssMb.toFixed(0)} MB (target <= 300 MB)`);
    console.log(`               crawlbench/fetch+work time ${(ours.seconds / pageWork.seconds).toFixed(2)}x (no target)`);
    console.log('  note         each contender is a separate process running plain JavaScript, timed from spawn to exit, Node start-up included');
  } finally {
    await web.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await runCrawlBench();

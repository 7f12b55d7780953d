/**
 * Synthetic-site benchmark (issue 15): the synthetic web (testweb/synthetic-site.ts, served from
 * its own process so its CPU is nobody's) crawled from h0's `/`, politeness off, concurrency 16, by
 * Crawlbench's CLI, wget -r (Debian's, one connection, through http_proxy), Crawlee's
 * CheerioCrawler (through the server as a proxy), the fetch-only floor, the fetch+parse floor and
 * fetch+work, the fetch+parse floor doing the crawl worker's page work instead of href extraction
 * (all three over the list of every URL a complete crawl requests; contenders/fetch-parse.ts). Each contender is its own process
 * running plain JavaScript (or wget's C), timed from spawn to exit; CPU is user + system of the
 * child and all its threads; peak RSS is its VmHWM. Then Crawlbench alone at 100,000 pages
 * (500 hosts × 200 pages): pages/s per 10,000 pages, peak RSS, CPU per thread, database bytes per
 * page and the time of each export, each printed against issue 15's targets.
 *
 * Flags: --hosts N --pages N (the comparison's size, default 200 × 101 = 20,200 pages),
 * --big-hosts N --big-pages N (the lone run's, default 500 × 200), --skip-100k, --skip-crawlee,
 * --concurrency N (default 16).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { cliBundle } from '../scripts/cli-bundle.mjs';
import type { SyntheticServerAnswer, SyntheticServerStats } from '../testweb/synthetic-server';
import { checkSyntheticShape, SYNTHETIC_DOMAIN, syntheticHost, syntheticUrls, type SyntheticExpectedCounts, type SyntheticShape } from '../testweb/synthetic-site';
import { measureCommand, measureNode, type RunMeasurement, type ThreadCpu } from './measure';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cliScript = path.join(root, 'bin', 'crawlbench.mjs');
const EXPORTS = ['pages', 'frontier', 'url-groups', 'content-groups', 'errors'] as const;

/** Issue 15's targets ("Done means"). */
const TARGETS = {
  floorRatio: 2,
  cpuSecondsPer1000Pages: 2,
  lastToFirstRate: 0.85,
  peakRssMb: 400,
  bytesPerPage: 8 * 1024,
  exportSeconds: 60,
};

/** Bundles a script to plain JavaScript under out/bench/ (inside the repository, so its packages resolve). */
export async function bundle(entry: string, name: string): Promise<string> {
  const outfile = path.join(root, 'out', 'bench', `${name}.mjs`);
  await build({ entryPoints: [path.join(root, entry)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
  return outfile;
}

export interface RunningServer {
  port: number;
  expected: SyntheticExpectedCounts;
  stats(): Promise<SyntheticServerStats>;
  reset(): Promise<void>;
  stop(): void;
}

/** Forks the synthetic server (bundled) and waits for its port line. */
export async function startServer(script: string, shape: SyntheticShape): Promise<RunningServer> {
  const child = fork(script, ['--hosts', String(shape.hosts), '--pages', String(shape.pagesPerHost)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: [] });
  const first = await new Promise<{ port: number; expected: SyntheticExpectedCounts }>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0] as string) as { port: number; expected: SyntheticExpectedCounts });
    });
    child.once('exit', (code) => reject(new Error(`synthetic server exited ${code} before listening`)));
  });
  const ask = <T extends SyntheticServerAnswer['type']>(type: 'stats' | 'reset', answer: T) =>
    new Promise<Extract<SyntheticServerAnswer, { type: T }>>((resolve) => {
      const onMessage = (message: SyntheticServerAnswer) => {
        if (message.type !== answer) return;
        child.off('message', onMessage);
        resolve(message as Extract<SyntheticServerAnswer, { type: T }>);
      };
      child.on('message', onMessage);
      child.send({ type });
    });
  return {
    port: first.port,
    expected: first.expected,
    stats: async () => (await ask('stats', 'stats')).stats,
    reset: async () => void (await ask('reset', 'reset-done')),
    stop: () => void child.kill('SIGTERM'),
  };
}

/** One contender's result: what it cost and what the server saw it fetch. */
interface ContenderResult {
  name: string;
  run: RunMeasurement;
  served: SyntheticServerStats;
}

function resultLine(result: ContenderResult): string {
  const { run, served } = result;
  const pages = served.distinctPages;
  return [
    `  ${result.name.padEnd(12)}`,
    `${String(pages).padStart(7)} pages`,
    `${String(served.requests).padStart(7)} requests`,
    `${run.seconds.toFixed(2).padStart(7)} s`,
    `${(pages / run.seconds).toFixed(0).padStart(6)} pages/s`,
    `${run.cpuSeconds.toFixed(1).padStart(6)} CPU-s`,
    `${((run.cpuSeconds / pages) * 1000).toFixed(2).padStart(5)} CPU-s/1k pages`,
    `peak RSS ${run.peakRssMb.toFixed(0).padStart(4)} MB`,
  ].join('  ');
}

function verdict(ok: boolean): string {
  return ok ? 'met' : 'NOT met';
}

/** The `--resolve` flag mapping every synthetic host to the server: one wildcard (closed mode refuses the rest). */
export function resolveFlags(port: number): string[] {
  return ['--resolve', `*.${SYNTHETIC_DOMAIN}=127.0.0.1:${port}`];
}

export function crawlArgs(db: string, shape: SyntheticShape, port: number, concurrency: number): string[] {
  return [
    cliScript,
    'crawl',
    `http://${syntheticHost(0)}/`,
    '--db',
    db,
    ...resolveFlags(port),
    '--closed',
    '--json',
    '--scope',
    'domain',
    '--threads',
    String(concurrency),
    '--per-host',
    String(concurrency),
    '--delay-factor',
    '0',
    // Issue 15's targets (time, CPU, 8 KB a page) are for a crawl that keeps no bodies; the cost of
    // keeping them is measured by the crawl bench (bench/crawl.ts) on the docs mirror.
    '--no-store-bodies',
  ];
}

function wgetInstalled(): boolean {
  return (process.env['PATH'] ?? '').split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, 'wget')));
}

/** Runs one contender on a freshly reset server and prints its line as soon as it is done (a full run takes many minutes). */
async function measured(server: RunningServer, name: string, run: () => Promise<RunMeasurement>): Promise<ContenderResult> {
  await server.reset();
  const measurement = await run();
  const result = { name, run: measurement, served: await server.stats() };
  console.log(resultLine(result));
  return result;
}

/** Fetched-page counts over time from the CLI's progress lines (`fetched N  frontier …`), in ms since spawn. */
function progressRecorder(): { samples: { ms: number; fetched: number }[]; onLine(line: string, ms: number): void } {
  const samples: { ms: number; fetched: number }[] = [];
  return {
    samples,
    onLine(line, ms) {
      const match = /^fetched (\d+) /.exec(line);
      if (match) samples.push({ ms, fetched: Number(match[1]) });
    },
  };
}

/**
 * Pages/s over each whole block of `block` pages, from progress samples: the time a block ends is
 * interpolated between the samples either side of it. The first block starts at the first sample
 * (Node start-up and the seed's robots.txt are not a block's work).
 */
export function ratesPerBlock(samples: { ms: number; fetched: number }[], block: number): number[] {
  const first = samples[0];
  if (!first) return [];
  const timeAt = (count: number): number | null => {
    for (let i = 1; i < samples.length; i += 1) {
      const [a, b] = [samples[i - 1], samples[i]] as [{ ms: number; fetched: number }, { ms: number; fetched: number }];
      if (b.fetched >= count && a.fetched < count) return a.ms + ((count - a.fetched) / (b.fetched - a.fetched)) * (b.ms - a.ms);
    }
    return null;
  };
  const rates: number[] = [];
  let start = { ms: first.ms, fetched: first.fetched };
  for (let end = block; ; end += block) {
    const endMs = timeAt(end);
    if (endMs === null) break;
    rates.push(((end - start.fetched) / (endMs - start.ms)) * 1000);
    start = { ms: endMs, fetched: end };
  }
  return rates;
}

/**
 * CPU per thread: the main thread, each thread with at least 2% of the total, the rest summed.
 * Node names every thread `node` (Node 20), so threads are told apart by tid; in a Crawlbench crawl
 * the busiest non-main threads are its worker_threads, the next four V8's platform threads.
 */
function threadLines(threads: ThreadCpu[]): string[] {
  const total = threads.reduce((sum, t) => sum + t.cpuSeconds, 0);
  const sorted = [...threads].sort((a, b) => b.cpuSeconds - a.cpuSeconds);
  const main = sorted.find((t) => t.main);
  const named = sorted.filter((t) => !t.main && t.cpuSeconds >= total * 0.02);
  const rest = sorted.filter((t) => !t.main && t.cpuSeconds < total * 0.02);
  return [
    `    main thread (${main?.name ?? '?'}) ${main?.cpuSeconds.toFixed(1) ?? '?'} CPU-s of ${total.toFixed(1)}`,
    ...named.map((t) => `    thread ${t.tid} (${t.name}) ${t.cpuSeconds.toFixed(1)} CPU-s`),
    `    ${rest.length} other threads ${rest.reduce((sum, t) => sum + t.cpuSeconds, 0).toFixed(1)} CPU-s (sampled each second; the last sample before exit)`,
  ];
}

async function compareContenders(shape: SyntheticShape, concurrency: number, scripts: Record<'server' | 'fetchOnly' | 'fetchParse' | 'crawlee', string>, dir: string, skipCrawlee: boolean): Promise<void> {
  const server = await startServer(scripts.server, shape);
  try {
    const { expected } = server;
    const proxy = `http://127.0.0.1:${server.port}`;
    console.log(`synthetic benchmark: ${shape.hosts} hosts × ${shape.pagesPerHost} pages on one loopback server (its own process), seed http://${syntheticHost(0)}/, concurrency ${concurrency}, politeness OFF`);
    console.log(`  expected     ${expected.pages} pages + ${expected.redirects} redirects + ${expected.notFound} 404s + ${expected.robotsTxt} robots.txt = ${expected.requests} requests; load average before: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const results: ContenderResult[] = [];
    const skipped: string[] = [];

    const db = path.join(dir, 'synthetic.db');
    const ours = await measured(server, 'crawlbench', () => measureNode(crawlArgs(db, shape, server.port, concurrency)));
    results.push(ours);

    let wget: ContenderResult | null = null;
    if (wgetInstalled()) {
      const wgetDir = path.join(dir, 'wget');
      fs.mkdirSync(wgetDir);
      // Exit 8: the server answered some requests with an error (the intended 404s).
      wget = await measured(server, 'wget -r', () =>
        measureCommand('wget', ['-r', '-l', 'inf', '-H', '-D', 'synthetic.test', '-e', 'robots=on', '--delete-after', '-nd', '-q', '-P', wgetDir, `http://${syntheticHost(0)}/`], {
          env: { http_proxy: proxy, no_proxy: '' },
          okExitCodes: [0, 8],
          jsonReport: false,
        }),
      );
      results.push(wget);
    } else {
      skipped.push('  wget -r      skipped: wget is not installed (apt-get install wget)');
    }

    if (skipCrawlee) skipped.push('  crawlee      skipped (--skip-crawlee)');
    else {
      results.push(
        await measured(server, 'crawlee', () =>
          measureNode([scripts.crawlee, `http://${syntheticHost(0)}/`, String(concurrency), 'same-domain', proxy], { CRAWLEE_STORAGE_DIR: path.join(dir, 'crawlee-storage') }),
        ),
      );
    }

    const listFile = path.join(dir, 'urls.txt');
    fs.writeFileSync(listFile, syntheticUrls(shape).join('\n'));
    const connect = `127.0.0.1:${server.port}`;
    results.push(await measured(server, 'fetch-only', () => measureNode([scripts.fetchOnly, listFile, String(concurrency), connect])));
    const fetchParse = await measured(server, 'fetch+parse', () => measureNode([scripts.fetchParse, listFile, String(concurrency), connect]));
    results.push(fetchParse);
    // The crawl worker's own page work on the same fetches: what the crawl costs past it is scheduling and storage.
    const pageWork = await measured(server, 'fetch+work', () => measureNode([scripts.fetchParse, listFile, String(concurrency), connect, 'page-work']));
    results.push(pageWork);

    for (const line of skipped) console.log(line);
    for (const result of results) {
      if (result.served.distinctPages !== expected.pages) console.log(`  warning      ${result.name} fetched ${result.served.distinctPages} of the ${expected.pages} pages`);
    }
    const floorRatio = ours.run.seconds / fetchParse.run.seconds;
    console.log(`  ratios       crawlbench/fetch+parse floor time ${floorRatio.toFixed(2)}x (target <= ${TARGETS.floorRatio}x: ${verdict(floorRatio <= TARGETS.floorRatio)})`);
    const workRatio = ours.run.seconds / pageWork.run.seconds;
    console.log(`               crawlbench/fetch+work time ${workRatio.toFixed(2)}x, CPU ${(ours.run.cpuSeconds / pageWork.run.cpuSeconds).toFixed(2)}x (no target: fetch+work does the crawl worker's page work, processFetch, and no scheduling or storage)`);
    if (wget) {
      const wgetRatio = ours.run.seconds / wget.run.seconds;
      console.log(`               crawlbench/wget time ${wgetRatio.toFixed(2)}x (target < 1x, faster than wget: ${verdict(wgetRatio < 1)})`);
    }
    console.log(`  note         pages = distinct pages the server answered 200 during that contender's run; CPU = user+sys of the process and its threads (reaped-children counters); load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    server.stop();
  }
}

async function crawlAlone(shape: SyntheticShape, concurrency: number, serverScript: string, dir: string): Promise<void> {
  const server = await startServer(serverScript, shape);
  try {
    console.log(`synthetic benchmark, Crawlbench alone: ${shape.hosts} hosts × ${shape.pagesPerHost} pages (${server.expected.pages} pages, ${server.expected.requests} requests), concurrency ${concurrency}, politeness OFF; load average before: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const db = path.join(dir, 'big.db');
    const progress = progressRecorder();
    const result = await measured(server, 'crawlbench', () => measureNode(crawlArgs(db, shape, server.port, concurrency), {}, { onStderrLine: progress.onLine, sampleThreads: true }));
    const pages = result.served.distinctPages;
    const rates = ratesPerBlock(progress.samples, 10_000);
    console.log(`  pages/s per 10,000 fetched: ${rates.map((r) => r.toFixed(0)).join(' ')}`);
    const [firstRate, lastRate] = [rates[0], rates.at(-1)];
    if (rates.length < 2) console.log('  last/first 10,000 pages/s  not measured: fewer than two whole blocks of 10,000 pages');
    else if (firstRate !== undefined && lastRate !== undefined) {
      const ratio = lastRate / firstRate;
      console.log(`  last/first 10,000 pages/s  ${(ratio * 100).toFixed(0)}% (target >= ${TARGETS.lastToFirstRate * 100}%: ${verdict(ratio >= TARGETS.lastToFirstRate)})`);
    }
    const cpuPer1000 = (result.run.cpuSeconds / pages) * 1000;
    console.log(`  CPU per 1,000 pages        ${cpuPer1000.toFixed(2)} s (target <= ${TARGETS.cpuSecondsPer1000Pages} s: ${verdict(cpuPer1000 <= TARGETS.cpuSecondsPer1000Pages)})`);
    console.log(`  peak RSS                   ${result.run.peakRssMb.toFixed(0)} MB (target <= ${TARGETS.peakRssMb} MB: ${verdict(result.run.peakRssMb <= TARGETS.peakRssMb)})`);
    console.log('  CPU per thread:');
    for (const line of threadLines(result.run.threads)) console.log(line);
    const dbBytes = [db, `${db}-wal`].reduce((sum, file) => sum + (fs.existsSync(file) ? fs.statSync(file).size : 0), 0);
    const perPage = dbBytes / pages;
    console.log(`  database                   ${(dbBytes / 1024 / 1024).toFixed(0)} MB, ${(perPage / 1024).toFixed(1)} KB a page (target <= ${TARGETS.bytesPerPage / 1024} KB: ${verdict(perPage <= TARGETS.bytesPerPage)})`);
    for (const what of EXPORTS) {
      const out = path.join(dir, `export-${what}.jsonl`);
      const run = await measureNode([cliScript, 'export', '--db', db, '--what', what, '--out', out], {}, { jsonReport: false });
      const bytes = fs.statSync(out).size;
      fs.rmSync(out, { force: true });
      console.log(`  export ${what.padEnd(15)} ${run.seconds.toFixed(1).padStart(6)} s, ${(bytes / 1024 / 1024).toFixed(1)} MB (target < ${TARGETS.exportSeconds} s: ${verdict(run.seconds < TARGETS.exportSeconds)})`);
    }
    console.log(`  note         load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    server.stop();
  }
}

function wholeFlag(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^[1-9]\d*$/.test(text)) throw new RangeError(`INVALID_FLAG: --${name} must be a whole number of at least 1, got "${text}"`);
  return Number(text);
}

/** `npm run bench -- synthetic [flags]` (flags in the file comment). */
export async function runSyntheticBench(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      hosts: { type: 'string' },
      pages: { type: 'string' },
      'big-hosts': { type: 'string' },
      'big-pages': { type: 'string' },
      concurrency: { type: 'string' },
      'skip-100k': { type: 'boolean' },
      'skip-crawlee': { type: 'boolean' },
    },
  });
  const shape = checkSyntheticShape({ hosts: wholeFlag('hosts', values.hosts, 200), pagesPerHost: wholeFlag('pages', values.pages, 101) });
  const bigShape = checkSyntheticShape({ hosts: wholeFlag('big-hosts', values['big-hosts'], 500), pagesPerHost: wholeFlag('big-pages', values['big-pages'], 200) });
  const concurrency = wholeFlag('concurrency', values.concurrency, 16);
  // Built before any clock starts: the CLI bundle (normally built on first use), the server and the contenders.
  await cliBundle();
  const scripts = {
    server: await bundle('testweb/synthetic-server.ts', 'synthetic-server'),
    fetchOnly: await bundle('bench/contenders/fetch-only.ts', 'fetch-only'),
    fetchParse: await bundle('bench/contenders/fetch-parse.ts', 'fetch-parse'),
    crawlee: await bundle('bench/contenders/crawlee.ts', 'crawlee'),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-synthetic-'));
  try {
    await compareContenders(shape, concurrency, scripts, dir, values['skip-crawlee'] ?? false);
    if (values['skip-100k']) console.log('synthetic benchmark, Crawlbench alone: skipped (--skip-100k)');
    else await crawlAlone(bigShape, concurrency, scripts.server, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await runSyntheticBench(process.argv.slice(2));

/**
 * Scale-out benchmark (issue 13): the synthetic site of `npm run bench -- synthetic` (testweb/
 * synthetic-site.ts, default 200 hosts × 101 pages = 20,200 pages, served from its own process)
 * crawled, politeness off, by 1, 2 and 4 `crawlbench` processes sharing one crawl in PostgreSQL
 * (one `crawl --store`, the rest `join`), and by one process on SQLite; each process has the same
 * fetch slots (--threads, default 16). Prints pages/s of each (distinct pages the server answered,
 * over the wall time from the first spawn to the last exit) and the ratios against 1 process on
 * PostgreSQL and against SQLite. Then the PostgreSQL frontier's claim rate with 1,000,000 pending
 * URLs over 500 hosts (bench/postgres-frontier.ts: claims and commits, one process and two).
 *
 * PostgreSQL is a throwaway cluster (testweb/postgres.ts) with durability off (fsync,
 * synchronous_commit and full_page_writes off), as a benchmark's cluster; every run gets its own
 * database. Flags: --hosts N --pages N --threads N --skip-claims.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cliBundle } from '../scripts/cli-bundle.mjs';
import { postgresUnavailableReason, startPostgres, type PostgresCluster } from '../testweb/postgres';
import { checkSyntheticShape, syntheticHost, type SyntheticShape } from '../testweb/synthetic-site';
import { runPostgresFrontierBench } from './postgres-frontier';
import { bundle, resolveFlags, startServer, type RunningServer } from './synthetic';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cliScript = path.join(root, 'bin', 'crawlbench.mjs');

/** The flags every process of a run gets: the synthetic site's scope, politeness off, `threads` fetch slots. */
function crawlFlags(port: number, threads: number): string[] {
  return [...resolveFlags(port), '--closed', '--threads', String(threads)];
}

/** Runs `crawlbench args…` to its end. @returns its exit code and the crawl id it announced */
function runCli(args: string[], onStart?: (crawlId: number) => void): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliScript, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let announced = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = announced ? null : /crawl (\d+) in /.exec(stderr);
      if (match) {
        announced = true;
        onStart?.(Number(match[1]));
      }
    });
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

interface ScaleResult {
  name: string;
  seconds: number;
  pages: number;
}

function line(result: ScaleResult, base?: ScaleResult, sqlite?: ScaleResult): string {
  const rate = result.pages / result.seconds;
  const parts = [`  ${result.name.padEnd(22)}`, `${String(result.pages).padStart(7)} pages`, `${result.seconds.toFixed(2).padStart(7)} s`, `${rate.toFixed(0).padStart(6)} pages/s`];
  if (base) parts.push(`${(rate / (base.pages / base.seconds)).toFixed(2)}x of 1 process on PostgreSQL`);
  if (sqlite) parts.push(`${(rate / (sqlite.pages / sqlite.seconds)).toFixed(2)}x of SQLite`);
  return parts.join('  ');
}

/** A fresh database `name` on the cluster. @returns its store URL */
async function freshDatabase(cluster: PostgresCluster, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.url.replace(/\/[^/]*$/, `/${name}`);
}

/** `processes` crawlbench processes on one PostgreSQL crawl: `crawl` first, `join`s once it announced its crawl id. */
async function sharedRun(server: RunningServer, store: string, processes: number, threads: number): Promise<ScaleResult> {
  await server.reset();
  const started = performance.now();
  const joins: Promise<{ code: number | null; stderr: string }>[] = [];
  const first = runCli(['crawl', `http://${syntheticHost(0)}/`, '--store', store, '--scope', 'domain', '--delay-factor', '0', '--per-host', String(threads), ...crawlFlags(server.port, threads)], (crawlId) => {
    for (let i = 1; i < processes; i += 1) joins.push(runCli(['join', '--store', store, '--crawl', String(crawlId), ...crawlFlags(server.port, threads)]));
  });
  const firstEnd = await first;
  const ends = [firstEnd, ...(await Promise.all(joins))];
  const seconds = (performance.now() - started) / 1000;
  for (const end of ends) if (end.code !== 0) throw new Error(`a process exited ${end.code}: ${end.stderr.slice(-2000)}`);
  return { name: `PostgreSQL, ${processes} process${processes === 1 ? '' : 'es'}`, seconds, pages: (await server.stats()).distinctPages };
}

async function sqliteRun(server: RunningServer, dir: string, threads: number): Promise<ScaleResult> {
  await server.reset();
  const started = performance.now();
  const end = await runCli(['crawl', `http://${syntheticHost(0)}/`, '--db', path.join(dir, 'scale.db'), '--scope', 'domain', '--delay-factor', '0', '--per-host', String(threads), ...crawlFlags(server.port, threads)]);
  if (end.code !== 0) throw new Error(`the SQLite crawl exited ${end.code}: ${end.stderr.slice(-2000)}`);
  return { name: 'SQLite, 1 process', seconds: (performance.now() - started) / 1000, pages: (await server.stats()).distinctPages };
}

/** `npm run bench -- scale [flags]` (flags in the file comment). */
export async function runScaleBench(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { hosts: { type: 'string' }, pages: { type: 'string' }, threads: { type: 'string' }, 'skip-claims': { type: 'boolean' } } });
  const unavailable = postgresUnavailableReason();
  if (unavailable) {
    console.log(`scale benchmark skipped: ${unavailable}`);
    return;
  }
  const whole = (text: string | undefined, fallback: number) => (text === undefined ? fallback : Number(text));
  const shape: SyntheticShape = checkSyntheticShape({ hosts: whole(values.hosts, 200), pagesPerHost: whole(values.pages, 101) });
  const threads = whole(values.threads, 16);
  await cliBundle();
  const serverScript = await bundle('testweb/synthetic-server.ts', 'synthetic-server');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-scale-'));
  const cluster = await startPostgres({ fast: true, maxConnections: 200 });
  const server = await startServer(serverScript, shape);
  try {
    console.log(`scale benchmark: ${shape.hosts} hosts × ${shape.pagesPerHost} pages (${server.expected.pages} pages), ${threads} fetch slots per process, politeness OFF; PostgreSQL ${cluster.url} (throwaway, durability off); ${os.cpus().length} cores; load average before: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const sqlite = await sqliteRun(server, dir, threads);
    console.log(line(sqlite));
    const results: ScaleResult[] = [];
    for (const processes of [1, 2, 4]) {
      const result = await sharedRun(server, await freshDatabase(cluster, `scale_${processes}`), processes, threads);
      results.push(result);
      console.log(line(result, results[0], sqlite));
      if (result.pages !== server.expected.pages) console.log(`  warning                 ${result.name} fetched ${result.pages} of the ${server.expected.pages} pages`);
    }
    const [one, , four] = results;
    const two = results[1];
    if (one && two && four) {
      const noCollapse = two.pages / two.seconds >= one.pages / one.seconds && four.pages / four.seconds >= one.pages / one.seconds;
      console.log(`  aim                    2 and 4 processes at least as fast as 1 on PostgreSQL (no collapse on ${os.cpus().length} cores): ${noCollapse ? 'met' : 'NOT met'}`);
    }
    console.log(`  note                   load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    server.stop();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (values['skip-claims']) console.log('pg-frontier: skipped (--skip-claims)');
  else await runPostgresFrontierBench();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await runScaleBench(process.argv.slice(2));

/**
 * A throwaway PostgreSQL cluster for tests and benchmarks (issue 13): `initdb` into a fresh temp
 * folder (as the `postgres` user when this process is root: PostgreSQL refuses to run as root),
 * `pg_ctl start` on 127.0.0.1 and a free port, one database `crawlbench`, trust authentication on
 * loopback only; `stop()` stops the server and removes the folder. Needs Debian's `postgresql`
 * package (server binaries in /usr/lib/postgresql/<major>/bin).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freeLoopbackPort } from './ports';

export interface PostgresCluster {
  port: number;
  /** `postgres://postgres@127.0.0.1:PORT/crawlbench`: what `--store` takes. */
  url: string;
  /** The cluster's data folder (removed by stop()). */
  dataDir: string;
  /** Stops the server (fast mode) and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

export interface PostgresClusterOptions {
  /**
   * Durability off (fsync, synchronous_commit, full_page_writes): a throwaway cluster whose data
   * is worthless after the run. @default true
   */
  fast?: boolean;
  /** max_connections. @default 100 */
  maxConnections?: number;
  /** More postgresql.conf lines (e.g. `shared_preload_libraries = 'pg_stat_statements'` to profile). */
  settings?: readonly string[];
}

/** The folder of PostgreSQL's server binaries (initdb, pg_ctl), or null when none is installed. */
export function postgresBinDir(): string | null {
  const fromEnv = process.env.CRAWLBENCH_PG_BIN;
  if (fromEnv && fs.existsSync(path.join(fromEnv, 'pg_ctl'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const majors = fs
    .readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = path.join(root, major, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

/** Why PostgreSQL tests cannot run here (printed with the skip), or null when they can. */
export function postgresUnavailableReason(): string | null {
  if (postgresBinDir() === null) return 'no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin: apt-get install postgresql';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root and there is no postgres user to run the server as';
  return null;
}

/**
 * Starts a throwaway cluster. @throws Error with the server's log when initdb or the start fails,
 * or the reason from {@link postgresUnavailableReason}
 */
export async function startPostgres(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const unavailable = postgresUnavailableReason();
  if (unavailable) throw new Error(unavailable);
  const bin = postgresBinDir()!;
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-pg-'));
  const dataDir = path.join(dir, 'data');
  const socketDir = path.join(dir, 'socket');
  fs.mkdirSync(socketDir);
  if (asRoot) execFileSync('chown', ['-R', 'postgres:', dir]);
  // Run a server binary as the postgres user when root (PostgreSQL refuses root).
  const run = (tool: string, args: string[]): void => {
    const command = asRoot ? 'runuser' : path.join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args;
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${tool} failed (exit ${result.status}): ${result.stderr || result.stdout}`);
  };
  const port = await freeLoopbackPort();
  const fast = options.fast ?? true;
  const settings = [
    `port=${port}`,
    `listen_addresses='127.0.0.1'`,
    `unix_socket_directories='${socketDir}'`,
    `max_connections=${options.maxConnections ?? 100}`,
    `shared_buffers=128MB`,
    ...(fast ? ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] : []),
    ...(options.settings ?? []),
  ];
  try {
    run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-instructions', '-E', 'UTF8', '--locale=C']);
    fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), `\n${settings.join('\n')}\n`);
    run('pg_ctl', ['start', '-D', dataDir, '-w', '-t', '60', '-l', path.join(dir, 'server.log')]);
    run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'crawlbench']);
  } catch (error) {
    const log = fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : '';
    spawnSync(asRoot ? 'runuser' : path.join(bin, 'pg_ctl'), asRoot ? ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), 'stop', '-D', dataDir, '-m', 'immediate'] : ['stop', '-D', dataDir, '-m', 'immediate']);
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${log}`);
  }
  let stopped = false;
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/crawlbench`,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

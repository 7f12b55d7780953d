/**
 * Hostile cases for the crawl database (issue 9, defects 4, 5, 8, 9, 11): real `crawlbench`
 * processes racing on one file, a full disk, files that are not Crawlbench databases, SIGTERM,
 * and stdout that cannot be written. Every crawl goes to the test web on 127.0.0.1 (closed
 * resolver). Processes are killed or raced on progress (a line the child printed), never on a
 * guessed delay. Each case prints one report line (tests/hostile/report.ts) and asserts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../e2e/helpers/serve';
import { startServe } from '../../e2e/helpers/serve';
import { CLI, useTestWeb } from '../integration/harness';
import { reportCase } from './report';
import { samplePeakRss } from '../support/peak-rss';

const testWeb = useTestWeb('db-hostile');
const DOCS = 'http://docs.python.test/';
const flags = (): string[] => [...testWeb.web.resolveFlags, '--closed'];

/** A running CLI process: its output so far, its peak RSS, and its end. */
interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when stderr matches (rejects if the process ends first). */
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; peakRssMb: number }>;
}

/** Starts `crawlbench args…`, sampling its peak RSS (VmHWM) from /proc every 25 ms. */
function start(args: string[], options: { stdout?: 'pipe' | number } = {}): Cli {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const peakRss = samplePeakRss(child.pid);
  const waiters: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(stderr);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; peakRssMb: number }>((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, peakRssMb: peakRss.stop() });
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const match = pattern.exec(stderr);
        if (match) return resolve(match);
        waiters.push({ pattern, resolve });
        void done.then((end) => reject(new Error(`exited ${end.code} before printing ${pattern}: ${end.stderr}`)));
      }),
    done,
  };
}

const run = (args: string[]) => start(args).done;

/** Reads a database without writing to it. */
function inspect<T>(file: string, read: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}
const doneUrls = (file: string): string[] => inspect(file, (db) => db.prepare(`SELECT url FROM urls WHERE state = 'done' ORDER BY url`).pluck().all() as string[]);
const crawlRows = (file: string) => inspect(file, (db) => db.prepare(`SELECT id, status FROM crawls ORDER BY id`).all() as { id: number; status: string }[]);
const integrity = (file: string): string => inspect(file, (db) => (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; '));
/** Lease rows left in the file (0 when it has no lease table). */
const leaseRows = (file: string): number =>
  inspect(file, (db) => (db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'crawl_lease'`).get() ? (db.prepare(`SELECT COUNT(*) FROM crawl_lease`).pluck().get() as number) : 0));
const oneLine = (text: string): boolean => text.trim().split('\n').length === 1 && !/\n\s+at /.test(text);
/** The stderr lines that are not progress lines. */
const messages = (text: string): string[] => text.split('\n').filter((line) => line !== '' && !/^(fetched |done: )/.test(line));

/** Request counts per URI in nginx's access log from byte `offset` on. */
function requestsSince(offset: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of fs.readFileSync(testWeb.web.nginx.accessLog, 'utf8').slice(offset).split('\n')) {
    const uri = line.split(' ')[0];
    if (uri) counts.set(uri, (counts.get(uri) ?? 0) + 1);
  }
  return counts;
}

let referencePages: string[] | null = null;
/** The page set of an uninterrupted docs crawl (made once). */
async function reference(): Promise<string[]> {
  if (referencePages) return referencePages;
  const file = path.join(testWeb.dir, 'reference.db');
  const end = await run(['crawl', DOCS, '--db', file, ...flags()]);
  expect(end.code, end.stderr).toBe(0);
  referencePages = doneUrls(file);
  return referencePages;
}

const mounts: string[] = [];
afterAll(() => {
  for (const dir of mounts) spawnSync('umount', [dir]);
});

/** A tmpfs of `size` (e.g. `1200k`) at a fresh folder, or null where mounting is not allowed. */
function tmpfs(size: string): string | null {
  const dir = fs.mkdtempSync(path.join(testWeb.dir, 'tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) return null;
  mounts.push(dir);
  return dir;
}

describe('hostile: two processes on one crawl database', () => {
  it('a second crawl on a file another process crawls is refused with DB_BUSY; the first finishes', async () => {
    const file = path.join(testWeb.dir, 'two-crawls.db');
    const first = start(['crawl', DOCS, '--db', file, ...flags()]);
    await first.waitFor(/^fetched \d+/m);
    const second = await run(['crawl', DOCS, '--db', file, ...flags()]);
    const end = await first.done;
    const busyLine = `crawlbench: DB_BUSY: crawl 1 is being run by pid ${first.child.pid} (stop it, or wait for it to finish)\n`;
    const pass = second.code === 2 && second.stderr === busyLine && end.code === 0 && JSON.stringify(crawlRows(file)) === '[{"id":1,"status":"finished"}]' && integrity(file) === 'ok';
    reportCase({
      name: 'db: two crawls on one file',
      outcome: `second exit ${second.code} "${second.stderr.trim()}"; first exit ${end.code}, crawls ${JSON.stringify(crawlRows(file))}, ${doneUrls(file).length} pages`,
      peakRssMb: Math.max(end.peakRssMb, second.peakRssMb),
      verdict: pass ? 'pass' : 'fail',
    });
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(busyLine);
    expect(end.code, end.stderr).toBe(0);
    expect(crawlRows(file)).toEqual([{ id: 1, status: 'finished' }]);
    expect(doneUrls(file)).toEqual(await reference());
    expect(leaseRows(file)).toBe(0);
  });

  it('two resumes of one crawl started together: one runs, the other is refused; no URL is fetched twice and both exit', async () => {
    const file = path.join(testWeb.dir, 'two-resumes.db');
    expect((await run(['crawl', DOCS, '--db', file, ...flags(), '--max-pages', '40'])).code).toBe(0);
    const offset = fs.statSync(testWeb.web.nginx.accessLog).size;
    const ends = await Promise.all([run(['resume', '--db', file, '--max-pages', '0', ...flags()]), run(['resume', '--db', file, '--max-pages', '0', ...flags()])]);
    const twice = [...requestsSince(offset)].filter(([uri, n]) => n > 1 && uri !== '/robots.txt').map(([uri]) => uri);
    const codes = ends.map((end) => end.code).sort();
    const refused = ends.find((end) => end.code === 2);
    const pass = codes.join(',') === '0,2' && /^crawlbench: DB_BUSY: crawl 1 is being run by pid \d+ /.test(refused?.stderr ?? '') && twice.length === 0;
    reportCase({
      name: 'db: two resumes of one crawl',
      outcome: `exit codes ${codes.join(' and ')}, ${twice.length} URLs fetched twice, ${doneUrls(file).length} pages, refused: "${refused?.stderr.trim()}"`,
      peakRssMb: Math.max(...ends.map((end) => end.peakRssMb)),
      verdict: pass ? 'pass' : 'fail',
    });
    expect(codes).toEqual([0, 2]);
    expect(refused!.stderr).toMatch(/^crawlbench: DB_BUSY: crawl 1 is being run by pid \d+ \(stop it, or wait for it to finish\)\n$/);
    expect(twice).toEqual([]);
    expect(doneUrls(file)).toEqual(await reference());
  });

  it('resume --checkpoint while another process crawls is refused; integrity_check says ok after', async () => {
    const file = path.join(testWeb.dir, 'checkpoint-race.db');
    expect((await run(['crawl', DOCS, '--db', file, ...flags(), '--max-pages', '40'])).code).toBe(0);
    expect((await run(['checkpoints', '--db', file, '--create', 'cp'])).code).toBe(0);
    const crawling = start(['resume', '--db', file, '--max-pages', '0', ...flags()]);
    await crawling.waitFor(/^fetched \d+/m);
    // Readers keep working alongside: export and the checkpoint list.
    const exported = await run(['export', '--db', file, '--what', 'pages']);
    const listed = await run(['checkpoints', '--db', file, '--json']);
    const rollback = await run(['resume', '--db', file, '--checkpoint', 'cp', ...flags()]);
    const end = await crawling.done;
    const check = integrity(file);
    const pass = rollback.code === 2 && /DB_BUSY/.test(rollback.stderr) && end.code === 0 && check === 'ok' && exported.code === 0 && listed.code === 0;
    reportCase({
      name: 'db: resume --checkpoint during a crawl',
      outcome: `rollback exit ${rollback.code} "${rollback.stderr.trim()}"; crawl exit ${end.code}; integrity_check ${check}; export alongside exit ${exported.code} (${exported.stdout.split('\n').length - 1} rows)`,
      peakRssMb: Math.max(end.peakRssMb, rollback.peakRssMb),
      verdict: pass ? 'pass' : 'fail',
    });
    expect(rollback.code).toBe(2);
    expect(oneLine(rollback.stderr)).toBe(true);
    expect(rollback.stderr).toMatch(/^crawlbench: DB_BUSY: crawl 1 is being run by pid \d+/);
    expect(end.code, end.stderr).toBe(0);
    expect(check).toBe('ok');
    expect(exported.code).toBe(0);
    expect(listed.stdout).toContain('"name":"cp"');
    expect(doneUrls(file)).toEqual(await reference());
    // Once the crawl is over, the rollback runs.
    const later = await run(['resume', '--db', file, '--checkpoint', 'cp', '--max-pages', '0', ...flags()]);
    expect(later.code, later.stderr).toBe(0);
    expect(integrity(file)).toBe('ok');
    expect(doneUrls(file)).toEqual(await reference());
  });
});

describe('hostile: a full disk', () => {
  it('crawl on a full tmpfs ends interrupted with DISK_FULL (exit 3); resume while full says so and exits; with space freed resume completes with nothing lost', async () => {
    const mount = tmpfs('1200k');
    if (!mount) {
      reportCase({ name: 'db: disk full then resume', outcome: 'not run: mounting a tmpfs is not allowed here (see crawl-service.test.ts for the injected SQLITE_FULL)', peakRssMb: null, verdict: 'pass' });
      return;
    }
    const file = path.join(mount, 'full.db');
    const full = await run(['crawl', DOCS, '--db', file, ...flags()]);
    const status = crawlRows(file)[0]?.status;
    const stillFull = await run(['resume', '--db', file, ...flags()]);
    expect(spawnSync('mount', ['-o', 'remount,size=64m', mount]).status).toBe(0);
    const resumed = await run(['resume', '--db', file, ...flags()]);
    const pages = doneUrls(file);
    const expected = await reference();
    const pass =
      full.code === 3 && /^crawlbench: DISK_FULL: the disk is full \(SQLITE_FULL\)/.test(full.stderr.split('\n').find((l) => l.startsWith('crawlbench:')) ?? '') && status === 'interrupted' && stillFull.code === 3 && resumed.code === 0 && JSON.stringify(pages) === JSON.stringify(expected);
    reportCase({
      name: 'db: disk full (1.2 MB tmpfs) then resume',
      outcome: `crawl exit ${full.code}, status ${status}, "${messages(full.stderr).join(' ').slice(0, 120)}…"; resume while full exit ${stillFull.code}; after freeing space exit ${resumed.code}, ${pages.length}/${expected.length} pages, same set: ${JSON.stringify(pages) === JSON.stringify(expected)}`,
      peakRssMb: Math.max(full.peakRssMb, resumed.peakRssMb),
      verdict: pass ? 'pass' : 'fail',
    });
    expect(full.code).toBe(3);
    expect(messages(full.stderr)).toHaveLength(1);
    expect(messages(full.stderr)[0]).toMatch(/^crawlbench: DISK_FULL: the disk is full \(SQLITE_FULL\) writing .*full\.db; the crawl is interrupted and nothing committed is lost: free some space, then resume it/);
    expect(status).toBe('interrupted');
    expect(stillFull.code).toBe(3);
    expect(messages(stillFull.stderr)[0]).toMatch(/^crawlbench: DISK_FULL: /);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(pages).toEqual(expected);
  });

  it('export --out on a full disk fails in one line and leaves no partial file', async () => {
    const mount = tmpfs('64k');
    if (!mount) return;
    const source = path.join(testWeb.dir, 'reference.db');
    await reference();
    const out = path.join(mount, 'pages.jsonl');
    const end = await run(['export', '--db', source, '--what', 'pages', '--out', out]);
    const left = fs.readdirSync(mount);
    reportCase({
      name: 'db: export --out to a full disk',
      outcome: `exit ${end.code}, "${end.stderr.trim().slice(0, 100)}…", files left: ${left.length === 0 ? 'none' : left.join(', ')}`,
      peakRssMb: end.peakRssMb,
      verdict: end.code === 3 && left.length === 0 && oneLine(end.stderr) ? 'pass' : 'fail',
    });
    expect(end.code).toBe(3);
    expect(end.stderr).toMatch(/^crawlbench: DISK_FULL: cannot write .*pages\.jsonl: ENOSPC.*no partial file was left/);
    expect(oneLine(end.stderr)).toBe(true);
    expect(left).toEqual([]);
  });
});

describe('hostile: read commands on files that are not Crawlbench databases', () => {
  const commands = (file: string): string[][] => [
    ['export', '--db', file, '--what', 'pages'],
    ['checkpoints', '--db', file],
    ['checkpoints', '--db', file, '--create', 'x'],
    ['resume', '--db', file, ...flags()],
    ['crawl', DOCS, '--db', file, ...flags()],
  ];

  it.each([
    ['an empty file', (file: string) => fs.writeFileSync(file, ''), /^crawlbench: NOT_A_CRAWL_DB: .* is empty, not a Crawlbench database/, 4],
    [
      "another program's SQLite file",
      (file: string) => {
        const db = new BetterSqlite3(file);
        db.exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine')`);
        db.close();
      },
      /^crawlbench: NOT_A_CRAWL_DB: .* is another program's SQLite database \(tables: notes; user_version 0\)/,
      5,
    ],
  ] as const)('%s: every command refuses it in one line, byte-identical after, no -wal/-shm', async (label, make, refusal, refusing) => {
    const folder = fs.mkdtempSync(path.join(testWeb.dir, 'foreign-'));
    const file = path.join(folder, 'given.db');
    make(file);
    const before = fs.readFileSync(file);
    const ends = [];
    for (const argv of commands(file).slice(0, 4)) ends.push({ argv, ...(await run(argv)) });
    // Byte-identical, and no -wal/-shm beside it, after export, checkpoints (list and --create) and resume.
    const identical = before.equals(fs.readFileSync(file)) && fs.readdirSync(folder).length === 1;
    const crawl = commands(file)[4]!;
    ends.push({ argv: crawl, ...(await run([...crawl, '--max-depth', '0'])) });
    const after = fs.readFileSync(file);
    const refused = ends.filter((end) => end.code === 2 && refusal.test(end.stderr) && oneLine(end.stderr));
    reportCase({
      name: `db: read commands on ${label}`,
      outcome: `${refused.length}/${ends.length} commands refused with NOT_A_CRAWL_DB (crawl ${label === 'an empty file' ? 'initialises an empty file' : 'refuses it too'}); byte-identical after export/checkpoints/resume: ${identical}`,
      peakRssMb: Math.max(...ends.map((end) => end.peakRssMb)),
      verdict: refused.length >= refusing && identical ? 'pass' : 'fail',
    });
    expect(identical).toBe(true);
    // The four read/resume commands refuse both kinds; crawl refuses the foreign file and may initialise an empty one.
    for (const end of ends.slice(0, 4)) {
      expect(end.code, end.argv.join(' ')).toBe(2);
      expect(end.stderr, end.argv.join(' ')).toMatch(refusal);
      expect(oneLine(end.stderr)).toBe(true);
    }
    if (label === 'an empty file') {
      expect(ends[4]!.code).toBe(0);
    } else {
      expect(ends[4]!.code).toBe(2);
      expect(ends[4]!.stderr).toMatch(refusal);
      expect(after.equals(before)).toBe(true);
      expect(fs.readdirSync(folder)).toEqual(['given.db']);
    }
  });

  it('an empty file is byte-identical after export, checkpoints and resume; resume does not create a missing file', async () => {
    const folder = fs.mkdtempSync(path.join(testWeb.dir, 'empty-'));
    const file = path.join(folder, 'empty.db');
    fs.writeFileSync(file, '');
    for (const argv of commands(file).slice(0, 4)) expect((await run(argv)).code).toBe(2);
    expect(fs.statSync(file).size).toBe(0);
    expect(fs.readdirSync(folder)).toEqual(['empty.db']);
    const missing = await run(['resume', '--db', path.join(folder, 'missing.db')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^crawlbench: DB_NOT_FOUND: /);
    expect(fs.readdirSync(folder)).toEqual(['empty.db']);
  });
});

describe('hostile: signals', () => {
  it('SIGTERM during a crawl stops it like SIGINT: exit 143, status stopped, lease released, resumable', async () => {
    const file = path.join(testWeb.dir, 'sigterm.db');
    const crawling = start(['crawl', DOCS, '--db', file, ...flags()]);
    await crawling.waitFor(/^fetched ([3-9]\d|\d{3,})/m);
    crawling.child.kill('SIGTERM');
    const end = await crawling.done;
    const status = crawlRows(file)[0]?.status;
    const stoppedAt = doneUrls(file).length;
    const resumed = await run(['resume', '--db', file, ...flags()]);
    const pages = doneUrls(file);
    const expected = await reference();
    const pass = end.code === 143 && status === 'stopped' && resumed.code === 0 && JSON.stringify(pages) === JSON.stringify(expected);
    reportCase({
      name: 'db: SIGTERM during crawl',
      outcome: `exit ${end.code}, status ${status} at ${stoppedAt} pages, lease rows ${leaseRows(file)}; resume exit ${resumed.code}, ${pages.length}/${expected.length} pages`,
      peakRssMb: Math.max(end.peakRssMb, resumed.peakRssMb),
      verdict: pass ? 'pass' : 'fail',
    });
    expect(end.code).toBe(143);
    expect(status).toBe('stopped');
    expect(leaseRows(file)).toBe(0);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(pages).toEqual(expected);
  });

  it('SIGTERM to serve while it crawls: the crawl ends stopped, resumable', async () => {
    const folder = fs.mkdtempSync(path.join(testWeb.dir, 'serve-'));
    const file = path.join(folder, 'serve.db');
    const serve = await startServe(flags(), file);
    const ws = new WebSocket(new URL('ipc', serve.url.replace('http', 'ws')).href, { origin: serve.origin });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const progressed = new Promise<void>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as { kind: string; event?: string; payload?: { fetched?: number } };
        if (frame.kind === 'event' && frame.event === 'crawl.onDidProgress' && (frame.payload?.fetched ?? 0) >= 30) resolve();
      });
    });
    ws.send(JSON.stringify({ kind: 'request', seq: 1, channel: 'crawl.start', payload: { seeds: [DOCS] } }));
    await progressed;
    const exited = new Promise<number | null>((resolve) => serve.child.once('exit', (code) => resolve(code)));
    serve.child.kill('SIGTERM');
    const code = await exited;
    ws.terminate();
    const status = crawlRows(file)[0]?.status;
    const resumed = await run(['resume', '--db', file, ...flags()]);
    const pass = code === 0 && status === 'stopped' && resumed.code === 0 && doneUrls(file).length === (await reference()).length;
    reportCase({
      name: 'db: SIGTERM during serve crawl',
      outcome: `serve exit ${code}, crawl status ${status}, lease rows ${leaseRows(file)}; resume exit ${resumed.code}, ${doneUrls(file).length} pages`,
      peakRssMb: resumed.peakRssMb,
      verdict: pass ? 'pass' : 'fail',
    });
    await serve.stop();
    expect(code).toBe(0);
    expect(status).toBe('stopped');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(doneUrls(file)).toEqual(await reference());
  });
});

describe('hostile: stdout that cannot be written', () => {
  it('export to /dev/full is one line on stderr and exit code 1, no stack trace', async () => {
    await reference();
    const devFull = fs.openSync('/dev/full', 'w');
    const end = await start(['export', '--db', path.join(testWeb.dir, 'reference.db'), '--what', 'pages'], { stdout: devFull }).done;
    fs.closeSync(devFull);
    reportCase({
      name: 'db: export > /dev/full',
      outcome: `exit ${end.code}, stderr "${end.stderr.trim()}"`,
      peakRssMb: end.peakRssMb,
      verdict: end.code === 1 && oneLine(end.stderr) && /^crawlbench: cannot write to stdout: ENOSPC/.test(end.stderr) ? 'pass' : 'fail',
    });
    expect(end.code).toBe(1);
    expect(end.stderr).toBe('crawlbench: cannot write to stdout: ENOSPC: no space left on device, write\n');
  });

  it('export | head -1 stops quietly (EPIPE): no stack trace', async () => {
    await reference();
    const piped = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${CLI}" export --db "${path.join(testWeb.dir, 'reference.db')}" --what pages | head -1 >/dev/null; echo "exit \${PIPESTATUS[0]}" >&2`], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    const code = /exit (\d+)/.exec(piped.stderr)?.[1];
    const noise = piped.stderr.split('\n').filter((line) => line !== '' && !/^exit \d+$/.test(line) && !/^exported /.test(line));
    reportCase({ name: 'db: export | head -1', outcome: `exit ${code}, ${noise.length} unexpected stderr lines`, peakRssMb: null, verdict: code === '0' && noise.length === 0 ? 'pass' : 'fail' });
    expect(code).toBe('0');
    expect(noise).toEqual([]);
  });
});

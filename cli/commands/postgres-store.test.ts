import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, openPostgresStore, type PostgresStore } from '../../engine';
import { insertRowsIntoPostgres, insertRowsIntoSqlite, postgresOnlyRows, sampleCrawlRows } from '../../engine/store/postgres/snapshot-test-rows';
import { VersionIndex } from '../../engine/store/sqlite/version-index';
import { ipcRequest } from '../../server/server-probes';
import { postgresUnavailableReason, startPostgres, type PostgresCluster } from '../../testweb/postgres';
import { main } from '../index';
import { runCommandText } from '../run-command';

const cli = (argv: string[]) => runCommandText(main, argv, '');
const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`crawlbench --store postgres:// tests skipped: ${unavailable}`);

const KINDS = ['pages', 'frontier', 'url-groups', 'content-groups', 'errors', 'versions', 'traps', 'sitemap-report'];

describe.skipIf(unavailable)('crawlbench export, checkpoints, dust, traps and serve with --store postgres://', () => {
  let cluster: PostgresCluster;
  let store: PostgresStore;
  let dir: string;
  let reference: string;

  beforeAll(async () => {
    cluster = await startPostgres();
    store = await openPostgresStore(cluster.url);
    await insertRowsIntoPostgres(store.pool, sampleCrawlRows(7, 1001));
    await insertRowsIntoPostgres(store.pool, postgresOnlyRows(7));
    await insertRowsIntoPostgres(store.pool, sampleCrawlRows(8, 5001));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-pg-cli-'));
    // The same crawl stored by SQLite (in-flight as a resumed SQLite crawl sees it): what every export must equal.
    reference = path.join(dir, 'reference.db');
    const db = openDatabase(reference);
    insertRowsIntoSqlite(db, sampleCrawlRows(7, 1001), { inFlightAsPending: true });
    // The SQLite writer indexes version templates as it stores URLs.
    new VersionIndex(db, 7).catchUp();
    db.close();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await cluster?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(KINDS)('export --store URL --crawl 7 --what %s gives the SQLite store’s rows, and leaves no copy behind', async (what) => {
    const tmpBefore = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('crawlbench-snapshot-')).length;
    for (const format of ['jsonl', 'csv']) {
      const fromPostgres = await cli(['export', '--store', cluster.url, '--crawl', '7', '--what', what, '--format', format]);
      const fromSqlite = await cli(['export', '--db', reference, '--crawl', '7', '--what', what, '--format', format]);
      expect(fromSqlite.code, fromSqlite.stderr).toBe(0);
      expect(fromPostgres.code, fromPostgres.stderr).toBe(0);
      expect(fromPostgres.stdout).toBe(fromSqlite.stdout);
      expect(fromPostgres.stderr).toBe(fromSqlite.stderr);
      // Every kind has rows in the sample (a CSV has its header line besides).
      expect(fromPostgres.stdout.trim().split('\n').filter(Boolean).length).toBeGreaterThan(format === 'csv' ? 1 : 0);
    }
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('crawlbench-snapshot-')).length).toBeLessThanOrEqual(tmpBefore);
  });

  it('export --store without --crawl exports the newest crawl; a missing crawl and a bad URL are one-line errors', async () => {
    const newest = await cli(['export', '--store', cluster.url, '--what', 'frontier']);
    expect(newest.stderr).toBe('exported 14 rows of frontier (crawl 8)\n');
    const frontier = newest.stdout.trim().split('\n').map((line) => JSON.parse(line) as { state: string; url: string });
    expect(frontier.find((row) => row.url === 'http://example.test/busy')?.state).toBe('pending');
    // --store with a file path is --db.
    const byPath = await cli(['export', '--store', reference, '--what', 'frontier']);
    expect(byPath.code, byPath.stderr).toBe(0);
    expect(byPath.stdout).toBe((await cli(['export', '--db', reference, '--what', 'frontier'])).stdout);
    const missing = await cli(['export', '--store', cluster.url, '--crawl', '99', '--what', 'pages']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^crawlbench: CRAWL_NOT_FOUND: No crawl with id 99/);
    const down = await cli(['export', '--store', 'postgres://u:secret@127.0.0.1:1/crawls', '--what', 'pages']);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/^crawlbench: STORE_UNREACHABLE: the PostgreSQL server cannot be reached \(ECONNREFUSED\).*postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/crawls/);
    expect(down.stderr).not.toContain('secret');
    const bad = await cli(['export', '--store', 'postgres://u:pw@127.0.0.1:1/', '--what', 'pages']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^crawlbench: INVALID_STORE_URL: .*names no database/);
  });

  it('checkpoints --store URL --to FILE writes a standalone crawl database that --db FILE reads like the store', async () => {
    const file = path.join(dir, 'copy.db');
    const run = await cli(['checkpoints', '--store', cluster.url, '--crawl', '7', '--to', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^copied crawl 7 of postgres:\/\/postgres@127\.0\.0\.1:\d+\/crawlbench \(14 URLs, 8 pages, 17 links; \d+ bytes\) -> .*copy\.db; open it with --db /);
    const fromCopy = await cli(['export', '--db', file, '--what', 'pages']);
    const fromSqlite = await cli(['export', '--db', reference, '--what', 'pages']);
    expect(fromCopy.stdout).toBe(fromSqlite.stdout);
    // Resumable there: the pending URLs (the one in flight in PostgreSQL among them) are crawled (here: refused by the closed resolver).
    const resumed = await cli(['resume', '--db', file, '--crawl', '7', '--closed', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const db = openDatabase(file, { readonly: true });
    expect(db.prepare(`SELECT url, state, error_code AS errorCode FROM urls WHERE url IN ('http://example.test/busy', 'http://example.test/next') ORDER BY url`).all()).toEqual([
      { url: 'http://example.test/busy', state: 'error', errorCode: 'HOST_NOT_MAPPED' },
      { url: 'http://example.test/next', state: 'error', errorCode: 'HOST_NOT_MAPPED' },
    ]);
    db.close();
    const again = await cli(['checkpoints', '--store', cluster.url, '--crawl', '7', '--to', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^crawlbench: SNAPSHOT_EXISTS: /);
  });

  it('checkpoints --store URL --create NAME records the snapshot in PostgreSQL; listing reads the store', async () => {
    const file = path.join(dir, 'cp-one.db');
    const made = await cli(['checkpoints', '--store', cluster.url, '--crawl', '7', '--create', 'one', '--to', file]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toBe(`checkpoint one of crawl 7: 7 pages done, 3 in the frontier -> ${file}\n`);
    const listed = await cli(['checkpoints', '--store', cluster.url, '--crawl', '7', '--json']);
    const rows = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { name: string; file: string; pagesDone: number });
    expect(rows.map((r) => r.name)).toEqual(['one', 'before-docs']);
    // Every crawl's, as a table, newest first.
    const table = (await cli(['checkpoints', '--store', cluster.url])).stdout.trim().split('\n');
    expect(table).toHaveLength(4);
    expect(table[0]).toMatch(/^time +crawl +name +done +frontier {2}settings$/);
    expect(table[1]).toMatch(/^\S+ +7 +one +7 +3 {2}[0-9a-f]{16}$/);
    expect(table.slice(2).map((line) => line.split(/ +/).slice(1, 3).join(' ')).sort()).toEqual(['7 before-docs', '8 before-docs']);
    expect(rows[0]).toMatchObject({ file, pagesDone: 7 });
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('cp-one'))).toEqual(['cp-one.db']);
    // Without --to: a file in the data folder, named after the store, the crawl and the checkpoint.
    const dataHome = process.env['XDG_DATA_HOME'];
    process.env['XDG_DATA_HOME'] = path.join(dir, 'data');
    try {
      const defaulted = await cli(['checkpoints', '--store', cluster.url, '--crawl', '7', '--create', 'two']);
      expect(defaulted.code, defaulted.stderr).toBe(0);
      const expected = path.join(dir, 'data', 'crawlbench', 'postgres-checkpoints', `127.0.0.1-${cluster.port}-crawlbench`, 'crawl-7-two.db');
      expect(defaulted.stderr).toContain(`-> ${expected}\n`);
      expect(fs.existsSync(expected)).toBe(true);
    } finally {
      if (dataHome === undefined) delete process.env['XDG_DATA_HOME'];
      else process.env['XDG_DATA_HOME'] = dataHome;
    }
    const twice = await cli(['checkpoints', '--store', cluster.url, '--crawl', '7', '--create', 'one', '--to', path.join(dir, 'cp-two.db')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^crawlbench: CHECKPOINT_EXISTS: /);
    expect(fs.existsSync(path.join(dir, 'cp-two.db'))).toBe(false);
  });

  it('dust --store mines a snapshot, and --accept answers STORE_UNSUPPORTED with what to do', async () => {
    const mined = await cli(['dust', '--store', cluster.url, '--crawl', '7', '--json']);
    expect(mined.code, mined.stderr).toBe(0);
    const accept = await cli(['dust', '--store', cluster.url, '--crawl', '7', '--accept', '1']);
    expect(accept.code).toBe(2);
    expect(accept.stderr).toMatch(/^crawlbench: STORE_UNSUPPORTED: .*checkpoints --store URL --crawl ID --to FILE/);
  });

  it('traps --store lists a snapshot’s traps like the SQLite store; --release answers STORE_UNSUPPORTED', async () => {
    const fromPostgres = await cli(['traps', '--store', cluster.url, '--crawl', '7', '--json']);
    const fromSqlite = await cli(['traps', '--db', reference, '--crawl', '7', '--json']);
    expect(fromPostgres.code, fromPostgres.stderr).toBe(0);
    expect(fromPostgres.stdout).toBe(fromSqlite.stdout);
    expect(JSON.parse(fromPostgres.stdout.trim())).toMatchObject({ id: 73, heldCount: 1 });
    const release = await cli(['traps', '--store', cluster.url, '--crawl', '7', '--release', '73']);
    expect(release.code).toBe(2);
    expect(release.stderr).toMatch(/^crawlbench: STORE_UNSUPPORTED: /);
    expect((await store.pool.query(`SELECT state FROM traps WHERE id = 73`)).rows[0]).toEqual({ state: 'suspected' });
  });

  it('serve --store URL (the real CLI) serves a snapshot, says so, answers the API, and removes its copy on SIGTERM', async () => {
    const renderer = path.join(dir, 'renderer');
    fs.mkdirSync(renderer, { recursive: true });
    fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>crawlbench</title>');
    const child = spawn(process.execPath, [path.resolve('bin/crawlbench.mjs'), 'serve', '--store', cluster.url, '--renderer', renderer, '--port', '0'], {
      env: { ...process.env, CRAWLBENCH_FROM_SOURCE: '1', TMPDIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      expect(line).toMatch(/^Crawlbench browser mode, serving a snapshot of postgres:\/\/postgres@127\.0\.0\.1:\d+\/crawlbench \(crawls 7, 8\) taken at .*nothing done here reaches it.*: open http:\/\/127\.0\.0\.1:\d+\/t\/[\w-]+\/$/);
      expect(fs.readdirSync(dir).filter((name) => name.startsWith('crawlbench-snapshot-'))).toHaveLength(1);
      const url = new URL(line.slice(line.lastIndexOf('http://')));
      const reply = await ipcRequest(`ws://${url.host}${url.pathname}ipc`, url.origin, 'crawl.list', {}, 3);
      expect(reply).toMatchObject({ kind: 'frame', frame: { kind: 'response', seq: 3, result: { ok: true } } });
      const crawls = (reply as { frame: { result: { value: { id: number }[] } } }).frame.result.value;
      expect(crawls.map((c) => c.id).sort()).toEqual([7, 8]);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('crawlbench-snapshot-'))).toEqual([]);
  }, 60_000);
});

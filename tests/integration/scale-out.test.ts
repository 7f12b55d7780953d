// Issue 13: several crawlbench processes share one crawl through a PostgreSQL store. Real CLI
// processes, a throwaway PostgreSQL cluster, nginx serving the Python docs and the fixture web.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../e2e/helpers/serve';
import { DOCS_HOST } from '../../testweb';
import { postgresUnavailableReason, startPostgres, type PostgresCluster } from '../../testweb/postgres';
import { CLI, crawlbench, MULTI_PROCESS_TIMEOUT_MS, useTestWeb } from './harness';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`scale-out tests skipped: ${unavailable}`);

/** A CLI process running in the background. */
interface Running {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

function start(args: string[]): Running {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const running: Running = { child, stdout: '', stderr: '', exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  child.stdout!.on('data', (chunk: Buffer) => (running.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (running.stderr += chunk.toString()));
  return running;
}

/** Resolves when `check()` is true, polling every 20 ms; rejects after `timeoutMs` (a hung process, not a slow one). */
async function until(check: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The crawl id the `crawl` process announced on stderr ("crawl N in …"). */
async function announcedCrawlId(run: Running): Promise<number> {
  await until(() => /crawl (\d+) in /.test(run.stderr) || run.child.exitCode !== null, 'the crawl to start');
  const match = /crawl (\d+) in /.exec(run.stderr);
  if (!match) throw new Error(`crawl did not start: ${run.stderr}`);
  return Number(match[1]);
}

/** `$request_uri` counts in nginx's access log (lines `URI STATUS`) from byte `offset` on. */
function requestCounts(log: string, offset = 0): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of fs.readFileSync(log, 'utf8').slice(offset).split('\n')) {
    const uri = line.split(' ')[0];
    if (uri) counts.set(uri, (counts.get(uri) ?? 0) + 1);
  }
  return counts;
}

describe.skipIf(unavailable !== null)('scale out: four processes share one crawl through PostgreSQL', () => {
  const testWeb = useTestWeb('scale-out');
  let cluster: PostgresCluster;
  let client: pg.Client;
  beforeAll(async () => {
    cluster = await startPostgres();
    client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await cluster?.stop();
  });

  const docsSeed = `http://${DOCS_HOST}/index.html`;
  const docsResolve = () => ['--resolve', `${DOCS_HOST}=127.0.0.1:${testWeb.web.nginx.port}`, '--closed'];

  /** Done URLs of a crawl in the store, by URL. */
  async function donePages(crawlId: number): Promise<string[]> {
    const rows = await client.query<{ url: string }>(`SELECT url FROM urls WHERE crawl_id = $1 AND state = 'done' ORDER BY url`, [crawlId]);
    return rows.rows.map((row) => row.url);
  }

  it('one crawl and three joins fetch every docs page once: nginx logs each URL exactly once (robots.txt aside)', async () => {
    const offset = fs.statSync(testWeb.web.nginx.accessLog).size;
    // One host: 8 requests to it at once crawl-wide, 2 per process, so every process gets a share.
    const first = start(['crawl', docsSeed, '--store', cluster.url, ...docsResolve(), '--per-host', '8', '--threads', '2', '--json']);
    const crawlId = await announcedCrawlId(first);
    const joins = [1, 2, 3].map(() => start(['join', '--store', cluster.url, '--crawl', String(crawlId), '--threads', '2', '--json']));
    const codes = await Promise.all([first, ...joins].map((run) => run.exited));
    expect(codes, [first, ...joins].map((run) => run.stderr).join('\n---\n')).toEqual([0, 0, 0, 0]);
    const summary = JSON.parse(first.stdout.trim().split('\n').at(-1)!) as { crawlId: number; pagesFetched: number; frontierLeft: number; status: string };
    expect(summary.crawlId).toBe(crawlId);
    expect(summary.frontierLeft).toBe(0);

    const pages = await donePages(crawlId);
    expect(pages.length).toBeGreaterThanOrEqual(526);
    const settled = Number((await client.query<{ n: number }>(`SELECT count(*) AS n FROM urls WHERE crawl_id = $1 AND state IN ('done', 'error')`, [crawlId])).rows[0]!.n);
    const counts = requestCounts(testWeb.web.nginx.accessLog, offset);
    counts.delete('/robots.txt');
    const twice = [...counts].filter(([, n]) => n > 1);
    expect(twice, 'URLs requested more than once').toEqual([]);
    // Every fetched URL (pages, and the docs' one broken link, a 404) was requested, and nothing
    // else but the /sitemap.xml probe of the process that started the crawl.
    expect(counts.size).toBe(settled + (counts.has('/sitemap.xml') ? 1 : 0));

    const processes = await client.query<{ role: string; end_reason: string | null; pages_done: number }>(`SELECT role, end_reason, pages_done::int AS pages_done FROM processes WHERE crawl_id = $1`, [crawlId]);
    console.log(`scale-out docs crawl: ${pages.length} pages done, ${counts.size} URLs requested once each; pages per process ${processes.rows.map((row) => `${row.role} ${row.pages_done}`).join(', ')}`);
    expect(processes.rows.map((row) => row.role).sort()).toEqual(['crawl', 'join', 'join', 'join']);
    expect(processes.rows.every((row) => row.end_reason === 'finished')).toBe(true);
    // Every process fetched pages: the crawl was shared, not done by the first alone.
    expect(processes.rows.every((row) => row.pages_done > 0), JSON.stringify(processes.rows)).toBe(true);
    expect(processes.rows.reduce((sum, row) => sum + row.pages_done, 0)).toBe(pages.length);
    const crawl = await client.query<{ status: string }>(`SELECT status FROM crawls WHERE id = $1`, [crawlId]);
    expect(crawl.rows[0]!.status).toBe('finished');
  });

  it('politeness holds crawl-wide: with four processes, no host gets two connections at once or a gap under minDelayMs', async () => {
    const fixtures = testWeb.web.fixtures;
    const before = fixtures.requests.length;
    const resolve = fixtures.hosts.flatMap((host) => ['--resolve', `${host}=127.0.0.1:${fixtures.port}`]);
    const first = start(['crawl', 'http://site.test/', 'http://links.test/', '--store', cluster.url, ...resolve, '--closed', '--min-delay-ms', '150', '--per-host', '1', '--max-pages', '60', '--threads', '4', '--json']);
    const crawlId = await announcedCrawlId(first);
    const joins = [1, 2, 3].map(() => start(['join', '--store', cluster.url, '--crawl', String(crawlId), '--threads', '4']));
    const codes = await Promise.all([first, ...joins].map((run) => run.exited));
    expect(codes, [first, ...joins].map((run) => run.stderr).join('\n---\n')).toEqual([0, 0, 0, 0]);
    const seen = fixtures.requests.slice(before);
    const processes = await client.query<{ id: string; pages_done: number }>(`SELECT id, pages_done FROM processes WHERE crawl_id = $1`, [crawlId]);
    // More than one process fetched: the test is about processes sharing hosts.
    expect(processes.rows.filter((row) => row.pages_done > 0).length).toBeGreaterThan(1);
    for (const host of ['site.test', 'links.test']) {
      const hits = seen.filter((r) => r.host === host);
      expect(hits.length, host).toBeGreaterThan(5);
      expect(Math.max(...hits.map((r) => r.concurrentForHost)), `${host}: concurrent requests`).toBe(1);
      for (let i = 1; i < hits.length; i += 1) expect(hits[i]!.startedAtMs - hits[i - 1]!.endedAtMs, `${host}: gap before ${hits[i]!.path}`).toBeGreaterThanOrEqual(148);
    }
  });

  it('kill -9 one of four processes mid-crawl: the others finish, the page set equals a single-process crawl, refetches are only its in-flight URLs', async () => {
    // The page set of a single-process crawl (SQLite) of the same site.
    const single = crawlbench(['crawl', docsSeed, '--db', `${testWeb.dir}/single.db`, ...docsResolve(), '--threads', '4', '--json']);
    expect(single.status, single.stderr).toBe(0);
    const singleRun = JSON.parse(single.stdout) as { pagesFetched: number };

    const offset = fs.statSync(testWeb.web.nginx.accessLog).size;
    const first = start(['crawl', docsSeed, '--store', cluster.url, ...docsResolve(), '--per-host', '8', '--threads', '2', '--json']);
    const crawlId = await announcedCrawlId(first);
    const victim = start(['join', '--store', cluster.url, '--crawl', String(crawlId), '--threads', '2', '--lease-ms', '3000']);
    const joins = [1, 2].map(() => start(['join', '--store', cluster.url, '--crawl', String(crawlId), '--threads', '2']));
    const victimId = await (async () => {
      await until(() => /this process is (\S+)/.test(victim.stderr), 'the victim to join');
      return /this process is (\S+)/.exec(victim.stderr)![1]!;
    })();
    // Kill on progress: once the crawl is under way (100 requests) and the victim holds URLs in flight.
    await until(() => [...requestCounts(testWeb.web.nginx.accessLog, offset).values()].reduce((a, b) => a + b, 0) >= 100, '100 requests');
    for (;;) {
      const held = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM urls WHERE crawl_id = $1 AND owner = $2 AND state = 'in_flight'`, [crawlId, victimId]);
      if (held.rows[0]!.n > 0 || victim.child.exitCode !== null) break;
    }
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBeNull();
    const codes = await Promise.all([first, ...joins].map((run) => run.exited));
    expect(codes, [first, ...joins].map((run) => run.stderr).join('\n---\n')).toEqual([0, 0, 0]);

    const pages = await donePages(crawlId);
    expect(pages.length).toBe(singleRun.pagesFetched);
    const singleDb = (await import('better-sqlite3')).default(`${testWeb.dir}/single.db`, { readonly: true });
    const singlePages = (singleDb.prepare(`SELECT url FROM urls WHERE state = 'done' ORDER BY url`).pluck().all() as string[]).sort();
    singleDb.close();
    expect(pages.sort()).toEqual(singlePages);

    const row = (await client.query<{ end_reason: string; returned_urls: number }>(`SELECT end_reason, returned_urls FROM processes WHERE id = $1`, [victimId])).rows[0]!;
    expect(row.end_reason).toBe('lease-expired');
    // The victim was killed holding URLs: the sweep gave them back, and the others fetched them.
    expect(row.returned_urls).toBeGreaterThan(0);
    const counts = requestCounts(testWeb.web.nginx.accessLog, offset);
    counts.delete('/robots.txt');
    const refetched = [...counts].filter(([, n]) => n > 1).map(([uri]) => uri);
    const twiceClaimedRows = await client.query<{ url: string; attempts: number; state: string }>(`SELECT url, attempts, state, retry_reason, claimed_at_ms, owner FROM urls WHERE crawl_id = $1 AND attempts > 1`, [crawlId]);
    console.log(`refetched: ${JSON.stringify(refetched)}; claimed twice: ${JSON.stringify(twiceClaimedRows.rows)}`);
    console.log(`scale-out kill -9: ${pages.length} pages done (single process: ${singlePages.length}); the sweep returned ${row.returned_urls} in-flight URLs of the killed process; ${refetched.length} URLs requested twice`);
    expect(refetched.length).toBeLessThanOrEqual(row.returned_urls);
    // Each refetched URL is one the sweep gave back (claimed twice).
    if (refetched.length > 0) {
      const attempts = await client.query<{ url: string; attempts: number }>(`SELECT url, attempts FROM urls WHERE crawl_id = $1 AND attempts > 1`, [crawlId]);
      const twiceClaimed = new Set(attempts.rows.map((r) => new URL(r.url).pathname));
      for (const uri of refetched) expect(twiceClaimed.has(uri), uri).toBe(true);
    }
  }, MULTI_PROCESS_TIMEOUT_MS);
});

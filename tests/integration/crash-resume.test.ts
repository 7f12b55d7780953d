import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CLI, crawlbench, MULTI_PROCESS_TIMEOUT_MS, useTestWeb } from './harness';
import { seededRandom } from '../support/seeded-random';

const KILLS = 10;
/**
 * Each process is killed after it made between MIN_REQUESTS and MAX_REQUESTS page requests (seen
 * in nginx's access log), so the test acts on progress, not on time: on a fast or a slow machine
 * the kills land at the same points of the crawl, and 10 × 40 stays below the docs' 527 pages,
 * so the crawl cannot finish before the last kill.
 */
const MIN_REQUESTS = 15;
const MAX_REQUESTS = 40;
/** The PRNG seed for the kill points; CRASH_SEED=N replays another sequence. */
const SEED = Number(process.env.CRASH_SEED ?? 20_261_122);
const testWeb = useTestWeb('crash');


/** Page requests (robots.txt left out) in nginx's access log from byte `offset` on. */
function pageRequestsSince(offset: number): number {
  let count = 0;
  for (const [uri, n] of requestsSince(offset)) if (uri !== '/robots.txt') count += n;
  return count;
}

/** Resolves once nginx has logged `count` page requests after byte `offset`, or the child exited first. */
async function afterRequests(offset: number, count: number, exited: Promise<unknown>): Promise<boolean> {
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    if (pageRequestsSince(offset) >= count) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

/** Request counts per path in nginx's access log from byte `offset` on. */
function requestsSince(offset: number): Map<string, number> {
  const counts = new Map<string, number>();
  const text = fs.readFileSync(testWeb.web.nginx.accessLog, 'utf8').slice(offset);
  for (const line of text.split('\n')) {
    const uri = line.split(' ')[0];
    if (uri) counts.set(uri, (counts.get(uri) ?? 0) + 1);
  }
  return counts;
}

function states(dbPath: string, state: string): string[] {
  if (!fs.existsSync(dbPath)) return [];
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const hasUrls = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'urls'`).get();
    return hasUrls ? (db.prepare(`SELECT url FROM urls WHERE state = ? ORDER BY url`).pluck().all(state) as string[]) : [];
  } finally {
    db.close();
  }
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('crash-safe resume', () => {
  it(`survives kill -9 after ${KILLS} seeded numbers of requests: same page set as an uninterrupted crawl, re-fetches only URLs that were in flight`, async () => {
    const flags = [...testWeb.web.resolveFlags, '--closed'];
    // The uninterrupted reference crawl.
    const reference = path.join(testWeb.dir, 'reference.db');
    const run = crawlbench(['crawl', 'http://docs.python.test/', '--db', reference, ...flags]);
    expect(run.status, run.stderr).toBe(0);

    const random = seededRandom(SEED);
    const db = path.join(testWeb.dir, 'killed.db');
    const logOffset = fs.statSync(testWeb.web.nginx.accessLog).size;
    const inFlightAtKill = new Set<string>();
    const killPoints: number[] = [];
    for (let kill = 0; kill < KILLS; kill += 1) {
      const args = kill > 0 ? ['resume', '--db', db, ...flags] : ['crawl', 'http://docs.python.test/', '--db', db, ...flags];
      const requests = MIN_REQUESTS + Math.floor(random() * (MAX_REQUESTS - MIN_REQUESTS + 1));
      const offset = fs.statSync(testWeb.web.nginx.accessLog).size;
      const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const reached = await afterRequests(offset, requests, exited);
      expect(reached, `process ${kill + 1} exited before making ${requests} requests (seed ${SEED})`).toBe(true);
      child.kill('SIGKILL');
      await exited;
      killPoints.push(requests);
      for (const url of states(db, 'in_flight')) inFlightAtKill.add(pathOf(url));
    }
    const last = crawlbench(['resume', '--db', db, ...flags]);
    expect(last.status, last.stderr).toBe(0);

    // Nothing lost: the same pages done and the same errors as the uninterrupted crawl.
    expect(states(db, 'done')).toEqual(states(reference, 'done'));
    expect(states(db, 'error')).toEqual(states(reference, 'error'));
    expect(states(db, 'pending')).toEqual([]);
    expect(states(db, 'in_flight')).toEqual([]);
    // Nothing fetched twice except URLs that were in flight (claimed, not yet committed) at a kill.
    // robots.txt is the host's rules, re-read by each new process (its cache is in memory), not a crawl URL.
    const twice = [...requestsSince(logOffset)].filter(([uri, n]) => n > 1 && uri !== '/robots.txt').map(([uri]) => uri);
    for (const uri of twice) expect(inFlightAtKill, `${uri} was fetched twice but was not in flight at a kill (seed ${SEED})`).toContain(uri);
    console.log(
      `crash test (seed ${SEED}): ${KILLS} kills after ${killPoints.join(', ')} requests, ${states(db, 'done').length} pages done (reference ${states(reference, 'done').length}), ${twice.length} URLs fetched twice, all of them among the ${inFlightAtKill.size} in flight at a kill`,
    );
  }, MULTI_PROCESS_TIMEOUT_MS);
});

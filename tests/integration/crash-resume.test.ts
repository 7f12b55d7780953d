import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CLI, crawlbench, useTestWeb } from './harness';

const KILLS = 10;
const testWeb = useTestWeb('crash');

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
  it(`survives kill -9 at ${KILLS} random moments: same page set as an uninterrupted crawl, re-fetches only URLs that were in flight`, async () => {
    const flags = [...testWeb.web.resolveFlags, '--closed'];
    // The uninterrupted reference crawl.
    const reference = path.join(testWeb.dir, 'reference.db');
    const run = crawlbench(['crawl', 'http://docs.python.test/', '--db', reference, ...flags]);
    expect(run.status, run.stderr).toBe(0);

    const db = path.join(testWeb.dir, 'killed.db');
    const logOffset = fs.statSync(testWeb.web.nginx.accessLog).size;
    const inFlightAtKill = new Set<string>();
    let kills = 0;
    let started = false;
    while (kills < KILLS) {
      const args = started ? ['resume', '--db', db, ...flags] : ['crawl', 'http://docs.python.test/', '--db', db, ...flags];
      const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const delayMs = 900 + Math.floor(Math.random() * 1200);
      const outcome = await Promise.race([exited.then((code) => ({ code })), new Promise<null>((resolve) => setTimeout(() => resolve(null), delayMs))]);
      if (outcome !== null) break; // finished before this kill: nothing left to interrupt
      child.kill('SIGKILL');
      await exited;
      kills += 1;
      const pending = states(db, 'pending').length;
      const inFlight = states(db, 'in_flight');
      if (pending + inFlight.length + states(db, 'done').length > 0) started = true;
      for (const url of inFlight) inFlightAtKill.add(pathOf(url));
    }
    expect(kills).toBeGreaterThanOrEqual(5);
    const last = crawlbench([started ? 'resume' : 'crawl', ...(started ? ['--db', db] : ['http://docs.python.test/', '--db', db]), ...flags]);
    expect(last.status, last.stderr).toBe(0);

    // Nothing lost: the same pages done and the same errors as the uninterrupted crawl.
    expect(states(db, 'done')).toEqual(states(reference, 'done'));
    expect(states(db, 'error')).toEqual(states(reference, 'error'));
    expect(states(db, 'pending')).toEqual([]);
    expect(states(db, 'in_flight')).toEqual([]);
    // Nothing fetched twice except URLs that were in flight (claimed, not yet committed) at a kill.
    // robots.txt is the host's rules, re-read by each new process (its cache is in memory), not a crawl URL.
    const twice = [...requestsSince(logOffset)].filter(([uri, n]) => n > 1 && uri !== '/robots.txt').map(([uri]) => uri);
    for (const uri of twice) expect(inFlightAtKill, `${uri} was fetched twice but was not in flight at a kill`).toContain(uri);
    console.log(`crash test: ${kills} kills, ${states(db, 'done').length} pages done (reference ${states(reference, 'done').length}), ${twice.length} URLs fetched twice, all of them among the ${inFlightAtKill.size} in flight at a kill`);
  });
});

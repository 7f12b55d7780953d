import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './connection';
import { CrawlLease, LEASE_STALE_MS, leaseHolderAlive, otherLiveHolder, procStartOf, processOwner, readLease, type LeaseProbe, type LeaseRow } from './crawl-lease';

const NOW = 1_800_000_000_000;
const row = (over: Partial<LeaseRow> = {}): LeaseRow => ({
  ownerId: 'other-owner',
  pid: 4242,
  hostname: 'here',
  procStart: 'boot:100',
  crawlId: 3,
  acquiredAtMs: NOW - 60_000,
  heartbeatMs: NOW - 1_000,
  ...over,
});
const probe = (over: Partial<LeaseProbe> = {}): LeaseProbe => ({ hostname: 'here', alive: () => true, procStart: () => 'boot:100', ...over });
const me = { ownerId: 'me', pid: 1, hostname: 'here', procStart: 'boot:1' };

describe('leaseHolderAlive', () => {
  it('a live pid with the recorded start stamp is alive, even with an old heartbeat', () => {
    expect(leaseHolderAlive(row({ heartbeatMs: NOW - 10 * LEASE_STALE_MS }), NOW, probe(), me)).toBe(true);
  });
  it('a pid nobody has is dead', () => {
    expect(leaseHolderAlive(row(), NOW, probe({ alive: () => false }), me)).toBe(false);
  });
  it('a reused pid (another start stamp) is dead, even with a fresh heartbeat', () => {
    expect(leaseHolderAlive(row(), NOW, probe({ procStart: () => 'boot:999' }), me)).toBe(false);
  });
  it('our own pid under another owner id is an earlier process (containers reuse pids): dead', () => {
    expect(leaseHolderAlive(row({ pid: 1 }), NOW, probe(), me)).toBe(false);
  });
  it('without start stamps (another host, no /proc) the heartbeat decides', () => {
    expect(leaseHolderAlive(row({ hostname: 'elsewhere' }), NOW, probe(), me)).toBe(true);
    expect(leaseHolderAlive(row({ hostname: 'elsewhere', heartbeatMs: NOW - LEASE_STALE_MS - 1 }), NOW, probe(), me)).toBe(false);
    expect(leaseHolderAlive(row({ procStart: null, heartbeatMs: NOW - LEASE_STALE_MS - 1 }), NOW, probe(), me)).toBe(false);
  });
  it('our own row is ours', () => {
    expect(leaseHolderAlive(row({ ownerId: 'me' }), NOW, probe({ alive: () => false }), me)).toBe(true);
  });
});

describe('CrawlLease', () => {
  let dir: string;
  let child: ChildProcess | null = null;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-lease-'));
  });
  afterEach(() => {
    child?.kill('SIGKILL');
    child = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A lease row naming a real other process (a sleeping child), as another crawler would write it. */
  async function leaseOfLiveChild(db: ReturnType<typeof openDatabase>, crawlId: number): Promise<number> {
    child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((resolve) => child!.once('spawn', resolve));
    const pid = child.pid!;
    db.prepare(`INSERT INTO crawl_lease (id, owner_id, pid, hostname, proc_start, crawl_id, acquired_at_ms, heartbeat_ms) VALUES (1, 'child', ?, ?, ?, ?, ?, ?)`).run(
      pid,
      os.hostname(),
      procStartOf(pid),
      crawlId,
      Date.now(),
      Date.now(),
    );
    return pid;
  }

  it('refuses a second process with DB_BUSY naming its crawl and pid, and takes over once that process is dead', async () => {
    const db = openDatabase(path.join(dir, 'a.db'));
    db.prepare(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (3, '[]', '{}', 'running', 0)`).run();
    const pid = await leaseOfLiveChild(db, 3);
    expect(otherLiveHolder(db)?.pid).toBe(pid);
    expect(() => CrawlLease.acquire(db, 5)).toThrow(expect.objectContaining({ code: 'DB_BUSY', message: `crawl 3 is being run by pid ${pid} (stop it, or wait for it to finish)` }));
    expect(db.prepare(`SELECT status FROM crawls WHERE id = 3`).pluck().get()).toBe('running');

    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    expect(otherLiveHolder(db)).toBeNull();
    const lease = CrawlLease.acquire(db, 5);
    expect(readLease(db)).toMatchObject({ ownerId: processOwner().ownerId, pid: process.pid, crawlId: 5 });
    // The dead process's crawl is no one's any more.
    expect(db.prepare(`SELECT status FROM crawls WHERE id = 3`).pluck().get()).toBe('interrupted');
    expect(fs.existsSync(path.join(dir, 'a.db-reserve'))).toBe(true);
    lease.release();
    expect(readLease(db)).toBeNull();
    expect(fs.existsSync(path.join(dir, 'a.db-reserve'))).toBe(false);
    db.close();
  });

  it('is re-entrant within a process: the row stays until the last hold is released', () => {
    const db = openDatabase(path.join(dir, 'b.db'));
    const first = CrawlLease.acquire(db, 1);
    const second = CrawlLease.acquire(db, 2);
    expect(readLease(db)?.crawlId).toBe(2);
    first.release();
    first.release();
    expect(readLease(db)).not.toBeNull();
    second.release();
    expect(readLease(db)).toBeNull();
    db.close();
  });

  it('takes over a lease whose pid was reused by another process', async () => {
    const db = openDatabase(path.join(dir, 'c.db'));
    const pid = await leaseOfLiveChild(db, 7);
    db.prepare(`UPDATE crawl_lease SET proc_start = 'an-earlier-boot:1' WHERE pid = ?`).run(pid);
    const lease = CrawlLease.acquire(db, 8);
    expect(readLease(db)?.pid).toBe(process.pid);
    lease.release();
    db.close();
  });
});

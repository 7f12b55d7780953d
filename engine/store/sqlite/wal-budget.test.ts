/** The writer thread's WAL checkpoint size follows the disk's free space (wal-budget.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './connection';
import type { WritableDB } from './database';
import { MAX_WAL_AUTOCHECKPOINT_PAGES, MIN_WAL_AUTOCHECKPOINT_PAGES, WalBudget, walAutocheckpointPages } from './wal-budget';

const MiB = 1024 * 1024;

describe('walAutocheckpointPages', () => {
  it('is a quarter of the free space in pages, within its bounds', () => {
    expect(walAutocheckpointPages(60 * MiB, 4096)).toBe(3840);
    expect(walAutocheckpointPages(100 * 1024 * MiB, 4096)).toBe(MAX_WAL_AUTOCHECKPOINT_PAGES);
    expect(walAutocheckpointPages(Number.POSITIVE_INFINITY, 4096)).toBe(MAX_WAL_AUTOCHECKPOINT_PAGES);
    expect(walAutocheckpointPages(512 * 1024, 4096)).toBe(MIN_WAL_AUTOCHECKPOINT_PAGES);
    expect(walAutocheckpointPages(0, 4096)).toBe(MIN_WAL_AUTOCHECKPOINT_PAGES);
    expect(walAutocheckpointPages(60 * MiB, 8192)).toBe(1920);
  });
});

describe('WalBudget', () => {
  let folder: string;
  let db: WritableDB | null = null;
  afterEach(() => {
    db?.close();
    db = null;
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('sets the connection’s wal_autocheckpoint from the free space of the database’s folder, again as it shrinks', () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-wal-budget-'));
    const file = path.join(folder, 'c.db');
    db = openDatabase(file);
    let free = 10 * 1024 * MiB;
    const asked: string[] = [];
    const budget = new WalBudget(db, file, (dir) => {
      asked.push(dir);
      return free;
    });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(MAX_WAL_AUTOCHECKPOINT_PAGES);
    free = 40 * MiB;
    expect(budget.refresh()).toBe(2560);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(2560);
    expect(asked.every((dir) => dir === folder)).toBe(true);
  });

  it('reads the real free space when none is injected', () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-wal-budget-'));
    const file = path.join(folder, 'c.db');
    db = openDatabase(file);
    // Other processes may write meanwhile: the answer lies between the free space read before and after.
    const pagesNow = () => {
      const stats = fs.statfsSync(folder);
      return walAutocheckpointPages(stats.bavail * stats.bsize, 4096);
    };
    const before = pagesNow();
    const pages = new WalBudget(db, file).refresh();
    const after = pagesNow();
    expect(pages).toBeGreaterThanOrEqual(Math.min(before, after));
    expect(pages).toBeLessThanOrEqual(Math.max(before, after));
  });
});

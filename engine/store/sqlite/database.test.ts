// Read and write handles are different types (database.ts): a read handle passed to a writer is a
// compile error, checked by `npm run typecheck` through the @ts-expect-error lines below (an
// unneeded @ts-expect-error fails the build too), and the runtime checks show the types match
// what SQLite does with each handle.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database as DriverDatabase } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import { createCheckpoint, listCheckpoints } from './checkpoints';
import { openDatabase } from './connection';
import { CrawlLease, otherLiveHolder } from './crawl-lease';
import { CrawlReader, CrawlRepository } from './crawl-repository';
import { createSqliteCrawlStores } from './crawl-stores';
import type { ReadableDB, WritableDB } from './database';
import { SqliteFrontier } from './frontier';
import { FrontierRows } from './frontier-rows';
import { ExportQueries } from './queries/export-queries';
import { FrontierQueries } from './queries/frontier-queries';

/** Never called: its body only has to compile (or, on @ts-expect-error lines, fail to). */
function typeChecks(reader: ReadableDB, writer: WritableDB, raw: DriverDatabase): void {
  // Readers take either handle: a write handle may read.
  new CrawlReader(reader);
  new CrawlReader(writer);
  new ExportQueries(reader);
  new FrontierQueries(writer);
  listCheckpoints(reader);
  otherLiveHolder(reader);
  // Writers take the write handle only.
  new CrawlRepository(writer);
  // @ts-expect-error a read handle cannot reach the crawl repository's writes
  new CrawlRepository(reader);
  // @ts-expect-error nor the frontier
  new SqliteFrontier(reader, 1, { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 });
  // @ts-expect-error nor the frontier's rows
  new FrontierRows(reader, 1);
  // @ts-expect-error nor a crawl's stores
  createSqliteCrawlStores(reader, 1, DEFAULT_CRAWL_SETTINGS);
  // @ts-expect-error nor the crawl lease
  CrawlLease.acquire(reader, 1);
  // @ts-expect-error nor a checkpoint
  void createCheckpoint(reader, 1, 'x');
  // @ts-expect-error a driver handle that did not come through openDatabase is neither
  new CrawlReader(raw);
  // @ts-expect-error …for writing either
  new CrawlRepository(raw);
}

describe('read and write handles', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-handles-'));
    file = path.join(dir, 'crawl.db');
    const writer = openDatabase(file);
    new CrawlRepository(writer).createCrawl(['http://a.test/'], DEFAULT_CRAWL_SETTINGS, 1);
    writer.close();
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a read-only open reads through the read type, and SQLite refuses a write through it', () => {
    expect(typeChecks).toBeTypeOf('function');
    const reader = openDatabase(file, { readonly: true });
    try {
      expect(new CrawlReader(reader).getCrawl(1).seeds).toEqual(['http://a.test/']);
      // What the type forbids, SQLite refuses too: a writer forced onto the read handle fails on its first write.
      const forced = new CrawlRepository(reader as WritableDB);
      expect(() => forced.setStatus(1, 'stopped', null)).toThrow(/readonly/i);
    } finally {
      reader.close();
    }
  });

  it('a read-write open is the write type and is accepted by readers as well', () => {
    const writer: WritableDB = openDatabase(file);
    try {
      new CrawlRepository(writer).setStatus(1, 'stopped', 2);
      expect(new CrawlReader(writer).getCrawl(1).status).toBe('stopped');
    } finally {
      writer.close();
    }
  });
});

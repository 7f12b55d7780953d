// The store-writer thread through its client: writes land in order on the thread's own
// connection, a claim is written before its promise settles, a failed write keeps SQLite's code, and
// writes after the thread ended fail with a code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import type { ClaimedUrl } from '../ports';
import { openDatabase } from './connection';
import { CrawlRepository } from './crawl-repository';
import type { WritableDB } from './database';
import { LINK_KIND_CODES } from './link-codes';
import { InspectorQueries } from './queries/inspector-queries';
import { INLINKS_INDEX } from './sort-indexes';
import { WriterThreadClient } from './writer-client';

let dir: string;
let db: WritableDB;
let crawlId: number;
let client: WriterThreadClient | null = null;

const candidate = (name: string) => ({ url: `http://a.test/${name}`, normalized: `http://a.test/${name}`, normalizedKey: `key:${name}`, host: 'a.test', registrableDomain: 'a.test', depth: 0, discoveredFrom: null });
const stateOf = (id: number) => db.prepare(`SELECT state FROM urls WHERE id = ?`).pluck().get(id);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-writer-client-'));
  db = openDatabase(path.join(dir, 'crawl.db'));
  crawlId = new CrawlRepository(db).createCrawl(['http://a.test/'], DEFAULT_CRAWL_SETTINGS, 0);
});

afterEach(async () => {
  await client?.close();
  client = null;
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(): WriterThreadClient {
  client = new WriterThreadClient({ file: db.name, crawlId, settings: { nearDuplicateThreshold: 0.9 } });
  return client;
}

describe('WriterThreadClient (store-writer thread)', () => {
  it('applies claims and batches in the order sent, on its own connection', async () => {
    const writer = open();
    const added = await writer.commit({ nowMs: 1, candidates: [candidate('x'), candidate('y')] });
    expect(added).toMatchObject({ added: 2, addedHosts: ['a.test', 'a.test'] });
    const [x] = db.prepare(`SELECT id FROM urls WHERE crawl_id = ? ORDER BY id`).pluck().all(crawlId) as number[];
    const url: ClaimedUrl = { id: x!, url: 'http://a.test/x', host: 'a.test', depth: 0, attempts: 0, redirectHops: 0 };
    await writer.claimed([x!], 2);
    // Written before the claim's promise settled: a kill now leaves the URL in flight, never pending.
    expect(stateOf(x!)).toBe('in_flight');
    await writer.commit({ nowMs: 3, outcomes: [{ kind: 'done', url, disposition: { fetchMs: 1, nowMs: 3, httpStatus: 200 } }] });
    expect(stateOf(x!)).toBe('done');
    expect(db.prepare(`SELECT attempts, claimed_at_ms AS claimedAtMs FROM urls WHERE id = ?`).get(x!)).toEqual({ attempts: 1, claimedAtMs: 2 });
  });

  it('a claim refused on the thread fails with its error and SQLite code; the writes after it go through', async () => {
    db.exec(`CREATE TRIGGER refuse_claim BEFORE UPDATE OF state ON urls WHEN NEW.state = 'in_flight' BEGIN SELECT RAISE(FAIL, 'claim refused'); END`);
    const writer = open();
    await writer.commit({ nowMs: 1, candidates: [candidate('x')] });
    const id = db.prepare(`SELECT id FROM urls WHERE crawl_id = ?`).pluck().get(crawlId) as number;
    const failure = await writer.claimed([id], 2).then(
      () => null,
      (error: unknown) => error as Error & { code?: string },
    );
    expect(failure?.message).toBe('claim refused');
    expect(failure?.code).toMatch(/^SQLITE_CONSTRAINT/);
    expect(stateOf(id)).toBe('pending');
    // The run marks itself interrupted: that write goes through.
    await writer.setStatus('interrupted', null);
    expect(new CrawlRepository(db).getCrawl(crawlId).status).toBe('interrupted');
  });

  it('writes sent together are applied in order, and one refused among them fails alone while the others land', async () => {
    db.exec(`CREATE TRIGGER refuse_claim BEFORE UPDATE OF state ON urls WHEN NEW.state = 'in_flight' AND NEW.url = 'http://a.test/x' BEGIN SELECT RAISE(FAIL, 'claim refused'); END`);
    const writer = open();
    await writer.commit({ nowMs: 1, candidates: [candidate('x'), candidate('y'), candidate('z')] });
    const [x, y, z] = db.prepare(`SELECT id FROM urls WHERE crawl_id = ? ORDER BY id`).pluck().all(crawlId) as number[];
    // Sent in one tick: the thread finds them queued behind one another.
    const outcomes = await Promise.allSettled([writer.claimed([y!], 2), writer.claimed([x!], 3), writer.claimed([z!], 4), writer.setStatus('interrupted', null)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'claim refused', code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
    expect([stateOf(x!), stateOf(y!), stateOf(z!)]).toEqual(['pending', 'in_flight', 'in_flight']);
    expect(new CrawlRepository(db).getCrawl(crawlId).status).toBe('interrupted');
  });

  it('lets the WAL grow past the SQLite default 1,000-page checkpoint (wal-budget.ts, on a disk with room) instead of checkpointing every big commit', async () => {
    const writer = open();
    const long = (batch: number, index: number) => candidate(`${batch}-${index}-${'x'.repeat(900)}`);
    // Eight commits of about 2 MB each (three 900-character spellings per URL, plus their indexes).
    for (let batch = 0; batch < 8; batch += 1) await writer.commit({ nowMs: batch, candidates: Array.from({ length: 700 }, (_, index) => long(batch, index)) });
    // With the default, a commit past 4 MB of WAL checkpoints and the next one starts the file over (about 6 MB at most).
    expect(fs.statSync(`${db.name}-wal`).size).toBeGreaterThan(12 * 1024 * 1024);
  });

  it('drops the inlinks index while the run writes links and builds it again on close; inlinks read the same either way', async () => {
    const hasIndex = () => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?`).get(INLINKS_INDEX.name) !== undefined;
    expect(hasIndex()).toBe(true);
    const writer = open();
    await writer.commit({ nowMs: 1, candidates: [candidate('x'), candidate('y')] });
    expect(hasIndex()).toBe(false);
    const [x, y] = db.prepare(`SELECT id FROM urls WHERE crawl_id = ? ORDER BY id`).pluck().all(crawlId) as number[];
    db.prepare(`INSERT INTO links (crawl_id, from_url_id, to_url_id, kind) VALUES (?, ?, ?, ${LINK_KIND_CODES.a})`).run(crawlId, x, y);
    const inspector = new InspectorQueries(db);
    const during = inspector.inlinks(crawlId, y!, { offset: 0, limit: 10 });
    await writer.close();
    client = null;
    expect(hasIndex()).toBe(true);
    expect(inspector.inlinks(crawlId, y!, { offset: 0, limit: 10 })).toEqual(during);
    expect(during.total).toBe(1);
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT COUNT(*) FROM links WHERE crawl_id = ? AND to_url_id = ?`).all(crawlId, y) as { detail: string }[];
    expect(plan.map((step) => step.detail).join(' ')).toContain(INLINKS_INDEX.name);
  });

  it('after the thread has ended, every write fails with WRITER_THREAD_EXITED', async () => {
    const writer = open();
    await writer.setStatus('running', null);
    await writer.close();
    await expect(writer.commit({ nowMs: 1, candidates: [candidate('z')] })).rejects.toMatchObject({ code: 'WRITER_THREAD_EXITED' });
    expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = ?`).pluck().get(crawlId)).toBe(0);
  });
});

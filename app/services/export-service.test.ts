import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type WritableDB, openDatabase, ExportQueries, VersionQueries } from '../../engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExportProgress } from '../../shared/ipc/views';
import { PROFILES } from '../../shared/url/profiles';
import { insertCrawl } from '../../engine/store/sqlite/queries/test-rows';
import { CrawlRepository } from '../../engine';
import { groupCanonicalContext } from './canonical-context';
import { csvField, EXPORT_COLUMN_HEADERS, EXPORT_COLUMNS, ExportService } from './export-service';

let db: WritableDB;
let dir: string;
let reports: ExportProgress[];
let service: ExportService;

beforeEach(() => {
  db = openDatabase(':memory:');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-export-'));
  reports = [];
  const queries = new ExportQueries(db);
  const versions = new VersionQueries(db);
  service = new ExportService({ queries: () => queries, profileOf: () => PROFILES.standard, versions: () => versions, canonicalContextOf: () => groupCanonicalContext({}, PROFILES.standard) }, (progress) => reports.push(progress), { pageSize: 7, progressIntervalMs: 0 });
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function addPages(crawlId: number, ids: number[], title: (index: number) => string): void {
  const insert = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, title, fetched_at_ms) VALUES (?, ?, ?, 200, 'text/html', 10, 5, ?, 1000)`);
  ids.forEach((id, index) => insert.run(id, crawlId, `http://a.test/${index}`, title(index)));
}

describe('csvField', () => {
  it('quotes fields holding a comma, quote or line break (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(['case', 'www'])).toBe('case|www');
    expect(csvField(0)).toBe('0');
  });
});

describe('ExportService', () => {
  it('streams every page to CSV in keyset pages, with a header, CRLF lines and progress up to done', async () => {
    const { crawlId, ids } = insertCrawl(db, Array.from({ length: 30 }, (_, i) => ({ url: `http://a.test/${i}` })));
    addPages(crawlId, ids, (i) => (i === 3 ? 'Quotes "and", commas' : `Page ${i}`));
    // What custom extractors found (migration 0024): one JSON field in CSV.
    db.prepare(`INSERT INTO page_extractions (url_id, values_json) VALUES (?, ?)`).run(ids[5], JSON.stringify({ price: '12.50', tags: ['a', 'b'], n: 2 }));
    const file = path.join(dir, 'pages.csv');
    const { progress, done } = service.start({ crawlId, kind: 'pages', format: 'csv', file });
    expect(progress).toMatchObject({ state: 'running', totalRows: 30, rowsWritten: 0 });
    const last = await done;
    expect(last).toMatchObject({ state: 'done', rowsWritten: 30, totalRows: 30, error: null });
    const lines = fs.readFileSync(file, 'utf8').split('\r\n');
    expect(lines[0]).toBe('URL id,URL,Final URL,HTTP status,Content type,Body size (bytes),Body truncated,Fetch time (ms),Title,Fetched at (UTC),Content fingerprint,Text length (characters),"Redirect chain (JSON, older crawls)",Redirects to,Extracted values (JSON)');
    expect(lines[6]).toMatch(/,"\{""price"":""12\.50"",""tags"":\[""a"",""b""\],""n"":2\}"$/);
    expect(lines[5]).toMatch(/,$/);
    // Times in CSV are ISO 8601 UTC; JSONL keeps epoch ms (next test).
    expect(lines[1]).toContain(',1970-01-01T00:00:01.000Z,');
    expect(lines).toHaveLength(32); // header, 30 rows, final empty string
    expect(lines[4]).toContain(',"Quotes ""and"", commas",');
    // Progress after each page of 7 rows, then the final report.
    expect(reports.map((r) => r.rowsWritten)).toEqual([7, 14, 21, 28, 30, 30]);
    expect(reports.at(-1)!.state).toBe('done');
  });

  it('writes the frontier as JSONL, one object per URL with the columns in order', async () => {
    const { crawlId } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/x', from: 1, state: 'pending', depth: 1 }]);
    const file = path.join(dir, 'frontier.jsonl');
    await service.start({ crawlId, kind: 'frontier', format: 'jsonl', file }).done;
    const rows = fs.readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).toHaveLength(2);
    expect(Object.keys(rows[1]!)).toEqual([...EXPORT_COLUMNS.frontier]);
    expect(rows[1]).toMatchObject({ url: 'http://a.test/x', state: 'pending', depth: 1, discoveredFrom: rows[0]!['id'], fetchedAtMs: null });
    expect(rows[0]!['enqueuedAtMs']).toEqual(expect.any(Number));
  });

  it('every column of every export has a CSV header in words', () => {
    for (const columns of Object.values(EXPORT_COLUMNS)) {
      for (const column of columns) {
        // Words, not identifiers: capitalised, and no camelCase hump.
        expect(EXPORT_COLUMN_HEADERS[column], column).toMatch(/^[A-Z]/);
        expect(EXPORT_COLUMN_HEADERS[column], column).not.toMatch(/[a-z][A-Z]/);
      }
    }
    expect(EXPORT_COLUMN_HEADERS.normalized).toBe('Normalized URL');
    expect(EXPORT_COLUMN_HEADERS.normalizedKey).toBe('Normalized key');
  });

  it('the pages export counts what the Crawls list counts: fetched URLs, not a page whose URL went back to the frontier', async () => {
    const { crawlId, ids } = insertCrawl(db, Array.from({ length: 5 }, (_, i) => ({ url: `http://a.test/${i}` })));
    addPages(crawlId, ids, (i) => `Page ${i}`);
    // Two pages older than the refresh age go back to pending, as `resume --refresh-older-than` does.
    db.prepare(`UPDATE urls SET fetched_at_ms = 1 WHERE id IN (?, ?)`).run(ids[1], ids[3]);
    const repository = new CrawlRepository(db);
    expect(repository.requeueOlderThan(crawlId, 10, 100)).toBe(2);
    const listed = repository.getCrawl(crawlId).fetched;
    const file = path.join(dir, 'fetched.jsonl');
    const last = await service.start({ crawlId, kind: 'pages', format: 'jsonl', file }).done;
    expect(listed).toBe(3);
    expect(last).toMatchObject({ totalRows: listed, rowsWritten: listed });
  });

  it('exports URL groups one row per raw spelling, with the canonical URL, the layer and heuristic that chose it, and cause labels', async () => {
    const { crawlId } = insertCrawl(db, [{ url: 'http://s.test/' }, { url: 'http://s.test/item?sid=1', aliases: ['http://s.test/item#x'] }]);
    const file = path.join(dir, 'groups.jsonl');
    const last = await service.start({ crawlId, kind: 'urlGroups', format: 'jsonl', file }).done;
    expect(last.totalRows).toBe(2);
    const rows = fs.readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    // The fetched spelling carries a session id: the clean one is the canonical URL.
    expect(rows.map((row) => [row['rawUrl'], row['canonical'], row['isCanonical'], row['causes'], row['canonicalLayer'], row['decidedBy']])).toEqual([
      ['http://s.test/item#x', 'http://s.test/item', true, ['fragment'], 'heuristic', 'noSessionOrTracking'],
      ['http://s.test/item?sid=1', 'http://s.test/item', false, ['tracking parameter', 'empty query'], 'heuristic', 'noSessionOrTracking'],
    ]);
  });

  it('refuses a relative path, a wrong extension, a missing folder and an existing file before writing', () => {
    const { crawlId } = insertCrawl(db, [{ url: 'http://a.test/' }]);
    fs.writeFileSync(path.join(dir, 'taken.csv'), 'keep me');
    const start = (file: string, format: 'csv' | 'jsonl' = 'csv') => () => service.start({ crawlId, kind: 'pages', format, file });
    expect(start('relative.csv')).toThrow(expect.objectContaining({ code: 'EXPORT_PATH_INVALID' }));
    expect(start(path.join(dir, 'pages.csv'), 'jsonl')).toThrow(expect.objectContaining({ code: 'EXPORT_PATH_INVALID', message: expect.stringContaining('must end in .jsonl') }));
    expect(start(path.join(dir, 'missing', 'pages.csv'))).toThrow(expect.objectContaining({ code: 'EXPORT_PATH_INVALID', message: expect.stringContaining('does not exist') }));
    expect(start(path.join(dir, 'taken.csv'))).toThrow(expect.objectContaining({ code: 'EXPORT_EXISTS' }));
    expect(fs.readFileSync(path.join(dir, 'taken.csv'), 'utf8')).toBe('keep me');
    expect(reports).toEqual([]);
  });

  it('a read that fails mid-export reports failed with the reason and removes the partial file', async () => {
    const { crawlId, ids } = insertCrawl(db, Array.from({ length: 20 }, (_, i) => ({ url: `http://a.test/${i}` })));
    addPages(crawlId, ids, (i) => `Page ${i}`);
    const file = path.join(dir, 'broken.csv');
    const { done } = service.start({ crawlId, kind: 'pages', format: 'csv', file });
    db.close(); // the next page read throws
    const last = await done;
    expect(last.state).toBe('failed');
    expect(last.error).toMatchObject({ code: 'EXPORT_FAILED', message: expect.stringContaining(`Export to ${file} failed`) });
    expect(fs.existsSync(file)).toBe(false);
    db = openDatabase(':memory:');
  });
});

import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { crawlbench as cli, useTestWeb } from './harness';

const testWeb = useTestWeb('checkpoints');

const doneCount = (file: string) => {
  const db = new BetterSqlite3(file, { readonly: true });
  const n = db.prepare(`SELECT COUNT(*) FROM urls WHERE state = 'done'`).pluck().get() as number;
  db.close();
  return n;
};

describe('named checkpoints', () => {
  it('creates and lists a checkpoint, rolls back to it and resumes to the full page set', () => {
    const db = path.join(testWeb.dir, 'c.db');
    const flags = [...testWeb.web.resolveFlags, '--closed'];
    expect(cli(['crawl', 'http://docs.python.test/', '--db', db, ...flags, '--max-pages', '40']).status).toBe(0);
    const created = cli(['checkpoints', '--db', db, '--create', 'after-40', '--json']);
    expect(created.status, created.stderr).toBe(0);
    const [listed] = created.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(listed).toMatchObject({ crawlId: 1, name: 'after-40', pagesDone: 40 });
    expect(listed!['frontierSize']).toBeGreaterThan(0);
    expect(listed!['settingsHash']).toMatch(/^[0-9a-f]{16}$/);
    expect(fs.existsSync(String(listed!['file']))).toBe(true);
    expect(cli(['checkpoints', '--db', db, '--create', 'after-40']).stderr).toContain('already has a checkpoint named "after-40"');

    // Crawl on past the checkpoint, then roll back to it and resume: the crawl still completes.
    expect(cli(['resume', '--db', db, ...flags, '--max-pages', '0']).status).toBe(0);
    const full = doneCount(db);
    expect(full).toBe(527);
    // The snapshot carries its settings (max 40 pages): lift the limit again.
    const rolled = cli(['resume', '--db', db, '--checkpoint', 'after-40', '--max-pages', '0', ...flags, '--json']);
    expect(rolled.status, rolled.stderr).toBe(0);
    expect(rolled.stderr).toContain('rolled back to checkpoint after-40 (40 pages done');
    expect(doneCount(db)).toBe(full);
    expect(cli(['checkpoints', '--db', db]).stdout).toContain('after-40');
  });

  it('says plainly when there is nothing to resume or no such checkpoint', () => {
    const db = path.join(testWeb.dir, 'finished.db');
    expect(cli(['crawl', 'http://docs.python.test/', '--db', db, ...testWeb.web.resolveFlags, '--closed', '--max-pages', '0', '--max-depth', '0']).status).toBe(0);
    const nothing = cli(['resume', '--db', db]);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toMatch(/^crawlbench: NOTHING_TO_RESUME: No unfinished crawl in /);
    const missing = cli(['resume', '--db', db, '--checkpoint', 'nope']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('CHECKPOINT_NOT_FOUND: No checkpoint named "nope"');
  });

  it('resume refuses an empty file and a missing one without touching or creating them', () => {
    const empty = path.join(testWeb.dir, 'empty.db');
    fs.writeFileSync(empty, '');
    const refused = cli(['resume', '--db', empty]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^crawlbench: NOT_A_CRAWL_DB: .*empty\.db is empty, not a Crawlbench database/);
    expect(fs.statSync(empty).size).toBe(0);
    const missing = path.join(testWeb.dir, 'missing.db');
    expect(cli(['resume', '--db', missing]).stderr).toMatch(/^crawlbench: DB_NOT_FOUND: No database at /);
    expect(fs.existsSync(missing)).toBe(false);
  });
});

describe('crawlbench export', () => {
  it('writes errors, pages and URL groups as JSONL or CSV, to stdout or a new file', () => {
    const db = path.join(testWeb.dir, 'export.db');
    expect(cli(['crawl', 'http://docs.python.test/', '--db', db, ...testWeb.web.resolveFlags, '--closed', '--max-pages', '30']).status).toBe(0);
    const pages = cli(['export', '--db', db, '--what', 'pages']);
    expect(pages.status, pages.stderr).toBe(0);
    const rows = pages.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(30);
    expect(rows[0]).toMatchObject({ url: 'http://docs.python.test/', httpStatus: 200 });
    const csv = cli(['export', '--db', db, '--what', 'frontier', '--format', 'csv']);
    const lines = csv.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('URL id,URL,Normalized URL,Normalized key,Host,Registrable domain,State,Depth,Discovered from (URL id),Queued at (UTC),Fetched at (UTC),HTTP status,Error code,Error reason,Attempts');
    expect(lines.length - 1).toBeGreaterThan(30);
    const out = path.join(testWeb.dir, 'errors.jsonl');
    expect(cli(['export', '--db', db, '--what', 'errors', '--out', out]).status).toBe(0);
    expect(fs.existsSync(out)).toBe(true);
    const again = cli(['export', '--db', db, '--what', 'errors', '--out', out]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('exists already');
    expect(cli(['export', '--db', db, '--what', 'nope']).status).toBe(2);
  });
});

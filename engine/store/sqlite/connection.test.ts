import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodedError } from '../../../shared/types/result';
import { createParentFolder, openDatabase } from './connection';
import { MIGRATIONS } from './migrations';

describe('openDatabase', () => {
  let dir: string;
  const open: { close(): void; open: boolean }[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-conn-'));
  });

  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function codeOf(fn: () => unknown): CodedError {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(CodedError);
      return error as CodedError;
    }
    throw new Error('expected openDatabase to throw');
  }

  it('opens a temp file in WAL mode, migrated, with foreign keys on', () => {
    const file = path.join(dir, 'crawl.db');
    const db = openDatabase(file);
    open.push(db);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(fs.existsSync(file)).toBe(true);
  });

  it('refuses a path whose folder does not exist with DB_OPEN_FAILED naming the folder', () => {
    const file = path.join(dir, 'a', 'b', 'c', 'crawl.db');
    expect(() => openDatabase(file)).toThrow(expect.objectContaining({ code: 'DB_OPEN_FAILED', message: expect.stringContaining('does not exist') }));
    expect(fs.existsSync(path.join(dir, 'a'))).toBe(false);
  });

  it('opens a path under missing folders once createParentFolder made them', () => {
    const file = path.join(dir, 'a', 'b', 'c', 'crawl.db');
    createParentFolder(file);
    open.push(openDatabase(file));
    expect(fs.existsSync(file)).toBe(true);
  });

  it('createParentFolder fails instead of looping under procfs', () => {
    expect(() => createParentFolder('/proc/crawlbench-missing/deeper/x.db')).toThrow();
  });

  it('reopens an existing database and keeps its data', () => {
    const file = path.join(dir, 'crawl.db');
    const first = openDatabase(file);
    first.prepare(`INSERT INTO settings (key, value_json, updated_at_ms) VALUES ('k', '"v"', 1)`).run();
    first.close();
    const second = openDatabase(file);
    open.push(second);
    expect(second.prepare(`SELECT value_json FROM settings WHERE key = 'k'`).pluck().get()).toBe('"v"');
    expect(second.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('opens :memory: migrated', () => {
    const db = openDatabase(':memory:');
    open.push(db);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
  });

  it('an unwritable path (/proc/forbidden/x.db) fails with DB_OPEN_FAILED naming the file', () => {
    // Run in a child process with a hard timeout: a synchronous hang here would freeze the test worker.
    const moduleUrl = new URL('./connection.ts', import.meta.url).href;
    const script = `
      const { openDatabase } = await import(${JSON.stringify(moduleUrl)});
      try { openDatabase('/proc/forbidden/x.db'); console.log(JSON.stringify({ opened: true })); }
      catch (error) { console.log(JSON.stringify({ code: error.code, name: error.name, message: error.message })); }
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'),
      encoding: 'utf8',
      timeout: 3_000,
      killSignal: 'SIGKILL',
    });
    expect(child.signal, 'openDatabase did not return within 3 s (killed)').toBeNull();
    const outcome = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as { code?: string; name?: string; message?: string };
    expect(outcome.name).toBe('CodedError');
    expect(outcome.code).toBe('DB_OPEN_FAILED');
    expect(outcome.message).toContain('/proc/forbidden/x.db');
  });

  it('a path under a regular file fails with DB_OPEN_FAILED naming the file', () => {
    const blocker = path.join(dir, 'blocker');
    fs.writeFileSync(blocker, 'a file, not a folder');
    const file = path.join(blocker, 'sub', 'x.db');
    const error = codeOf(() => openDatabase(file));
    expect(error.code).toBe('DB_OPEN_FAILED');
    expect(error.message).toContain(file);
  });

  it('a file that is not SQLite fails with NOT_A_CRAWL_DB and is left unchanged', () => {
    const file = path.join(dir, 'not-a.db');
    fs.writeFileSync(file, 'this is a text file, not a database '.repeat(200));
    const before = fs.readFileSync(file);
    expect(codeOf(() => openDatabase(file)).code).toBe('NOT_A_CRAWL_DB');
    expect(codeOf(() => openDatabase(file, { readonly: true })).code).toBe('NOT_A_CRAWL_DB');
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('a database from a newer schema fails with SCHEMA_TOO_NEW mentioning the version, and is left unchanged', () => {
    const file = path.join(dir, 'future.db');
    const raw = new BetterSqlite3(file);
    raw.exec(`CREATE TABLE crawls (id INTEGER PRIMARY KEY); CREATE TABLE urls (id INTEGER PRIMARY KEY)`);
    raw.pragma('user_version = 42');
    raw.close();
    const before = fs.readFileSync(file);
    for (const options of [{}, { readonly: true }, { create: false }]) {
      const error = codeOf(() => openDatabase(file, options));
      expect(error.code).toBe('SCHEMA_TOO_NEW');
      expect(error.message).toMatch(/42/);
    }
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it("another program's SQLite database is refused with NOT_A_CRAWL_DB in every mode, byte-identical after", () => {
    const file = path.join(dir, 'foreign.db');
    const raw = new BetterSqlite3(file);
    raw.exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep me')`);
    raw.close();
    const before = fs.readFileSync(file);
    for (const options of [{}, { readonly: true }, { create: false }]) {
      const error = codeOf(() => openDatabase(file, options));
      expect(error.code).toBe('NOT_A_CRAWL_DB');
      expect(error.message).toContain('notes');
    }
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['foreign.db']);
  });

  it('an empty file: read-only and create: false refuse it unchanged; a read-write open initialises it', () => {
    const file = path.join(dir, 'empty.db');
    fs.writeFileSync(file, '');
    expect(codeOf(() => openDatabase(file, { readonly: true })).code).toBe('NOT_A_CRAWL_DB');
    expect(codeOf(() => openDatabase(file, { create: false })).code).toBe('NOT_A_CRAWL_DB');
    expect(fs.statSync(file).size).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['empty.db']);
    const db = openDatabase(file);
    open.push(db);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('read-only opens a Crawlbench database without changing a byte of it', () => {
    const file = path.join(dir, 'crawl.db');
    const made = openDatabase(file);
    made.prepare(`INSERT INTO settings (key, value_json, updated_at_ms) VALUES ('k', '"v"', 1)`).run();
    made.close();
    const before = fs.readFileSync(file);
    const db = openDatabase(file, { readonly: true });
    expect(db.prepare(`SELECT value_json FROM settings WHERE key = 'k'`).pluck().get()).toBe('"v"');
    expect(() => db.prepare(`DELETE FROM settings`).run()).toThrow(/readonly/);
    db.close();
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('a missing file: read-only and create: false refuse it with DB_NOT_FOUND and create nothing', () => {
    for (const options of [{ readonly: true }, { create: false }]) {
      expect(codeOf(() => openDatabase(path.join(dir, 'missing.db'), options)).code).toBe('DB_NOT_FOUND');
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { FrontierCandidate } from '../ports';
import { openDatabase } from './connection';
import type { WritableDB } from './database';
import { FrontierRows } from './frontier-rows';
import { VersionIndex } from './version-index';

function open(): WritableDB {
  const db = openDatabase(':memory:');
  db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
  return db;
}

function candidate(url: string): FrontierCandidate {
  return { url, normalized: url, normalizedKey: url, host: new URL(url).hostname, registrableDomain: null, depth: 1, discoveredFrom: null };
}

/** Inserts URLs as the commit path does: the URL-seen test, then the index for the new ones. */
function store(db: WritableDB, index: VersionIndex, urls: readonly string[]): void {
  const rows = new FrontierRows(db, 1);
  db.transaction(() => {
    const candidates = urls.map(candidate);
    const result = rows.insert(candidates, 0);
    for (const position of result.added) index.add({ id: result.ids[position]!, normalized: candidates[position]!.normalized });
  })();
}

function templates(db: WritableDB): Record<string, string[]> {
  const rows = db
    .prepare(
      `SELECT t.template, t.versions, group_concat(m.version, ' ') AS members FROM version_templates t JOIN url_versions m ON m.template_id = t.id
       WHERE t.crawl_id = 1 AND t.versions >= 2 GROUP BY t.id ORDER BY t.template`,
    )
    .all() as { template: string; versions: number; members: string }[];
  const out: Record<string, string[]> = {};
  for (const row of rows) {
    const members = row.members.split(' ').sort();
    expect(members.length, `${row.template}: versions counts its members`).toBe(row.versions);
    out[row.template] = members;
  }
  return out;
}

const DOCS = (version: string, page: string) => `http://docs.test/${version}/library/${page}.html`;

describe('VersionIndex (seed 001 version URL templates, kept as URLs are stored)', () => {
  it('writes a template only when its second version arrives, then adds each new version', () => {
    const db = open();
    const index = new VersionIndex(db, 1);
    store(db, index, [DOCS('3.11', 'os'), DOCS('3.11', 'datetime'), 'http://docs.test/about/15/x']);
    expect(db.prepare(`SELECT COUNT(*) FROM version_templates`).pluck().get()).toBe(0);
    store(db, index, [DOCS('3.12', 'os'), DOCS('dev', 'os'), DOCS('3.12', 'only-in-3.12')]);
    // The same URL offered again (a later batch) is not a new version.
    store(db, index, [DOCS('3.12', 'os')]);
    expect(templates(db)).toEqual({ 'http://docs.test/%s/library/os.html': ['3.11', '3.12', 'dev'] });
    expect(index.stats()).toMatchObject({ spilled: 0, probes: 0 });
    db.close();
  });

  it('stays exact when memory overflows: singletons spill to SQLite and later versions find them there', () => {
    const db = open();
    const index = new VersionIndex(db, 1, { maxBytes: 8 * 1024 });
    const pages = Array.from({ length: 300 }, (_, page) => `p${page}`);
    store(db, index, pages.map((page) => DOCS('3.11', page)));
    expect(index.stats().bytes).toBeLessThanOrEqual(8 * 1024);
    expect(index.stats().spilled).toBeGreaterThan(0);
    store(db, index, pages.map((page) => DOCS('3.12', page)));
    const found = templates(db);
    expect(Object.keys(found)).toHaveLength(300);
    for (const page of pages) expect(found[`http://docs.test/%s/library/${page}.html`], page).toEqual(['3.11', '3.12']);
    expect(index.stats().probes).toBeGreaterThan(0);
    // Stored pairs that memory dropped are found again too: a third version joins each template.
    store(db, index, pages.map((page) => DOCS('dev', page)));
    const third = templates(db);
    for (const page of pages) expect(third[`http://docs.test/%s/library/${page}.html`], page).toEqual(['3.11', '3.12', 'dev']);
    expect(index.stats().bytes).toBeLessThanOrEqual(8 * 1024);
    db.close();
  });

  it('catches up with a resumed crawl without counting a stored member twice', () => {
    const db = open();
    store(db, new VersionIndex(db, 1), [DOCS('3.11', 'os'), DOCS('3.12', 'os'), DOCS('3.11', 'sys')]);
    // A new run: the singleton 3.11/sys was only in the old run's memory.
    const resumed = new VersionIndex(db, 1);
    expect(resumed.catchUp()).toBe(3);
    store(db, resumed, [DOCS('3.12', 'sys'), DOCS('dev', 'os')]);
    expect(templates(db)).toEqual({ 'http://docs.test/%s/library/os.html': ['3.11', '3.12', 'dev'], 'http://docs.test/%s/library/sys.html': ['3.11', '3.12'] });
    db.close();
  });

  it('costs a string scan per URL on a one-version site (measured, printed)', () => {
    const db = open();
    const index = new VersionIndex(db, 1);
    const urls = Array.from({ length: 20_000 }, (_, page) => DOCS('3', `m${page}`));
    const start = performance.now();
    for (let id = 0; id < urls.length; id += 1) index.add({ id: id + 1, normalized: urls[id]! });
    const perUrlUs = ((performance.now() - start) * 1000) / urls.length;
    console.log(`version index: ${perUrlUs.toFixed(2)} µs per URL, ${(index.stats().bytes / urls.length).toFixed(0)} bytes per singleton`);
    expect(db.prepare(`SELECT COUNT(*) FROM version_templates`).pluck().get()).toBe(0);
    db.close();
  });
});

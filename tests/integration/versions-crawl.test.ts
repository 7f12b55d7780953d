/**
 * Issue 12 parts 7 and 8 end to end: a crawl of the versioned docs fixture (testweb/scope-sites/
 * versions.ts) on a database file (so the store-writer thread keeps the version index), then the
 * CLI's `export --what versions` and `--what url-groups` read back what the crawl stored.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlService } from '../../app/services/crawl-service';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { VERSIONS_SITES } from '../../testweb/scope-sites/versions';
import { crawlbench, fixtureOverrides } from './harness';

let fixtures: FixtureServer;
let dir: string;
let file: string;

beforeAll(async () => {
  fixtures = await startFixtureServer(VERSIONS_SITES, { dynamic: () => undefined });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-versions-'));
  file = path.join(dir, 'docs.db');
  const db = openDatabase(file);
  const service = new CrawlService(db);
  const overrides = fixtureOverrides(fixtures);
  const started = service.start(['http://pydocs.test/'], { hostOverrides: overrides, closedResolver: true, delayFactor: 0, minDelayMs: 0 });
  const summary = await started.done;
  expect(summary).toMatchObject({ status: 'finished', errors: 0 });
  db.close();
}, 120_000);

afterAll(async () => {
  await fixtures?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const jsonLines = (text: string): Record<string, unknown>[] => text.trimEnd().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('version URL templates and canonical layers on the versioned docs fixture', () => {
  it('export --what versions groups each page across versions, with the right version lists; one-version pages stay out', () => {
    const run = crawlbench(['export', '--db', file, '--what', 'versions']);
    expect(run.stderr).toMatch(/exported \d+ rows of versions/);
    expect(run.status).toBe(0);
    const rows = jsonLines(run.stdout);
    const templates = new Map<string, { versions: unknown; members: [unknown, unknown, unknown][] }>();
    for (const row of rows) {
      const entry = templates.get(row['template'] as string) ?? { versions: row['versions'], members: [] };
      entry.members.push([row['version'], row['url'], row['httpStatus']]);
      templates.set(row['template'] as string, entry);
    }
    const all = ['3.11', '3.12', 'dev'];
    expect(Object.fromEntries([...templates].map(([template, entry]) => [template, entry.versions]))).toEqual({
      // Templates come from normalized URLs: the standard profile drops the directory index.
      'http://pydocs.test/%s/': all,
      'http://pydocs.test/%s/library/os.html': all,
      'http://pydocs.test/%s/library/datetime.html': all,
      'http://pydocs.test/%s/library/tomllib.html': ['3.12', 'dev'],
    });
    // Members in version order, each the URL the crawl fetched (a tracked spelling when that came first) with its status.
    expect(templates.get('http://pydocs.test/%s/library/os.html')!.members).toEqual([
      ['3.11', 'http://pydocs.test/3.11/library/os.html', 200],
      ['3.12', 'http://pydocs.test/3.12/library/os.html?utm_source=newsletter&utm_medium=email', 200],
      ['dev', 'http://pydocs.test/dev/library/os.html', 200],
    ]);
    expect(rows.some((row) => String(row['url']).includes('asyncore') || String(row['url']).includes('changelog') || String(row['url']).includes('json'))).toBe(false);
    const csv = crawlbench(['export', '--db', file, '--what', 'versions', '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('Version template id,URL template,Versions of the page,Version,URL id,URL,State,HTTP status');
    expect(csv.stdout).toContain('http://pydocs.test/%s/library/tomllib.html,3.12|dev,3.12,');
  }, 60_000);

  it('URL groups: the canonical URL is the clean spelling, chosen by the heuristics or the page’s rel=canonical, never the tracked one fetched', () => {
    const run = crawlbench(['export', '--db', file, '--what', 'url-groups']);
    expect(run.status).toBe(0);
    const byGroup = new Map<string, Record<string, unknown>>();
    for (const row of jsonLines(run.stdout)) byGroup.set(row['normalized'] as string, row);
    const pick = (normalized: string) => {
      const row = byGroup.get(normalized);
      return row ? { canonical: row['canonical'], layer: row['canonicalLayer'], heuristic: row['decidedBy'] } : undefined;
    };
    expect(pick('http://pydocs.test/3.12/library/os.html')).toEqual({ canonical: 'http://pydocs.test/3.12/library/os.html', layer: 'heuristic', heuristic: 'noSessionOrTracking' });
    expect(pick('http://pydocs.test/3.11/library/datetime.html')).toEqual({ canonical: 'http://pydocs.test/3.11/library/datetime.html', layer: 'heuristic', heuristic: 'noSessionOrTracking' });
    expect(pick('http://pydocs.test/3.12/library/json.html')).toEqual({ canonical: 'http://pydocs.test/3.12/library/json.html', layer: 'relCanonical', heuristic: null });
    expect(byGroup.size).toBe(3);
  }, 60_000);
});

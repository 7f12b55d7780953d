import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { DUST_HOST, DUST_SITES, dustRoute } from '../../testweb/scope-sites/dust';
import { main } from '../index';
import { runCommandText } from '../run-command';

const cli = (argv: string[]) => runCommandText(main, argv, '');

let dir: string;
let fixtures: FixtureServer;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-dust-'));
  fixtures = await startFixtureServer(DUST_SITES, { dynamic: dustRoute });
});
afterAll(async () => {
  await fixtures?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('crawlbench dust', () => {
  it('lists the mined rules with support, accepts one (merged count), lists it, and undoes it', async () => {
    const db = path.join(dir, 'news.db');
    const crawl = await cli(['crawl', `http://${DUST_HOST}/`, '--db', db, '--resolve', `${DUST_HOST}=127.0.0.1:${fixtures.port}`, '--closed', '--delay-factor', '0', '--max-pages', '22']);
    expect(crawl.code, crawl.stderr).toBe(0);

    const listed = await cli(['dust', '--db', db]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^crawl 1: 22 fetched pages, \d+ buckets of duplicates/);
    expect(listed.stdout).toMatch(/\n +\d +\d+ +\d+ +0 +1\.00 {2}news\.test: \/story\?id=\{v\}\$ → \/story_\{v\}\.html\$\n/);
    expect(listed.stdout).toContain('news.test: /print/ → /');

    const json = await cli(['dust', '--db', db, '--json']);
    const proposals = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { number: number; description: string; support: number });
    const story = proposals.find((proposal) => proposal.description.includes('/story?id='))!;
    expect(story.support).toBeGreaterThanOrEqual(3);
    // A higher minimum support than any rule has proposes nothing.
    expect((await cli(['dust', '--db', db, '--min-support', '50'])).stdout).toContain('no DUST rules proposed');

    const accepted = await cli(['dust', '--db', db, '--accept', String(story.number), '--json']);
    expect(accepted.code, accepted.stderr).toBe(0);
    const outcome = JSON.parse(accepted.stdout) as { ruleId: number; merged: number; fetchesSaved: number };
    expect(outcome.merged).toBeGreaterThan(0);
    expect(outcome.fetchesSaved).toBe(outcome.merged);
    const rules = await cli(['dust', '--db', db, '--rules']);
    expect(rules.stdout).toMatch(new RegExp(`^ +${outcome.ruleId} {2}news\\.test: /story\\?id=.*in force\\): ${outcome.merged} merged`));

    const again = await cli(['dust', '--db', db, '--accept', String(story.number)]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^crawlbench: DUST_RULE_EXISTS: /);
    const undone = await cli(['dust', '--db', db, '--undo', String(outcome.ruleId)]);
    expect(undone.stdout).toMatch(new RegExp(`^undid rule ${outcome.ruleId} of crawl 1: ${outcome.merged} URLs restored, \\d+ URLs given back their key or depth\\n$`));
    expect((await cli(['dust', '--db', db, '--rules'])).stdout).toContain('undone 20');
  });

  it('refuses bad flags in one line', async () => {
    expect((await cli(['dust'])).stderr).toBe('crawlbench: MISSING_FLAG: --db FILE or --store URL is required (see crawlbench dust --help)\n');
    const both = await cli(['dust', '--db', 'x.db', '--accept', '1', '--rules']);
    expect([both.code, both.stderr]).toEqual([2, 'crawlbench: INVALID_FLAG: --accept, --undo and --rules go one at a time (see crawlbench dust --help)\n']);
    expect((await cli(['dust', '--db', 'x.db', '--min-support', '0'])).stderr).toContain('--min-support expects a whole number from 1');
    expect((await cli(['dust', '--db', path.join(dir, 'missing.db')])).stderr).toMatch(/^crawlbench: DB_NOT_FOUND: /);
  });
});

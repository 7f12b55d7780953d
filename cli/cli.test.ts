import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './index';
import { runCommandText } from './run-command';

/** Runs `crawlbench argv…` in-process with an empty stdin; stdout and stderr as text. */
const cli = (argv: string[]) => runCommandText(main, argv, '');

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-cli-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const COMMANDS = ['crawl', 'resume', 'checkpoints', 'export', 'dust', 'normalize', 'domain', 'serve', 'testweb'];

describe('crawlbench help', () => {
  it.each(COMMANDS)('%s: --help, -h and help <command> print its usage and the exit codes, exit 0', async (name) => {
    for (const argv of [[name, '--help'], [name, '-h'], ['help', name], [name, '--db', 'x.db', '--help']]) {
      const run = await cli(argv);
      expect(run.code, argv.join(' ')).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: crawlbench ${name}`));
      expect(run.stdout).toContain('143 stopped by SIGTERM');
      expect(run.stderr).toBe('');
    }
  });

  it('the overview lists the commands and documents the exit codes', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('crawlbench <command> --help');
    expect(run.stdout).toMatch(/Exit codes:\n {2}0 {4}done/);
    expect(run.stdout).toMatch(/ 3 {4}the disk refused a write \(DISK_FULL/);
  });

  it('help for an unknown command is a one-line error', async () => {
    const run = await cli(['help', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('crawlbench: unknown command "nope" (crawlbench help lists them)\n');
  });
});

describe('crawlbench flags', () => {
  const seed = 'http://nowhere.test/';
  it.each([
    [['--max-pages', '-5'], '--max-pages got "-5"'],
    [['--max-pages=-5'], '--max-pages expects a whole number from 0'],
    [['--max-pages', '0x10'], '--max-pages expects a whole number from 0 to 9007199254740991, got "0x10"'],
    [['--max-pages', '1e3'], '--max-pages expects'],
    [['--max-pages', ''], '--max-pages expects'],
    [['--max-pages', '99999999999999999999'], '--max-pages expects'],
    [['--threads', '100000'], '--threads expects a whole number from 1 to 256'],
    [['--max-depth', '1e9'], '--max-depth expects'],
    [['--timeout-ms', '-1'], '--timeout-ms got "-1"'],
    [['--delay-factor', '0x10'], '--delay-factor expects a number from 0 to 100, got "0x10"'],
    [['--delay-factor', 'Infinity'], '--delay-factor expects'],
    [['--checkpoint-every', '99999999999'], '--checkpoint-every expects a whole number from 1000 to 2147483647'],
    [['--user-agent', 'bot\r\nX-Injected: 1'], '--user-agent must be 1-512 printable characters without CR, LF'],
    [['--user-agent', 'bot\nx'], '--user-agent must be'],
    [['--page-text-chars', '1000001'], '--page-text-chars expects a whole number from 0 to 1000000, got "1000001"'],
    [['--page-text-chars', '-1'], '--page-text-chars got "-1"'],
  ])('crawl %j is refused in one line naming the flag, exit 2, no database created', async (flags, expected) => {
    const db = path.join(dir, 'flags.db');
    const run = await cli(['crawl', seed, '--db', db, ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(run.stderr).toMatch(/^crawlbench: INVALID_FLAG: /);
    expect(run.stderr).toContain(expected);
    expect(fs.existsSync(db)).toBe(false);
  });

  it('resume, export and checkpoints refuse negative and hex numbers too', async () => {
    for (const argv of [
      ['resume', '--db', 'x.db', '--max-pages', '-1'],
      ['resume', '--db', 'x.db', '--crawl', '0x1'],
      ['export', '--db', 'x.db', '--what', 'pages', '--crawl', '-2'],
      ['checkpoints', '--db', 'x.db', '--crawl', '1.5'],
      ['testweb', '--port', '0x50'],
      ['testweb', '--port', '70000'],
    ]) {
      const run = await cli(argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr, argv.join(' ')).toMatch(/^crawlbench: INVALID_FLAG: --(max-pages|crawl|port) /);
      expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
  });

  it('--page-text-chars sets how much visible text each page keeps (0: none), and crawl --help says so with the default', async () => {
    const { crawlSettingsFromFlags } = await import('./commands/crawl');
    expect(crawlSettingsFromFlags({ 'page-text-chars': '0' })).toEqual({ pageTextChars: 0 });
    expect(crawlSettingsFromFlags({ 'page-text-chars': '500' })).toEqual({ pageTextChars: 500 });
    const help = await cli(['crawl', '--help']);
    expect(help.stdout).toMatch(/--page-text-chars N +characters of each page's visible text kept for duplicate diffs,\n +0 to 1000000 \(default 2000; 0 keeps none/);
  });

  it('crawl --help spells list mode and seeds only, and says --max-depth 0 is not seeds only; bad patterns and modes are coded errors', async () => {
    const help = await cli(['crawl', '--help']);
    expect(help.stdout).toContain('crawlbench crawl --list FILE --db FILE');
    expect(help.stdout).toMatch(/--seeds-only +fetch the seeds and nothing else \(the same as --mode list\); note that\n +--max-depth 0 means no depth limit, not seeds only/);
    expect(help.stdout).toMatch(/--include REGEX/);
    const badPattern = await cli(['crawl', 'http://a.test/', '--db', path.join(dir, 'p.db'), '--include', '(unclosed']);
    expect([badPattern.code, badPattern.stderr]).toEqual([2, expect.stringMatching(/^crawlbench: INVALID_URL_REGEX: --include: pattern "\(unclosed": not a valid regular expression/)]);
    const backtracking = await cli(['crawl', 'http://a.test/', '--db', path.join(dir, 'p.db'), '--exclude', '(a)\\1']);
    expect([backtracking.code, backtracking.stderr]).toEqual([2, expect.stringMatching(/^crawlbench: INVALID_URL_REGEX: --exclude pattern "\(a\)\\\\1": This regular expression needs backtracking/)]);
    const badMode = await cli(['crawl', 'http://a.test/', '--db', path.join(dir, 'p.db'), '--mode', 'seeds']);
    expect(badMode.stderr).toBe('crawlbench: INVALID_FLAG: --mode must be one of spider, list, got "seeds"\n');
  });

  it('a missing --db is a one-line error with a code', async () => {
    const run = await cli(['export', '--what', 'pages']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('crawlbench: MISSING_FLAG: --db FILE or --store URL is required (see crawlbench export --help)\n');
  });
});

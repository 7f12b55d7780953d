import { PassThrough } from 'node:stream';
import { v5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { NORMALIZED_KEY_NAMESPACE } from '../../../../shared/url';
import { normalizeCommand, type CommandIo } from './normalize';

/** Runs a command with `input` on stdin; returns exit code, stdout JSON lines and stderr. */
async function run(command: (argv: string[], io: CommandIo) => Promise<number>, argv: string[], input: string) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  stdin.end(input);
  const code = await command(argv, { stdin, stdout, stderr });
  const lines = out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, lines, stderr: err };
}

describe('crawlbench normalize', () => {
  it('normalizes each line under the standard profile by default', async () => {
    const { code, lines, stderr } = await run(normalizeCommand, [], 'HTTP://Example.com:80/a/../b/index.html?utm_source=x#top\r\n\nhttps://a.test\n');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(lines).toEqual([
      { input: 'HTTP://Example.com:80/a/../b/index.html?utm_source=x#top', normalized: 'http://example.com/b/', key: v5('http://example.com/b/', NORMALIZED_KEY_NAMESPACE) },
      { input: 'https://a.test', normalized: 'https://a.test/', key: v5('https://a.test/', NORMALIZED_KEY_NAMESPACE) },
    ]);
  });

  it('seed 001 under --profile aggressive --explain: one key, and the rules that fired', async () => {
    const input = 'https://example.com/document/index.aspx\nhttp://www.example.com/document.html\nhttp://example.com/document/?utm_source=ref\n';
    const { lines } = await run(normalizeCommand, ['--profile', 'aggressive', '--explain'], input);
    expect(new Set(lines.map((line) => line['key'])).size).toBe(1);
    expect(lines.map((line) => line['normalized'])).toEqual(Array(3).fill('http://example.com/document'));
    expect(lines[1]?.['rules']).toEqual([
      { rule: 'removeWww', before: 'http://www.example.com/document.html', after: 'http://example.com/document.html' },
      { rule: 'removeFileExtension', before: 'http://example.com/document.html', after: 'http://example.com/document' },
    ]);
  });

  it('reports a line that is not a URL and goes on', async () => {
    const { code, lines } = await run(normalizeCommand, [], 'www.example.com\nhttp://a.test/\n');
    expect(code).toBe(0);
    expect(lines[0]).toEqual({ input: 'www.example.com', error: { code: 'MISSING_SCHEME', message: 'Not an absolute URL (no scheme): "www.example.com"' } });
    expect(lines[1]).toMatchObject({ input: 'http://a.test/', normalized: 'http://a.test/' });
  });

  it('rejects bad flags with one stderr line and exit code 2', async () => {
    for (const argv of [['--profile', 'wild'], ['--nope'], ['extra']]) {
      const { code, lines, stderr } = await run(normalizeCommand, argv, 'http://a.test/\n');
      expect(code).toBe(2);
      expect(lines).toEqual([]);
      expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(stderr).toMatch(/^crawlbench: normalize: /);
    }
  });
});

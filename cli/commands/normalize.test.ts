import { v5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../run-command';
import { NORMALIZED_KEY_NAMESPACE } from '../../shared/url';
import { normalizeCommand } from './normalize';

describe('crawlbench normalize', () => {
  it('normalizes each line under the standard profile by default', async () => {
    const { code, lines, stderr } = await runCommand(normalizeCommand, [], 'HTTP://Example.com:80/a/../b/index.html?utm_source=x#top\r\n\nhttps://a.test\n');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(lines).toEqual([
      { input: 'HTTP://Example.com:80/a/../b/index.html?utm_source=x#top', normalized: 'http://example.com/b/', key: v5('http://example.com/b/', NORMALIZED_KEY_NAMESPACE) },
      { input: 'https://a.test', normalized: 'https://a.test/', key: v5('https://a.test/', NORMALIZED_KEY_NAMESPACE) },
    ]);
  });

  it('seed 001 under --profile aggressive --explain: one key, and the rules that fired', async () => {
    const input = 'https://example.com/document/index.aspx\nhttp://www.example.com/document.html\nhttp://example.com/document/?utm_source=ref\n';
    const { lines } = await runCommand(normalizeCommand, ['--profile', 'aggressive', '--explain'], input);
    expect(new Set(lines.map((line) => line['key'])).size).toBe(1);
    expect(lines.map((line) => line['normalized'])).toEqual(Array(3).fill('http://example.com/document'));
    expect(lines[1]?.['rules']).toEqual([
      { rule: 'removeWww', before: 'http://www.example.com/document.html', after: 'http://example.com/document.html' },
      { rule: 'removeFileExtension', before: 'http://example.com/document.html', after: 'http://example.com/document' },
    ]);
  });

  it('reports a line that is not a URL and goes on', async () => {
    const { code, lines } = await runCommand(normalizeCommand, [], 'www.example.com\nhttp://a.test/\n');
    expect(code).toBe(0);
    expect(lines[0]).toEqual({ input: 'www.example.com', error: { code: 'MISSING_SCHEME', message: 'Not an absolute URL (no scheme): "www.example.com"' } });
    expect(lines[1]).toMatchObject({ input: 'http://a.test/', normalized: 'http://a.test/' });
  });

  it('rejects bad flags with one stderr line and exit code 2', async () => {
    for (const argv of [['--profile', 'wild'], ['--nope'], ['extra']]) {
      const { code, lines, stderr } = await runCommand(normalizeCommand, argv, 'http://a.test/\n');
      expect(code).toBe(2);
      expect(lines).toEqual([]);
      expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(stderr).toMatch(/^crawlbench: normalize: /);
    }
  });
});

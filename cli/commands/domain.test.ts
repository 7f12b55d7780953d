import { describe, expect, it } from 'vitest';
import { runCommand } from '../run-command';
import { domainCommand } from './domain';

describe('crawlbench domain', () => {
  it('uses PSL mode and the shipped snapshot by default', async () => {
    const { code, lines } = await runCommand(domainCommand, [], 'https://a.b.example.uk.com/x\nwww.city.kobe.jp\n127.0.0.1\n');
    expect(code).toBe(0);
    expect(lines.map((line) => [line['host'], line['registrableDomain'], line['publicSuffix']])).toEqual([
      ['a.b.example.uk.com', 'example.uk.com', 'uk.com'],
      ['www.city.kobe.jp', 'city.kobe.jp', 'kobe.jp'],
      ['127.0.0.1', '127.0.0.1', null],
    ]);
    expect(lines[0]?.['trace']).toContainEqual(expect.objectContaining({ step: 'check', candidate: 'uk.com', matched: true, rule: 'uk.com', source: 'private' }));
  });

  it('seed mode: the seed 000 worked example and its fallback message', async () => {
    const { lines } = await runCommand(domainCommand, ['--mode', 'seed', '--additional', 'co.uk'], 'http://www.xyz.co.uk\nwww.xyz.com\nwww.xyz.de\n');
    expect(lines[0]).toMatchObject({ input: 'http://www.xyz.co.uk', host: 'www.xyz.co.uk', registrableDomain: 'xyz.co.uk', publicSuffix: 'co.uk', fellBack: false });
    expect((lines[0]?.['trace'] as unknown[]).length).toBe(6);
    expect(lines[1]).toMatchObject({ registrableDomain: 'xyz.com' });
    expect(lines[2]).toMatchObject({ registrableDomain: 'xyz.de', fellBack: true, message: 'Failed to get the domain name for url: www.xyz.de using xyz.de as the default domain name' });
  });

  it('--generic replaces the generic list', async () => {
    const { lines } = await runCommand(domainCommand, ['--mode', 'seed', '--generic', 'de'], 'www.xyz.de\n');
    expect(lines[0]).toMatchObject({ registrableDomain: 'xyz.de', fellBack: false });
  });

  it('reports unusable hosts per line', async () => {
    const { code, lines } = await runCommand(domainCommand, [], '.com\n');
    expect(code).toBe(0);
    expect(lines[0]).toMatchObject({ input: '.com', registrableDomain: null, error: { code: 'INVALID_HOST' } });
  });

  it('rejects bad flags and bad list entries with exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--mode', 'dns'], /--mode must be "seed" or "psl"/],
      [['--additional', '.co.uk'], /additional\[0\] "\.co\.uk" has a leading dot/],
      [['--generic', 'Com'], /generic\[0\] "Com" must be lowercase/],
      [['--verbose'], /Unknown option/],
    ];
    for (const [argv, message] of cases) {
      const { code, stderr, lines } = await runCommand(domainCommand, argv, 'a.test\n');
      expect(code).toBe(2);
      expect(lines).toEqual([]);
      expect(stderr).toMatch(message);
    }
  });
});

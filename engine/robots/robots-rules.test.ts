import robotsParser from 'robots-parser';
import { describe, expect, it } from 'vitest';
import { compileRule, matchRule, ROBOTS_MAX_RULES, ROBOTS_MAX_WILDCARD_RULES, RobotsGroups, type MatchCounter } from './robots-rules';
import { RobotsTxt } from './robots';

const parserVerdict = (robotsTxt: string, path: string): boolean | undefined =>
  (robotsParser as (url: string, text: string) => { isAllowed(url: string, ua?: string): boolean | undefined })('http://a.test/robots.txt', robotsTxt).isAllowed(`http://a.test${path}`, 'bot');

describe('matchRule (RFC 9309 §2.2.3: * and a final $)', () => {
  it.each([
    ['/fish', '/fish', true],
    ['/fish', '/fish.html/x', true],
    ['/fish', '/Fish', false],
    ['/fish*', '/fishheads', true],
    ['/*.php', '/folder/filename.php?x', true],
    ['/*.php', '/windows.PHP', false],
    ['/*.php$', '/filename.php', true],
    ['/*.php$', '/filename.php?parameters', false],
    ['/*.php$', '/filename.php5', false],
    ['/fish*.php', '/fish/salmon.php', true],
    ['/fish*.php', '/Fish.PHP', false],
    ['/a*b*c$', '/abxbc', true],
    ['/a*b*c$', '/abc/c', true],
    ['/a*bc$', '/abc', true],
    ['/a*bc$', '/ac', false],
    ['/ab*b$', '/ab', false],
    ['/a$b', '/a$b/c', true],
    ['/*$', '/anything', true],
    ['$', '/', false],
  ])('%s against %s → %s', (pattern, path, expected) => {
    expect(matchRule(compileRule(pattern, false, 1), path)).toBe(expected);
  });

  it('agrees with robots-parser on 3,000 random patterns and paths', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const pick = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');
    for (let i = 0; i < 3_000; i += 1) {
      const pattern = `/${pick('ab*$', random(7))}`;
      const path = `/${pick('ab$', random(9))}`;
      const robotsTxt = `User-agent: *\nDisallow: ${pattern}\n`;
      expect(new RobotsTxt('http://a.test/robots.txt', robotsTxt).isAllowed(`http://a.test${path}`, 'bot'), `${pattern} vs ${path}`).toBe(parserVerdict(robotsTxt, path));
    }
  });
});

describe('RobotsGroups on hostile input (issue 9, defect 7)', () => {
  it('400 KB of wildcard rules against a 1,500-character path: work linear in path × rules kept, not path × pattern bytes', () => {
    const rule = (k: number) => `Disallow: /*${'a*'.repeat(100)}b${k}\n`;
    const count = Math.floor((400 * 1024) / rule(0).length);
    const text = `User-agent: *\n${Array.from({ length: count }, (_, k) => rule(k)).join('')}`;
    const robots = new RobotsTxt('http://a.test/robots.txt', text);
    expect(robots.ignoredRules).toBe(count - ROBOTS_MAX_WILDCARD_RULES);
    const path = `/r/1/${'a'.repeat(1_495)}`;
    const before = robots.matchSteps;
    expect(robots.isAllowed(`http://a.test${path}`, 'Crawlbench')).toBe(true);
    const steps = robots.matchSteps - before;
    // Each rule kept scans the path at most once plus its own pattern: 500 × (1,500 + 210) ≈ 0.9 M.
    // robots-parser's matcher does about pattern × path = 210 × 1,500 per rule (600 M for 1,900 rules), twice.
    expect(steps).toBeLessThanOrEqual(ROBOTS_MAX_WILDCARD_RULES * (path.length + rule(0).length + 2));
    const started = performance.now();
    for (let k = 0; k < 10; k += 1) robots.isAllowed(`http://a.test/r/${k}/${'a'.repeat(1_495)}`, 'Crawlbench');
    // A generous bound (the hostile suite measures the real figure): not seconds per URL.
    expect((performance.now() - started) / 10).toBeLessThan(250);
  });

  it(`keeps ${ROBOTS_MAX_RULES} rules and ignores (and counts) the rest`, () => {
    const lines = Array.from({ length: ROBOTS_MAX_RULES + 5 }, (_, k) => `Disallow: /r${k}/`);
    const robots = new RobotsTxt('http://a.test/robots.txt', `User-agent: *\n${lines.join('\n')}\n`);
    expect(robots.ignoredRules).toBe(5);
    expect(robots.isAllowed(`http://a.test/r${ROBOTS_MAX_RULES - 1}/x`, 'bot')).toBe(false);
    expect(robots.isAllowed(`http://a.test/r${ROBOTS_MAX_RULES}/x`, 'bot')).toBe(true);
  });

  it('keeps a repeated rule once (it changes no verdict), so repeats cost nothing and count toward no cap', () => {
    const robots = new RobotsTxt('http://a.test/robots.txt', `User-agent: *\n${'Disallow: /*x\n'.repeat(30_000)}Disallow: /*y\n`);
    expect(robots.ignoredRules).toBe(0);
    expect(robots.check('http://a.test/ay', 'bot')).toEqual({ allowed: false, applies: true, matchedLine: 30_002 });
    expect(robots.check('http://a.test/ax', 'bot')).toEqual({ allowed: false, applies: true, matchedLine: 2 });
  });

  it(`keeps at most ${ROBOTS_MAX_WILDCARD_RULES} rules with *`, () => {
    const lines = Array.from({ length: ROBOTS_MAX_WILDCARD_RULES + 3 }, (_, k) => `Disallow: /*r${k}/`);
    const robots = new RobotsTxt('http://a.test/robots.txt', `User-agent: *\n${lines.join('\n')}\nDisallow: /plain\n`);
    expect(robots.ignoredRules).toBe(3);
    expect(robots.isAllowed(`http://a.test/x/r${ROBOTS_MAX_WILDCARD_RULES - 1}/`, 'bot')).toBe(false);
    expect(robots.isAllowed(`http://a.test/x/r${ROBOTS_MAX_WILDCARD_RULES}/`, 'bot')).toBe(true);
    expect(robots.isAllowed('http://a.test/plain', 'bot')).toBe(false);
  });

  it('caps each group on its own: rules for other agents do not crowd out the group a check reads', () => {
    const other = Array.from({ length: ROBOTS_MAX_RULES + 10 }, (_, k) => `Disallow: /o${k}`).join('\n');
    const robots = new RobotsTxt('http://a.test/robots.txt', `User-agent: otherbot\n${other}\n\nUser-agent: *\nDisallow: /private\n`);
    expect(robots.ignoredRules).toBe(10);
    expect(robots.isAllowed('http://a.test/private/x', 'Crawlbench')).toBe(false);
    expect(robots.isAllowed('http://a.test/o1', 'Crawlbench')).toBe(true);
  });

  it('picks the longest match, allow on a tie, and reports its line', () => {
    const groups = new RobotsGroups('User-agent: *\nDisallow: /a\nAllow: /a*\nDisallow: /a/b\nAllow: /a/b\n');
    const counter: MatchCounter = groups.counter;
    expect(groups.decide('/a/b/c', 'x')).toMatchObject({ allow: true, line: 5 });
    expect(groups.decide('/a/c', 'x')).toMatchObject({ allow: true, line: 3 });
    expect(groups.decide('/b', 'x')).toBeNull();
    expect(counter.steps).toBeGreaterThan(0);
  });
});

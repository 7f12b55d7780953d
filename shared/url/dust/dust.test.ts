import { describe, expect, it } from 'vitest';
import { normalizeUrl } from '../normalize';
import { PROFILES } from '../profiles';
import { alignmentRule, urlTokens } from './align';
import { mineDustRules, type DustPage } from './mine';
import { applyDustRule, applyDustRules, describeDustRule, validateDustRule, type DustRule } from './rule';

const story: DustRule = { kind: 'substitution', host: 'news.test', from: ['/story?id=', ''], to: ['/story_', '.html'], endAnchored: true };
const print: DustRule = { kind: 'substitution', host: 'news.test', from: ['/print/'], to: ['/'], endAnchored: false };
const key = (url: string) => {
  const result = normalizeUrl(url, PROFILES.standard);
  return result.ok ? result.value.key : null;
};

describe('DUST rules', () => {
  it('a two-piece substitution carries the value over, and only on its host', () => {
    expect(applyDustRule('http://news.test/story?id=7', story)).toBe('http://news.test/story_7.html');
    expect(applyDustRule('http://NEWS.test:80/story?id=7#c', story)).toBe('http://NEWS.test:80/story_7.html');
    expect(applyDustRule('http://other.test/story?id=7', story)).toBeNull();
    // The value must be one value, and the rule's end is the URL's end.
    expect(applyDustRule('http://news.test/story?id=7&x=1', story)).toBeNull();
    expect(applyDustRule('http://news.test/story?id=', story)).toBeNull();
  });

  it('a one-piece substitution and a parameter rule', () => {
    expect(applyDustRule('http://news.test/print/story_7.html', print)).toBe('http://news.test/story_7.html');
    expect(applyDustRule('http://news.test/story_7.html', print)).toBeNull();
    const ref: DustRule = { kind: 'parameter', host: 'news.test', name: 'ref' };
    expect(applyDustRule('http://news.test/a?ref=home&x=1', ref)).toBe('http://news.test/a?x=1');
    expect(applyDustRule('http://news.test/a?ref', ref)).toBe('http://news.test/a');
    expect(applyDustRule('http://news.test/a?referrer=1', ref)).toBeNull();
    expect(applyDustRules('http://news.test/print/story_7.html?ref=x', [print, ref])).toBe('http://news.test/story_7.html');
  });

  it('describes and validates rules', () => {
    expect(describeDustRule(story)).toBe('news.test: /story?id={v}$ → /story_{v}.html$');
    expect(validateDustRule(JSON.parse(JSON.stringify(story)))).toEqual({ ok: true, value: story });
    expect(validateDustRule({ ...story, to: ['/story_'] })).toMatchObject({ ok: false, error: { code: 'INVALID_DUST_RULE', message: 'from and to must have as many pieces' } });
    expect(validateDustRule({ ...print, from: [''], to: ['/x/'] })).toMatchObject({ ok: false, error: { code: 'INVALID_DUST_RULE' } });
    expect(validateDustRule({ kind: 'parameter', host: 'a.test', name: 'a=b' })).toMatchObject({ ok: false, error: { code: 'INVALID_DUST_RULE' } });
    expect(validateDustRule({ kind: 'regex', host: 'a.test' })).toMatchObject({ ok: false, error: { message: 'kind must be "substitution" or "parameter"' } });
  });
});

describe('aligning a pair of URLs', () => {
  it('tokens are letter runs, digit runs and single other characters', () => {
    expect(urlTokens('/story?id=7')).toEqual(['/', 'story', '?', 'id', '=', '7']);
    expect(urlTokens('/a%2Fb_12x')).toEqual(['/', 'a', '%2F', 'b', '_', '12', 'x']);
  });

  it('finds the story rule, the print rule and the MediaWiki rule with context back to the last "/"', () => {
    expect(alignmentRule('http://n.test/story?id=7', 'http://n.test/story_7.html')).toEqual({ kind: 'substitution', host: 'n.test', from: ['/story?id=', ''], to: ['/story_', '.html'], endAnchored: true });
    expect(alignmentRule('http://n.test/story?id=7', 'http://n.test/story_7')).toEqual({ kind: 'substitution', host: 'n.test', from: ['/story?id='], to: ['/story_'], endAnchored: false });
    expect(alignmentRule('http://n.test/print/a/b.html', 'http://n.test/a/b.html')).toEqual({ kind: 'substitution', host: 'n.test', from: ['/print/'], to: ['/'], endAnchored: false });
    expect(alignmentRule('http://w.test/w/index.php?title=Foo', 'http://w.test/wiki/Foo')).toMatchObject({ from: ['/w/index.php?title='], to: ['/wiki/'] });
  });

  it('refuses pairs that are not one rule apart', () => {
    expect(alignmentRule('http://n.test/a', 'http://m.test/a')).toBeNull();
    expect(alignmentRule('http://n.test/a/1/b/2/c/3', 'http://n.test/x/1/y/2/z/3')).toBeNull();
    // The carried-over value would span a "/".
    expect(alignmentRule('http://n.test/p/a/b', 'http://n.test/q/a/b.html')).toBeNull();
  });
});

/** news.test: stories 1..n at both spellings and print copies of the first `prints`, plus decoys. */
function newsPages(n: number, prints: number): DustPage[] {
  const pages: DustPage[] = [{ url: 'http://news.test/', contentId: 'index' }];
  for (let id = 1; id <= n; id++) {
    pages.push({ url: `http://news.test/story?id=${id}`, contentId: `s${id}` }, { url: `http://news.test/story_${id}.html`, contentId: `s${id}` });
    if (id <= prints) pages.push({ url: `http://news.test/print/story_${id}.html`, contentId: `s${id}` });
  }
  return pages;
}

describe('mining DUST rules', () => {
  it('proposes the story and print rules with their support, canonical side as target', () => {
    const { proposals, stats } = mineDustRules(newsPages(6, 4), { identity: key });
    expect(proposals.map((p) => [p.description, p.support, p.refuted])).toEqual([
      ['news.test: /story?id={v}$ → /story_{v}.html$', 6, 0],
      ['news.test: /print/ → /', 4, 0],
    ]);
    expect(proposals[0]!.confirmed).toBe(12);
    expect(proposals[0]!.examples[0]).toEqual({ from: 'http://news.test/story?id=1', to: 'http://news.test/story_1.html' });
    expect(stats).toMatchObject({ pages: 17, buckets: 6, pairs: 6 + 4 * 2, pairsCapped: false });
  });

  it('support below the minimum proposes nothing', () => {
    expect(mineDustRules(newsPages(2, 2), { identity: key }).proposals).toEqual([]);
    expect(mineDustRules(newsPages(2, 2), { identity: key, minSupport: 2 }).proposals).toHaveLength(2);
  });

  it('a rule that the fetched pages refute is not proposed', () => {
    const pages = newsPages(4, 0);
    // Story 9 and 10 exist at both spellings with other content: 2 refutations of 8 + 2 checks.
    for (const id of [9, 10]) pages.push({ url: `http://news.test/story?id=${id}`, contentId: `a${id}` }, { url: `http://news.test/story_${id}.html`, contentId: `b${id}` });
    expect(mineDustRules(pages, { identity: key }).proposals).toEqual([]);
    const lenient = mineDustRules(pages, { identity: key, minConfidence: 0.6 }).proposals[0]!;
    expect([lenient.confirmed, lenient.refuted]).toEqual([8, 4]);
  });

  it('a parameter that never changes content is a parameter rule; one that does is not', () => {
    const pages: DustPage[] = [];
    for (let id = 1; id <= 4; id++) {
      pages.push({ url: `http://shop.test/item/${id}`, contentId: `i${id}` }, { url: `http://shop.test/item/${id}?ref=home`, contentId: `i${id}` });
      pages.push({ url: `http://shop.test/list?page=${id}`, contentId: `l${id}` });
    }
    pages.push({ url: 'http://shop.test/list', contentId: 'l1' });
    const { proposals } = mineDustRules(pages, { identity: key });
    expect(proposals.map((p) => [p.description, p.support])).toEqual([['shop.test: drop ?ref=', 4]]);
    expect(proposals[0]!.examples[0]).toEqual({ from: 'http://shop.test/item/1?ref=home', to: 'http://shop.test/item/1' });
  });

  it('skips buckets over the cap and stops at the pair cap', () => {
    const pages: DustPage[] = [];
    for (let id = 1; id <= 20; id++) pages.push({ url: `http://soft.test/missing/${id}`, contentId: 'not-found' });
    expect(mineDustRules(pages).stats).toMatchObject({ buckets: 1, bucketsSkipped: 1, pairs: 0 });
    expect(mineDustRules(newsPages(6, 4), { identity: key, maxPairs: 3 }).stats).toMatchObject({ pairs: 3, pairsCapped: true });
  });
});

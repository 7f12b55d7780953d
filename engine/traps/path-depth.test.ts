import { describe, expect, it } from 'vitest';
import { pathDepth, PathDepthDetector } from './path-depth';
import { DEFAULT_TRAP_THRESHOLDS } from './thresholds';
import { urlShape } from './url-shape';

const node = (url: string) => ({ url, shape: urlShape(url)! });

describe('path depth along one prefix (Heritrix TooManyPathSegments)', () => {
  it('counts directories by slashes', () => {
    expect(pathDepth('/3/library/')).toBe(3);
    expect(pathDepth('/3/library/os.html')).toBe(3);
  });

  it('holds any URL past the static floor of 20 levels', () => {
    const deep = `http://a.test/${Array.from({ length: 21 }, (_, i) => `s${i}`).join('/')}/`;
    const suspicion = new PathDepthDetector(DEFAULT_TRAP_THRESHOLDS).observeLink(null, node(deep))!;
    expect(suspicion.evidence.observed).toBe(22);
    expect(new RegExp(suspicion.pattern).test(deep)).toBe(true);
    expect(new RegExp(suspicion.pattern).test('http://a.test/a/b/c/')).toBe(false);
  });

  it('fires when links keep going a level deeper under their own page, and holds only deeper URLs of that prefix', () => {
    const detector = new PathDepthDetector(DEFAULT_TRAP_THRESHOLDS);
    let parent = node('http://gen.test/t/');
    let fired = null;
    let hops = 0;
    while (fired === null && hops < 30) {
      const child = node(`${parent.url}x${hops}/`);
      fired = detector.observeLink(parent, child);
      parent = child;
      hops += 1;
    }
    expect(hops).toBe(DEFAULT_TRAP_THRESHOLDS.depthChain);
    const regex = new RegExp(fired!.pattern);
    expect(regex.test(parent.url)).toBe(true);
    expect(regex.test(`${parent.url}deeper/`)).toBe(true);
    expect(regex.test('http://gen.test/t/x0/')).toBe(false);
    expect(regex.test('http://gen.test/other/x0/x1/x2/x3/x4/x5/x6/x7/x8/')).toBe(false);
  });

  it('does not fire on a docs tree of thousands of pages (a few levels deep)', () => {
    const detector = new PathDepthDetector(DEFAULT_TRAP_THRESHOLDS);
    const root = node('http://docs.test/3/');
    for (const section of ['library', 'reference', 'tutorial', 'howto', 'c-api']) {
      const index = node(`http://docs.test/3/${section}/`);
      expect(detector.observeLink(root, index)).toBeNull();
      for (let page = 0; page < 1000; page += 1) {
        const leaf = node(`http://docs.test/3/${section}/page${page}.html`);
        expect(detector.observeLink(index, leaf)).toBeNull();
        expect(detector.observeLink(leaf, node(`http://docs.test/3/${section}/page${(page + 1) % 1000}.html`))).toBeNull();
      }
    }
  });
});

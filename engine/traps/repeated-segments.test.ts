import { describe, expect, it } from 'vitest';
import { findSegmentRepeat, repeatedSegments } from './repeated-segments';
import { DEFAULT_TRAP_THRESHOLDS } from './thresholds';
import { urlShape } from './url-shape';

const check = (url: string) => repeatedSegments(urlShape(url)!, url, DEFAULT_TRAP_THRESHOLDS);

describe('repeated path segments (Heritrix PathologicalPath)', () => {
  it('finds a single segment or a block repeated three times in a row', () => {
    expect(findSegmentRepeat(['a', 'a', 'a', ''], 3)).toEqual({ prefix: [], block: ['a'], occurrences: 3 });
    expect(findSegmentRepeat(['docs', 'x', 'y', 'x', 'y', 'x', 'y', 'x', 'y', 'p.html'], 3)).toEqual({ prefix: ['docs'], block: ['x', 'y'], occurrences: 4 });
    expect(findSegmentRepeat(['a', 'a', ''], 3)).toBeNull();
    expect(findSegmentRepeat(['x', 'y', 'x', 'y', ''], 3)).toBeNull();
  });

  it('holds the loop and everything below it, not the pages before it', () => {
    const suspicion = check('http://loop.test/docs/a/a/a/')!;
    expect(suspicion.detector).toBe('repeated-segments');
    const regex = new RegExp(suspicion.pattern);
    expect(regex.test('http://loop.test/docs/a/a/a/')).toBe(true);
    expect(regex.test('http://loop.test/docs/a/a/a/a/b.html')).toBe(true);
    expect(regex.test('http://loop.test/docs/a/a/a?x=1')).toBe(true);
    expect(regex.test('http://loop.test/docs/a/a/')).toBe(false);
    expect(regex.test('http://loop.test/docs/a/a/ab/')).toBe(false);
    expect(suspicion.evidence).toMatchObject({ observed: 3, threshold: 3 });
  });

  it('leaves normal paths alone: docs trees, dated blog posts, empty segments', () => {
    for (const url of ['http://docs.test/3/library/os.path.html', 'http://blog.test/2024/05/05/slug', 'http://a.test//x//', 'http://a.test/en/en/page', 'http://a.test/1/1/2/']) expect(check(url)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { ParamExplosionDetector } from './param-explosion';
import { DEFAULT_TRAP_THRESHOLDS } from './thresholds';
import { urlShape } from './url-shape';

const observe = (detector: ParamExplosionDetector, url: string) => detector.observe(url, urlShape(url)!);

describe('query-parameter explosion', () => {
  it('fires on sort × view × page combinations and holds the path with two parameters or more', () => {
    const detector = new ParamExplosionDetector(DEFAULT_TRAP_THRESHOLDS);
    let fired = null;
    let seen = 0;
    for (let page = 1; page < 50 && fired === null; page += 1)
      for (const sort of ['price', 'name', 'date'])
        for (const view of ['grid', 'list']) {
          seen += 1;
          fired ??= observe(detector, `http://shop.test/list?sort=${sort}&view=${view}&page=${page}`);
        }
    expect(fired).not.toBeNull();
    expect(seen).toBeLessThanOrEqual(30);
    expect(fired!.template).toBe('/list?page=*&sort=*&view=*');
    const regex = new RegExp(fired!.pattern);
    expect(regex.test('http://shop.test/list?sort=name&page=9')).toBe(true);
    expect(regex.test('http://shop.test/list?page=9')).toBe(false);
    expect(regex.test('http://shop.test/list')).toBe(false);
    expect(regex.test('http://shop.test/listing?a=1&b=2')).toBe(false);
  });

  it('does not fire on a long list with a fixed second parameter, or on one-parameter pagination', () => {
    const detector = new ParamExplosionDetector(DEFAULT_TRAP_THRESHOLDS);
    for (let page = 1; page <= 500; page += 1) {
      expect(observe(detector, `http://shop.test/list?lang=en&page=${page}`)).toBeNull();
      expect(observe(detector, `http://shop.test/other?page=${page}`)).toBeNull();
    }
  });
});

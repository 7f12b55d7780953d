import { describe, expect, it } from 'vitest';
import { escapeRegex, templatePattern, urlNumbers, urlShape, urlTemplate } from './url-shape';

describe('urlShape and templates', () => {
  it('splits a URL into host, segments and query, without new URL', () => {
    expect(urlShape('http://A.test:8080/x/y/?q=1')).toEqual({ origin: 'http://A.test:8080', host: 'a.test', segments: ['x', 'y', ''], query: 'q=1', path: '/x/y/' });
    expect(urlShape('http://a.test?q=1')).toEqual({ origin: 'http://a.test', host: 'a.test', segments: [''], query: 'q=1', path: '/' });
    expect(urlShape('not a url')).toBeNull();
  });

  it('replaces numbers by {n} in the template, and lists them in order', () => {
    const shape = urlShape('http://a.test/calendar/2031/7?page=12&sort=asc')!;
    expect(urlTemplate(shape)).toBe('/calendar/{n}/{n}?page={n}&sort=asc');
    expect(urlNumbers(shape)).toBe('2031,7,12');
  });

  it('builds a pattern that matches the template and nothing longer', () => {
    const regex = new RegExp(templatePattern('cal.test', '/calendar/{n}/{n}'));
    expect(regex.test('http://cal.test:4000/calendar/2031/7')).toBe(true);
    expect(regex.test('https://cal.test/calendar/1/12')).toBe(true);
    expect(regex.test('http://cal.test/calendar/2031/7/events')).toBe(false);
    expect(regex.test('http://calxtest/calendar/2031/7')).toBe(false);
    expect(regex.test('http://other.test/calendar/2031/7')).toBe(false);
  });

  it('escapes so that the pattern also compiles with the u flag (as a linear-time engine reads it)', () => {
    const source = templatePattern('a-b.test', '/x(1)/{n}.html?a=[b]');
    expect(() => new RegExp(source, 'u')).not.toThrow();
    expect(new RegExp(source, 'u').test('http://a-b.test/x(1)/7.html?a=[b]')).toBe(true);
    expect(escapeRegex('a.b*c')).toBe('a\\.b\\*c');
  });
});

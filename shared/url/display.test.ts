import { describe, expect, it } from 'vitest';
import { toDisplayUrl } from './display';

describe('toDisplayUrl', () => {
  it('shows punycode hosts in Unicode', () => {
    expect(toDisplayUrl('http://xn--85x722f.xn--55qx5d.cn/a?b#c')).toBe('http://食狮.公司.cn/a?b#c');
  });
  it('returns other input unchanged', () => {
    expect(toDisplayUrl('http://example.com/a')).toBe('http://example.com/a');
    expect(toDisplayUrl('not a url')).toBe('not a url');
  });
});

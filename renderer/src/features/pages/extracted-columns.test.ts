import { describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../../../shared/types/crawl';
import { extractedColumnKey, extractedText, extractorNames } from './extracted-columns';

describe('extracted columns', () => {
  it('renders values compactly: strings as is, lists joined, counts as numbers, nothing as empty', () => {
    expect(extractedText('12.50')).toBe('12.50');
    expect(extractedText(['30.00', '35.00'])).toBe('30.00 · 35.00');
    expect(extractedText(3)).toBe('3');
    expect(extractedText(0)).toBe('0');
    expect(extractedText([])).toBe('');
    expect(extractedText(null)).toBe('');
    expect(extractedText(undefined)).toBe('');
  });

  it('takes one column per extractor of the crawl, in its order', () => {
    const extractors = [
      { name: 'price', kind: 'css', expression: '.price', mode: 'first' },
      { name: 'images', kind: 'css', expression: 'img', mode: 'count' },
    ] as const;
    expect(extractorNames({ extractors: [...extractors] })).toEqual(['price', 'images']);
    expect(extractorNames(DEFAULT_CRAWL_SETTINGS)).toEqual([]);
    expect(extractorNames(null)).toEqual([]);
    expect(extractedColumnKey('price')).toBe('extracted:price');
  });
});

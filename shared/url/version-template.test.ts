import { describe, expect, it } from 'vitest';
import { fillVersionTemplate, groupByVersionTemplate, isVersionSegment } from './version-template';

describe('version URL templates (seed 001)', () => {
  it('recognises versions and channels', () => {
    for (const segment of ['3.11', '3', 'v2', '15', '2.7.18', '1.x', 'latest', 'stable', 'dev', 'Latest']) expect(isVersionSegment(segment), segment).toBe(true);
    for (const segment of ['library', 'datetime.html', '1732348', 'v', '3.11a', '']) expect(isVersionSegment(segment), segment).toBe(false);
  });

  it('the seed example: https://docs.python.org/%s/library/datetime.html', () => {
    const urls = ['3.11', '3.12', '3', 'dev', '2.7'].map((version) => `https://docs.python.org/${version}/library/datetime.html#datetime.date`);
    const grouping = groupByVersionTemplate([...urls, 'https://docs.python.org/3.12/library/os.html', 'https://docs.python.org/3/library/os.html']);
    expect(grouping.templates.map(({ template, versions }) => ({ template, versions }))).toEqual([
      { template: 'https://docs.python.org/%s/library/datetime.html', versions: ['2.7', '3', '3.11', '3.12', 'dev'] },
      { template: 'https://docs.python.org/%s/library/os.html', versions: ['3', '3.12'] },
    ]);
    expect(grouping.templates[0]?.urls).toContainEqual({ url: urls[0], version: '3.11' });
    expect(grouping.ungrouped).toEqual([]);
  });

  it('a lone version-like segment is not a template; other sites and languages stay apart', () => {
    const grouping = groupByVersionTemplate([
      'https://example.com/blog/15/post',
      'https://docs.python.org/ja/3.11/library/os.html',
      'https://docs.python.org/ja/3.12/library/os.html',
      'https://docs.python.org/3.12/library/os.html',
      'not a url',
    ]);
    expect(grouping.templates.map((template) => template.template)).toEqual(['https://docs.python.org/ja/%s/library/os.html']);
    expect(grouping.ungrouped.sort()).toEqual(['https://docs.python.org/3.12/library/os.html', 'https://example.com/blog/15/post', 'not a url']);
  });

  it('prefers the position with more versions', () => {
    const grouping = groupByVersionTemplate(['https://d.test/v1/3.11/x', 'https://d.test/v1/3.12/x', 'https://d.test/v1/3.13/x', 'https://d.test/v2/3.13/x']);
    expect(grouping.templates[0]).toMatchObject({ template: 'https://d.test/v1/%s/x', versions: ['3.11', '3.12', '3.13'] });
  });

  it('fillVersionTemplate restores literal % signs', () => {
    const grouping = groupByVersionTemplate(['https://d.test/1.0/a%20b', 'https://d.test/2.0/a%20b']);
    expect(grouping.templates[0]?.template).toBe('https://d.test/%s/a%%20b');
    expect(fillVersionTemplate('https://d.test/%s/a%%20b', '3.0')).toBe('https://d.test/3.0/a%20b');
  });
});

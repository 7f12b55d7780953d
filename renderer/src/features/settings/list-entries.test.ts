import { describe, expect, it } from 'vitest';
import { additionalTldProblem, extensionProblem, genericTldProblem, importEntries, splitPipeList } from './list-entries';

describe('list entry validators', () => {
  it('TLD entries follow shared/url rules', () => {
    expect(genericTldProblem('com')).toBeNull();
    expect(genericTldProblem('co.uk')).toMatch(/single label/);
    expect(additionalTldProblem('co.uk')).toBeNull();
    expect(additionalTldProblem('.co.uk')).toBe('has a leading dot (write "co.uk")');
    expect(additionalTldProblem('Co.UK')).toBe('must be lowercase');
  });

  it('extensions are lowercase without the dot, with a suggestion', () => {
    expect(extensionProblem('pdf')).toBeNull();
    expect(extensionProblem('.PDF')).toBe('must be lowercase letters and digits without the dot (write "pdf")');
    expect(extensionProblem('tar.gz')).toBe('must be lowercase letters and digits without the dot');
  });
});

describe('importEntries', () => {
  it('keeps new valid entries in order and reports the rest', () => {
    expect(importEntries('# my list\npdf|doc, zip\n.PS\npdf', ['zip'], extensionProblem)).toEqual({
      added: ['pdf', 'doc'],
      rejected: ['".PS" must be lowercase letters and digits without the dot (write "ps")'],
    });
  });

  it('splits the pipe-separated list', () => {
    expect(splitPipeList('zip||gz|')).toEqual(['zip', 'gz']);
    expect(splitPipeList('')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { parseLinkHeader } from './link-header';

describe('parseLinkHeader (RFC 8288)', () => {
  it('reads targets and rel values', () => {
    expect(parseLinkHeader('<https://a.test/p>; rel="canonical", </x>; rel="next prefetch"; title="a, b; c"')).toEqual([
      { target: 'https://a.test/p', rels: ['canonical'] },
      { target: '/x', rels: ['next', 'prefetch'] },
    ]);
  });
  it('accepts unquoted and uppercase rel values and extra parameters', () => {
    expect(parseLinkHeader('<https://a.test/p>; type=text/html; REL=Canonical')).toEqual([{ target: 'https://a.test/p', rels: ['canonical'] }]);
  });
  it('returns nothing for junk', () => {
    expect(parseLinkHeader('canonical')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { aliasWrite } from './aliases';

describe('aliasWrite', () => {
  it('keeps a spelling without a fragment whole', () => {
    expect(aliasWrite('k', 'HTTP://a.test:80/x?b=1&a=2', 3)).toEqual({ toKey: 'k', rawUrl: 'HTTP://a.test:80/x?b=1&a=2', fromUrlId: 3 });
  });

  it('stores a #fragment spelling as the spelling without it, counted once', () => {
    expect(aliasWrite('k', 'http://a.test/x#top', 3)).toEqual({ toKey: 'k', rawUrl: 'http://a.test/x', fromUrlId: 3, fragmentSpellings: 1 });
    // Only the first # starts the fragment; what differs before it is kept.
    expect(aliasWrite('k', 'http://A.test/x?q#a#b', null)).toEqual({ toKey: 'k', rawUrl: 'http://A.test/x?q', fromUrlId: null, fragmentSpellings: 1 });
    expect(aliasWrite('k', 'http://a.test/#', null)).toEqual({ toKey: 'k', rawUrl: 'http://a.test/', fromUrlId: null, fragmentSpellings: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import type { PageResult } from '../worker/protocol';
import { addRenderedLinks } from './rendered-links';

const page = (links: PageResult['links']): PageResult => ({ links, linksOverCap: 0 }) as unknown as PageResult;

describe('addRenderedLinks', () => {
  it('adds only the links the static HTML did not have, as kind rendered, once each', () => {
    const result = page([{ url: 'http://a.test/static', kind: 'a' }, { url: 'http://a.test/canon', kind: 'canonical' }]);
    const added = addRenderedLinks(
      result,
      [
        { url: 'http://a.test/static#top', text: 'static', rel: '' },
        { url: 'http://a.test/canon', text: '', rel: '' },
        { url: 'http://a.test/js', text: 'JS', rel: 'nofollow' },
        { url: 'http://a.test/js#again', text: 'JS again', rel: '' },
        { url: 'javascript:void(0)', text: 'menu', rel: '' },
      ],
      2048,
    );
    expect(added).toBe(1);
    expect(result.links.at(-1)).toEqual({ url: 'http://a.test/js', kind: 'rendered', anchorText: 'JS', rel: 'nofollow' });
  });

  it('sends a too-long rendered link cut, for the url-length rule', () => {
    const result = page([]);
    addRenderedLinks(result, [{ url: `http://a.test/${'x'.repeat(100)}`, text: 't', rel: '' }], 50);
    expect(result.links).toEqual([{ url: `http://a.test/${'x'.repeat(100)}`, kind: 'rendered', tooLong: true }]);
  });
});

import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../shared/url/profiles';
import { openDatabase } from '../../engine';
import { insertCrawl } from '../../engine/store/sqlite/queries/test-rows';
import { PREVIEW_EXAMPLES, previewNormalization } from './normalization-preview';

describe('previewNormalization', () => {
  it('counts keys that would change, groups that would merge and groups that would split', () => {
    const db = openDatabase(':memory:');
    const { crawlId } = insertCrawl(db, [
      { url: 'http://www.a.test/doc.html' },
      { url: 'http://a.test/doc', aliases: ['http://a.test/doc#top'] },
      { url: 'http://a.test/other' },
    ]);
    // aggressive drops www and .html: /doc.html and www.a.test/doc merge into one key.
    expect(previewNormalization(db, crawlId, PROFILES.aggressive)).toEqual({
      examined: 3,
      sampled: false,
      changedKeys: 1,
      mergedGroups: 1,
      splitGroups: 0,
      changedExamples: [{ url: 'http://www.a.test/doc.html', before: 'http://www.a.test/doc.html', after: 'http://a.test/doc' }],
      mergedExamples: [{ after: 'http://a.test/doc', before: ['http://www.a.test/doc.html', 'http://a.test/doc'], count: 2 }],
      splitExamples: [],
    });
    // safe keeps fragments: the group of http://a.test/doc splits.
    expect(previewNormalization(db, crawlId, PROFILES.safe)).toMatchObject({ splitGroups: 1, mergedGroups: 0, splitExamples: [{ before: 'http://a.test/doc', after: ['http://a.test/doc', 'http://a.test/doc#top'], count: 2 }] });
    expect(previewNormalization(db, crawlId, PROFILES.standard)).toMatchObject({ changedKeys: 0, mergedGroups: 0, splitGroups: 0 });
    expect(previewNormalization(db, crawlId, PROFILES.aggressive, 2)).toMatchObject({ examined: 2, sampled: true });
    db.close();
  });

  it('keeps at most PREVIEW_EXAMPLES examples of each kind while counting them all', () => {
    const db = openDatabase(':memory:');
    const { crawlId } = insertCrawl(db, Array.from({ length: PREVIEW_EXAMPLES + 5 }, (_, i) => ({ url: `http://www.a.test/p${i}.html` })));
    const preview = previewNormalization(db, crawlId, PROFILES.aggressive);
    expect(preview.changedKeys).toBe(PREVIEW_EXAMPLES + 5);
    expect(preview.changedExamples).toHaveLength(PREVIEW_EXAMPLES);
    expect(preview.changedExamples[0]).toEqual({ url: 'http://www.a.test/p0.html', before: 'http://www.a.test/p0.html', after: 'http://a.test/p0' });
    db.close();
  });
});

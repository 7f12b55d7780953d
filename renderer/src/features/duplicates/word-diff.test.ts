import { describe, expect, it } from 'vitest';
import { diffWords, MAX_DIFF_WORDS } from './word-diff';

describe('diffWords', () => {
  it('marks the words each side has alone, in order', () => {
    expect(diffWords('Filed by the night clerk on Monday.', 'Signed by the day judge on Friday.')).toEqual([
      { kind: 'removed', text: 'Filed' },
      { kind: 'added', text: 'Signed' },
      { kind: 'same', text: 'by the' },
      { kind: 'removed', text: 'night clerk' },
      { kind: 'added', text: 'day judge' },
      { kind: 'same', text: 'on' },
      { kind: 'removed', text: 'Monday.' },
      { kind: 'added', text: 'Friday.' },
    ]);
  });

  it('identical texts are one run; whitespace differences do not count', () => {
    expect(diffWords('a  b\nc', 'a b c')).toEqual([{ kind: 'same', text: 'a b c' }]);
  });

  it('handles an empty side', () => {
    expect(diffWords('', 'new words')).toEqual([{ kind: 'added', text: 'new words' }]);
    expect(diffWords('old', '')).toEqual([{ kind: 'removed', text: 'old' }]);
  });

  it('cuts very long texts to a bounded number of words', () => {
    const long = Array.from({ length: MAX_DIFF_WORDS + 500 }, (_, i) => `w${i}`).join(' ');
    const parts = diffWords(long, long);
    expect(parts).toHaveLength(1);
    expect(parts[0]!.text.split(' ')).toHaveLength(MAX_DIFF_WORDS);
  });
});

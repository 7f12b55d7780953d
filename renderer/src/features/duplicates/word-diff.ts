/** One run of a word-level diff: words both sides share, or words only one side has. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Longest diff input (words per side) compared exactly; longer texts compare their first words only. */
export const MAX_DIFF_WORDS = 2000;

/**
 * Word-level diff of two texts (longest common subsequence over whitespace-separated words),
 * merged into runs. O(n·m) time and memory, so each side is cut at {@link MAX_DIFF_WORDS} words.
 * @example diffWords('the old mill', 'the new mill') → [{ kind: 'same', text: 'the' }, { kind: 'removed', text: 'old' }, { kind: 'added', text: 'new' }, { kind: 'same', text: 'mill' }]
 */
export function diffWords(left: string, right: string): DiffPart[] {
  const a = left.split(/\s+/).filter(Boolean).slice(0, MAX_DIFF_WORDS);
  const b = right.split(/\s+/).filter(Boolean).slice(0, MAX_DIFF_WORDS);
  const width = b.length + 1;
  const lengths = new Uint16Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], word: string) => {
    const last = parts.at(-1);
    if (last && last.kind === kind) last.text += ` ${word}`;
    else parts.push({ kind, text: word });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i]!);
      i += 1;
      j += 1;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      push('removed', a[i++]!);
    } else {
      push('added', b[j++]!);
    }
  }
  while (i < a.length) push('removed', a[i++]!);
  while (j < b.length) push('added', b[j++]!);
  return parts;
}

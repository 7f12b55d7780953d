import { describe, expect, it } from 'vitest';
import { placeholderRows } from './placeholders';

describe('placeholderRows', () => {
  it('writes rows of anonymous placeholders', () => {
    expect(placeholderRows(2, 3)).toBe('(?, ?, ?), (?, ?, ?)');
    expect(placeholderRows(1, 1)).toBe('(?)');
  });
});

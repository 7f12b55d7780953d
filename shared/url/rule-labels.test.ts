import { describe, expect, it } from 'vitest';
import { RULE_LABELS, ruleLabel } from './rule-labels';
import { RULE_ORDER } from './rules';

describe('RULE_LABELS', () => {
  it('names every normalization rule in words, each label once', () => {
    expect(Object.keys(RULE_LABELS).sort()).toEqual([...RULE_ORDER].sort());
    for (const rule of RULE_ORDER) {
      expect(ruleLabel(rule), rule).toMatch(/^[A-Z][a-z]* /);
      expect(ruleLabel(rule), rule).not.toMatch(/[a-z][A-Z]/);
    }
    expect(new Set(Object.values(RULE_LABELS)).size).toBe(RULE_ORDER.length);
    expect(ruleLabel('removeDefaultPort')).toBe('Remove the default port');
  });
});

import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LINK_RULES } from '../../../shared/types/link-rules';
import { LINK_KINDS, linkElement } from '../../worker/protocol';
import { LINK_KIND_CODES, LINK_RULE_CODES, linkElementSql, linkKindCode, linkKindSql, linkRuleCode, linkRuleName, linkRuleSql } from './link-codes';

describe('link codes', () => {
  it('gives every kind and rule its own code, stable as shipped (a stored database keeps them)', () => {
    expect(LINK_KIND_CODES).toEqual({ a: 1, area: 2, frame: 3, iframe: 4, canonical: 5, redirect: 6, rendered: 7 });
    expect(Object.keys(LINK_KIND_CODES).sort()).toEqual([...LINK_KINDS].sort());
    expect(Object.keys(LINK_RULE_CODES).sort()).toEqual([...LINK_RULES].sort());
    const ruleCodes = Object.values(LINK_RULE_CODES);
    expect(new Set(ruleCodes).size).toBe(ruleCodes.length);
    expect(LINK_RULE_CODES['invalid-url']).toBe(1);
    expect(LINK_RULE_CODES['max-links-per-page']).toBe(11);
    // Issue 12's rules took the next free codes.
    expect([LINK_RULE_CODES['list-mode'], LINK_RULE_CODES['link-nofollow'], LINK_RULE_CODES['include-pattern'], LINK_RULE_CODES['exclude-pattern']]).toEqual([13, 14, 15, 16]);
  });

  it('reads codes back as names in SQL and in code, an unknown code as its number', () => {
    const db = new BetterSqlite3(':memory:');
    // Stored codes are INTEGERs (a JS number binds as a REAL: cast as the column's affinity does).
    const read = (sql: string, code: number | null) => db.prepare(`SELECT ${sql} FROM (SELECT CAST(? AS INTEGER) AS c)`).pluck().get(code);
    for (const kind of LINK_KINDS) {
      expect(read(linkKindSql('c'), linkKindCode(kind))).toBe(kind);
      expect(read(linkElementSql('c'), linkKindCode(kind))).toBe(linkElement(kind));
    }
    for (const rule of LINK_RULES) {
      expect(read(linkRuleSql('c'), linkRuleCode(rule))).toBe(rule);
      expect(linkRuleName(linkRuleCode(rule)!)).toBe(rule);
    }
    expect(read(linkRuleSql('c'), null)).toBeNull();
    expect(read(linkKindSql('c'), 99)).toBe('99');
    expect(linkRuleName(99)).toBe('99');
    db.close();
  });

  it('refuses a name with no code with a coded error', () => {
    expect(() => linkKindCode('img')).toThrow(expect.objectContaining({ code: 'UNKNOWN_LINK_KIND' }));
    expect(() => linkRuleCode('toString')).toThrow(expect.objectContaining({ code: 'UNKNOWN_LINK_RULE' }));
    expect(linkRuleCode(null)).toBeNull();
  });
});

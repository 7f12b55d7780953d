/**
 * The small integers that `links.kind` and `links.refused_by` hold (migration 0016): one code per
 * link kind (engine/worker/protocol.ts LINK_KINDS) and per link rule (shared/types/link-rules.ts
 * LINK_RULES). The one source of those codes: the writer encodes with them, every reader decodes
 * through the SQL built here. Codes are stable forever: a new kind or rule takes the next free
 * number, and no code is ever reordered or reused (databases keep them).
 */
import type { LinkRuleName } from '../../../shared/types/link-rules';
import { CodedError } from '../../../shared/types/result';
import { linkElement, type LinkKind } from '../../worker/protocol';

/** Link kind → stored code (`links.kind`). The Record type makes a new kind without a code a compile error. */
export const LINK_KIND_CODES: Readonly<Record<LinkKind, number>> = { a: 1, area: 2, frame: 3, iframe: 4, canonical: 5, redirect: 6, rendered: 7 };

/** Link rule → stored code (`links.refused_by`; NULL: the link was followed). */
export const LINK_RULE_CODES: Readonly<Record<LinkRuleName, number>> = {
  'invalid-url': 1,
  protocol: 2,
  'url-length': 3,
  'query-string': 4,
  'ignored-extension': 5,
  nofollow: 6,
  scope: 7,
  'include-domains': 8,
  'exclude-domains': 9,
  'max-depth': 10,
  'max-links-per-page': 11,
  'host-not-mapped': 12,
  'list-mode': 13,
  'link-nofollow': 14,
  'include-pattern': 15,
  'exclude-pattern': 16,
};

/**
 * The stored code of a link kind.
 * @example linkKindCode('canonical') → 5
 * @throws CodedError UNKNOWN_LINK_KIND for a kind with no code (a caller's bug: kinds come from LINK_KINDS)
 */
export function linkKindCode(kind: string): number {
  const code = Object.hasOwn(LINK_KIND_CODES, kind) ? LINK_KIND_CODES[kind as LinkKind] : undefined;
  if (code === undefined) throw new CodedError('UNKNOWN_LINK_KIND', `Link kind "${kind}" has no stored code (known kinds: ${Object.keys(LINK_KIND_CODES).join(', ')})`);
  return code;
}

/**
 * The stored code of a link rule, or null for a followed link.
 * @example linkRuleCode('scope') → 7
 * @example linkRuleCode(null) → null
 * @throws CodedError UNKNOWN_LINK_RULE for a rule with no code (rules come from LINK_RULES)
 */
export function linkRuleCode(rule: string | null): number | null {
  if (rule === null) return null;
  const code = Object.hasOwn(LINK_RULE_CODES, rule) ? LINK_RULE_CODES[rule as LinkRuleName] : undefined;
  if (code === undefined) throw new CodedError('UNKNOWN_LINK_RULE', `Link rule "${rule}" has no stored code (known rules: ${Object.keys(LINK_RULE_CODES).join(', ')})`);
  return code;
}

/** A SQL CASE mapping each code of `codes` to a text; a code this version does not know reads as its number. */
function caseSql(column: string, entries: [string, number][]): string {
  return `CASE ${column} ${entries.map(([text, code]) => `WHEN ${code} THEN '${text}'`).join(' ')} ELSE CAST(${column} AS TEXT) END`;
}

/**
 * SQL that reads a stored kind code as its name.
 * @example linkKindSql('l.kind') → "CASE l.kind WHEN 1 THEN 'a' … ELSE CAST(l.kind AS TEXT) END"
 */
export function linkKindSql(column: string): string {
  return caseSql(column, Object.entries(LINK_KIND_CODES));
}

/** SQL that reads a stored kind code as the element it came from (linkElement: `canonical` is a `<link>`). */
export function linkElementSql(column: string): string {
  return caseSql(
    column,
    (Object.entries(LINK_KIND_CODES) as [LinkKind, number][]).map(([kind, code]) => [linkElement(kind), code]),
  );
}

/** SQL that reads a stored rule code as the rule's name (NULL stays NULL: a followed link). */
export function linkRuleSql(column: string): string {
  return `CASE WHEN ${column} IS NULL THEN NULL ELSE ${caseSql(column, Object.entries(LINK_RULE_CODES))} END`;
}

/** The rule name of a stored code (a code this version does not know reads as its number). */
export function linkRuleName(code: number): string {
  const entry = Object.entries(LINK_RULE_CODES).find(([, value]) => value === code);
  return entry ? entry[0] : String(code);
}

/**
 * The Public Suffix List (https://publicsuffix.org/list/): a parser for `public_suffix_list.dat`
 * and a label trie that answers the PSL algorithm ("the prevailing rule is an exception rule if
 * one matches, otherwise the matching rule with the most labels; with none, the rule `*`").
 * Unicode rules are also filed under their punycode labels, so hosts in either form match.
 */
import { punycodeDecode, punycodeEncode } from './punycode';

/** Where a suffix rule comes from (PSL section, or the user's TLD settings). */
export type SuffixRuleSource = 'icann' | 'private' | 'generic' | 'additional';

/** A trie node: one label of a suffix, read right to left (`uk` → `co`). */
export interface SuffixNode {
  /** Child labels (both Unicode and punycode keys point at the same node). */
  readonly children: Map<string, SuffixNode>;
  /** Source of the rule that ends here (`co.uk`), or null when no rule ends here. */
  rule: SuffixRuleSource | null;
  /** Source of an exception rule ending here (`!city.kobe.jp`), or null. */
  exception: SuffixRuleSource | null;
  /** Source of a wildcard rule one label below (`*.kobe.jp` sets this on `kobe.jp`), or null. */
  wildcard: SuffixRuleSource | null;
}

/** A parsed Public Suffix List (plus any extra rules merged in by the domain resolver). */
export interface PublicSuffixList {
  readonly root: SuffixNode;
  /** Number of rules read, per section. */
  readonly counts: { readonly icann: number; readonly private: number };
}

/** The prevailing rule for a host, as {@link matchSuffix} reports it. */
export interface SuffixMatch {
  /** Number of labels (from the right) in the public suffix; 0 for an empty host. */
  suffixLabels: number;
  /** The rule as written in the list (`co.uk`, `*.kobe.jp`, `!city.kobe.jp`), or `*` for the default rule. */
  rule: string;
  /** Source of the rule, or null for the default rule `*`. */
  source: SuffixRuleSource | null;
}

function newNode(): SuffixNode {
  return { children: new Map(), rule: null, exception: null, wildcard: null };
}

/** The keys a label is filed under: itself and its other form (punycode ↔ Unicode). */
function labelKeys(label: string): string[] {
  for (let i = 0; i < label.length; i++) {
    if (label.charCodeAt(i) >= 0x80) return [label, 'xn--' + punycodeEncode(label)];
  }
  if (label.startsWith('xn--')) {
    try {
      return [label, punycodeDecode(label.slice(4))];
    } catch {
      return [label];
    }
  }
  return [label];
}

/** Adds one rule (`co.uk`, `*.kobe.jp`, `!city.kobe.jp`) to a trie, mutating it. */
function addRule(root: SuffixNode, text: string, source: SuffixRuleSource, copyChild?: (child: SuffixNode) => SuffixNode): void {
  const exception = text.startsWith('!');
  const labels = (exception ? text.slice(1) : text).toLowerCase().split('.');
  const wildcard = labels[0] === '*';
  if (wildcard) labels.shift();
  let node = root;
  for (let i = labels.length - 1; i >= 0; i--) {
    const keys = labelKeys(labels[i]!);
    let child = node.children.get(keys[0]!);
    child = child === undefined ? newNode() : copyChild === undefined ? child : copyChild(child);
    for (const key of keys) node.children.set(key, child);
    node = child;
  }
  if (exception) node.exception ??= source;
  else if (wildcard) node.wildcard ??= source;
  else node.rule ??= source;
}

/**
 * Returns a new list with extra rules merged in (the user's generic and additional entries in
 * PSL mode). The original list is not changed: nodes on the paths of the new rules are copied.
 * An entry that is already a PSL rule keeps its PSL section as its source.
 * @example matchSuffix(withExtraRules(psl, [{ rule: 'internal.example', source: 'additional' }]), ['a', 'internal', 'example']) → { suffixLabels: 2, rule: 'internal.example', source: 'additional' }
 */
export function withExtraRules(list: PublicSuffixList, rules: readonly { rule: string; source: SuffixRuleSource }[]): PublicSuffixList {
  if (rules.length === 0) return list;
  const fresh = new WeakSet<SuffixNode>();
  const copy = (node: SuffixNode): SuffixNode => {
    if (fresh.has(node)) return node;
    const clone: SuffixNode = { ...node, children: new Map(node.children) };
    fresh.add(clone);
    return clone;
  };
  const root = copy(list.root);
  for (const { rule, source } of rules) addRule(root, rule, source, copy);
  return { root, counts: list.counts };
}

/**
 * Parses the text of `public_suffix_list.dat`: one rule per line (the first whitespace-separated
 * token), `//` comments, and the `===BEGIN ICANN DOMAINS===` / `===BEGIN PRIVATE DOMAINS===`
 * markers that decide each rule's section. Rules are lowercased; Unicode rules also get their
 * punycode form. Import a newer list by passing its text here.
 * @example parsePublicSuffixList('com\nco.uk\n*.kobe.jp\n!city.kobe.jp').counts → { icann: 4, private: 0 }
 */
export function parsePublicSuffixList(text: string): PublicSuffixList {
  const root = newNode();
  const counts = { icann: 0, private: 0 };
  let section: 'icann' | 'private' = 'icann';
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (line.startsWith('//')) {
      if (line.includes('===BEGIN PRIVATE DOMAINS===')) section = 'private';
      else if (line.includes('===BEGIN ICANN DOMAINS===')) section = 'icann';
      continue;
    }
    const rule = line.split(/\s/, 1)[0]!;
    addRule(root, rule, section);
    counts[section]++;
  }
  return { root, counts };
}

/**
 * Finds the prevailing PSL rule for `labels` (a host split at dots, left to right). Walks the
 * trie from the last label; an exception rule wins at once, otherwise the deepest rule wins.
 * @example matchSuffix(psl, ['www', 'example', 'co', 'uk']) → { suffixLabels: 2, rule: 'co.uk', source: 'icann' }
 */
export function matchSuffix(list: PublicSuffixList, labels: readonly string[]): SuffixMatch {
  let node = list.root;
  let best: SuffixMatch = { suffixLabels: labels.length === 0 ? 0 : 1, rule: '*', source: null };
  const n = labels.length;
  for (let depth = 1; depth <= n; depth++) {
    const label = labels[n - depth]!;
    const child = node.children.get(label);
    if (child !== undefined && child.exception !== null) {
      return { suffixLabels: depth - 1, rule: '!' + labels.slice(n - depth).join('.'), source: child.exception };
    }
    if (node.wildcard !== null) best = { suffixLabels: depth, rule: '*.' + labels.slice(n - depth + 1).join('.'), source: node.wildcard };
    if (child === undefined) break;
    if (child.rule !== null) best = { suffixLabels: depth, rule: labels.slice(n - depth).join('.'), source: child.rule };
    node = child;
  }
  return best;
}

/**
 * robots.txt groups and rule matching in linear time (RFC 9309 §2.2.2, §2.2.3). Groups are read
 * the way robots-parser 3.0.1 reads them (so verdicts on google/robotstxt's test cases stay as
 * they were), but each allow/disallow pattern is compiled once into its literal segments between
 * `*`s, and matched by finding each segment leftmost after the previous one (String#indexOf):
 * O(path + pattern) per rule, where robots-parser's matcher costs O(path × pattern) and took
 * seconds a URL on 400 KB of wildcard rules (issue 9, defect 7).
 *
 * Why leftmost is enough: RFC 9309 rules match or not (the most specific match is chosen by the
 * pattern's length, not by where it matched), and with `*` matching any run of characters, if
 * the segments can be placed in order at all, placing each one as early as possible leaves the
 * most room for the rest. A trailing `$` anchors the end: the last segment must then end the path
 * and start at or after where the leftmost placement of the others ended.
 */

/**
 * Allow/disallow rules kept per group (one user agent's rules; a check reads one group); later
 * ones are ignored and counted (RobotsGroups.ignoredRules). A rule without `*` costs at most its
 * own length per URL.
 */
export const ROBOTS_MAX_RULES = 10_000;

/**
 * Rules with a `*` kept per group (within {@link ROBOTS_MAX_RULES}); later ones are ignored and
 * counted. Each may scan the whole path once per URL, and String#indexOf scans an adversarial
 * path at ~30 ns a character: 500 rules × a 1,500-character path stay near 20 ms a URL, where
 * 24,000 rules (what 500 KiB of `Disallow: /*ab` holds) took 430 ms (measured, Node 20).
 */
export const ROBOTS_MAX_WILDCARD_RULES = 500;

/** One allow/disallow line, compiled. */
export interface CompiledRule {
  /** The pattern as robots-parser would compare it (escapes normalized, uppercase hex). */
  pattern: string;
  allow: boolean;
  /** 1-based line in the file. */
  line: number;
  /** Literal runs between `*`s (empty runs dropped, except the first, which anchors the start). */
  segments: string[];
  /** The pattern ended in `$`: the match must end with the path. */
  anchored: boolean;
}

/** What {@link matchRule} did, for tests and budgets: characters compared or scanned. */
export interface MatchCounter {
  steps: number;
}

/**
 * Compiles one pattern (already in robots-parser's encoding) into segments.
 * @example compileRule('/a*b$', false, 3) // { segments: ['/a', 'b'], anchored: true, … }
 */
export function compileRule(pattern: string, allow: boolean, line: number): CompiledRule {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const parts = body.split('*');
  const segments = [parts[0]!, ...parts.slice(1).filter((part) => part !== '')];
  // `/a*` ends in a wildcard: anchoring after it changes nothing (`*$` matches any end).
  const endsInStar = body.endsWith('*') && body.length > 0;
  return { pattern, allow, line, segments, anchored: anchored && !endsInStar };
}

/**
 * True when `rule` matches `path` (a prefix match, RFC 9309 §2.2.2, with `*` and a final `$`,
 * §2.2.3). Linear in path and pattern: every segment is searched from where the last one ended.
 */
export function matchRule(rule: CompiledRule, path: string, counter?: MatchCounter): boolean {
  const { segments, anchored } = rule;
  const first = segments[0]!;
  if (counter) counter.steps += first.length + 1;
  if (!path.startsWith(first)) return false;
  if (segments.length === 1) return !anchored || path.length === first.length;
  let position = first.length;
  const last = segments.length - 1;
  for (let index = 1; index < segments.length; index += 1) {
    const segment = segments[index]!;
    if (anchored && index === last) {
      const start = path.length - segment.length;
      if (counter) counter.steps += segment.length + 1;
      return start >= position && path.endsWith(segment);
    }
    const found = path.indexOf(segment, position);
    if (counter) counter.steps += (found === -1 ? path.length : found + segment.length) - position + 1;
    if (found === -1) return false;
    position = found + segment.length;
  }
  return true;
}

/** robots-parser's user-agent form: lowercase, cut at `/`, trimmed. */
function formatUserAgent(userAgent: string): string {
  const lower = userAgent.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash === -1 ? lower : lower.slice(0, slash)).trim();
}

/** robots-parser's pattern form: `encodeURI`, `%25` back to `%`, escape hex in uppercase. */
function encodePattern(pattern: string): string {
  try {
    return uppercaseEscapes(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern;
  }
}

/** `%2a` → `%2A`. */
export function uppercaseEscapes(path: string): string {
  return path.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

interface Group {
  rules: CompiledRule[];
  /** Rules in `rules` with a `*`. */
  wildcards: number;
  crawlDelay?: number;
}

/**
 * The groups of one robots.txt: rules per user agent, crawl-delays, sitemaps. Parsing follows
 * robots-parser 3.0.1 line for line (consecutive user-agent lines share a group; a rule before any
 * user-agent line belongs to none; an empty value adds no rule), keeping at most
 * {@link ROBOTS_MAX_RULES} rules per group, of which at most {@link ROBOTS_MAX_WILDCARD_RULES}
 * with `*`, so one check costs at most ~500 path scans whatever the file holds (RFC 9309 §2.5
 * asks to parse 500 KiB; this is a limit on what is kept of it, counted in `ignoredRules`).
 */
export class RobotsGroups {
  private readonly groups = new Map<string, Group>();
  /** Sitemap URLs as written, in file order. */
  readonly sitemaps: string[] = [];
  /** Rule lines ignored by at least one of their groups, past {@link ROBOTS_MAX_RULES} or {@link ROBOTS_MAX_WILDCARD_RULES}. */
  ignoredRules = 0;
  /** `pattern allow` of the rules kept per group: a repeated rule changes no verdict and is kept once. */
  private readonly keys = new Map<Group, Set<string>>();
  /** Work of every match so far (see {@link MatchCounter}). */
  readonly counter: MatchCounter = { steps: 0 };

  /** @param text robots.txt text, lines separated by CR, LF or CRLF */
  constructor(text: string) {
    let agents: string[] = [];
    let betweenAgents = true;
    const lines = text.split(/\r\n|\r|\n/);
    for (let index = 0; index < lines.length; index += 1) {
      const raw = lines[index]!;
      const hash = raw.indexOf('#');
      const line = hash === -1 ? raw : raw.slice(0, hash);
      const colon = line.indexOf(':');
      if (line === '' || colon === -1) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      if (key === '') continue;
      const value = line.slice(colon + 1).trim();
      switch (key) {
        case 'user-agent':
          if (betweenAgents) agents = [];
          if (value !== '') agents.push(formatUserAgent(value));
          break;
        case 'allow':
        case 'disallow':
          this.addRule(agents, value, key === 'allow', index + 1);
          break;
        case 'crawl-delay': {
          // robots-parser: Number('') is 0, a non-number is ignored.
          const delay = Number(value);
          for (const agent of agents) {
            const group = this.groupOf(agent);
            if (!Number.isNaN(delay)) group.crawlDelay = delay;
          }
          break;
        }
        case 'sitemap':
          if (value !== '') this.sitemaps.push(value);
          break;
      }
      betweenAgents = key !== 'user-agent';
    }
    // Most specific first (longest pattern; allow before disallow on a tie; file order after):
    // the first rule that matches decides, as RFC 9309 §2.2.2 and robots-parser choose.
    this.keys.clear();
    for (const group of this.groups.values()) {
      group.rules.sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow) || a.line - b.line);
    }
  }

  private groupOf(agent: string): Group {
    let group = this.groups.get(agent);
    if (!group) {
      group = { rules: [], wildcards: 0 };
      this.groups.set(agent, group);
    }
    return group;
  }

  private addRule(agents: readonly string[], value: string, allow: boolean, line: number): void {
    if (agents.length === 0) return;
    const groups = agents.map((agent) => this.groupOf(agent));
    if (value === '') return;
    const pattern = encodePattern(value);
    const key = `${pattern} ${allow}`;
    const fresh = groups.filter((group) => !this.keysOf(group).has(key));
    // The same rule again in a group: the first one (same length, same verdict) already decides.
    if (fresh.length === 0) return;
    const wildcard = pattern.includes('*');
    const room = fresh.filter((group) => group.rules.length < ROBOTS_MAX_RULES && (!wildcard || group.wildcards < ROBOTS_MAX_WILDCARD_RULES));
    // A rule line some group had no room for counts once.
    if (room.length < fresh.length) this.ignoredRules += 1;
    if (room.length === 0) return;
    const rule = compileRule(pattern, allow, line);
    for (const group of room) {
      group.rules.push(rule);
      if (wildcard) group.wildcards += 1;
      this.keysOf(group).add(key);
    }
  }

  private keysOf(group: Group): Set<string> {
    let keys = this.keys.get(group);
    if (!keys) {
      keys = new Set();
      this.keys.set(group, keys);
    }
    return keys;
  }

  /** The group for a product token (lowercase), else `*`'s, else none. */
  private groupFor(token: string): Group | undefined {
    return this.groups.get(formatUserAgent(token)) ?? this.groups.get('*');
  }

  /**
   * The deciding rule for `path` (already in robots-parser's form: pathname + search, escapes in
   * uppercase): the longest matching pattern, allow winning a tie; null when none matches.
   */
  decide(path: string, token: string): CompiledRule | null {
    const group = this.groupFor(token);
    if (!group) return null;
    for (const rule of group.rules) if (matchRule(rule, path, this.counter)) return rule;
    return null;
  }

  /** The group's crawl-delay in seconds, as written (may be fractional); undefined when none. */
  crawlDelay(token: string): number | undefined {
    return this.groupFor(token)?.crawlDelay;
  }
}

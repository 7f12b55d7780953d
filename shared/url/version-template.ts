/**
 * Version URL templates (seed 001, "as yet unimplemented"): `https://docs.python.org/%s/library/
 * datetime.html` stands for one page across software versions, so search results can offer a
 * version picker instead of listing the page once per version.
 *
 * Detection: a path segment is version-like when it is a release number (`3.11`, `2.7.18`, `15`,
 * `v2`, `1.x`) or a channel name ({@link VERSION_CHANNELS}: latest, stable, dev, …). A position
 * becomes a template only when at least two URLs that agree on everything else (scheme, host,
 * other segments, query) show two or more different versions there: one `/15/` alone is just a
 * number. A URL that fits several templates joins the one with the most versions (then the
 * leftmost position). `%` in the rest of the URL is written `%%`, printf-style.
 */
import { parseWhatwg } from './whatwg-url';

/** Channel names accepted as versions (compared case-insensitively). */
export const VERSION_CHANNELS: readonly string[] = ['latest', 'stable', 'dev', 'devel', 'development', 'main', 'master', 'current', 'nightly', 'next', 'beta', 'preview', 'lts'];

const RELEASE = /^v?\d+(?:\.(?:\d+|x))*$/i;
const CHANNELS = new Set(VERSION_CHANNELS);
/** 1 at each lowercase ASCII code a version can start with (digits, `v`, channel initials): most segments are rejected on their first character. */
const FIRST_CHARS = new Uint8Array(128);
for (const start of ['0123456789v', ...VERSION_CHANNELS.map((channel) => channel[0]!)].join('')) FIRST_CHARS[start.charCodeAt(0)] = 1;

/**
 * True for a path segment that names a version (release numbers of up to 4 digits per part, or a
 * channel name).
 * @example isVersionSegment('3.11') → true
 * @example isVersionSegment('library') → false
 */
export function isVersionSegment(segment: string): boolean {
  const first = segment.charCodeAt(0) | 0x20;
  if (!(first < 128 && FIRST_CHARS[first] === 1)) return false;
  if (CHANNELS.has(segment.toLowerCase())) return true;
  if (!RELEASE.test(segment)) return false;
  const major = /\d+/.exec(segment)?.[0] ?? '';
  return major.length <= 4;
}

/** One template and the URLs grouped under it. */
export interface VersionTemplate {
  /** The URL with the version segment replaced by `%s` (fragment removed). */
  template: string;
  /** Distinct versions seen, release numbers ascending, then channel names. */
  versions: string[];
  /** Each member URL with its version. */
  urls: { url: string; version: string }[];
}

/** The result of {@link groupByVersionTemplate}. */
export interface VersionGrouping {
  templates: VersionTemplate[];
  /** URLs that fit no template (or are not URLs). */
  ungrouped: string[];
}

/** One way a URL can fit a version template: the template, the version segment's position and text. */
export interface VersionCandidate {
  /** The URL with the segment at `position` replaced by `%s` (`%` elsewhere written `%%`; fragment removed). */
  template: string;
  /** Index of the version segment in the path split at `/` (1 is the first segment). */
  position: number;
  version: string;
}

/**
 * The version templates one absolute URL could belong to: one per version-like directory segment
 * (a segment followed by another; a number as the last segment names a page: `/chain/2`,
 * `/page/3`). A string scan, no URL parser: the crawl computes it for every URL it stores
 * (engine/store/sqlite/version-index.ts), so give it a serialized URL (a normalized one); input
 * without `scheme://` has no candidates.
 * @returns candidates in path order; empty for most URLs
 * @example versionCandidates('https://docs.python.org/3.12/library/os.html') → [{ template: 'https://docs.python.org/%s/library/os.html', position: 1, version: '3.12' }]
 * @example versionCandidates('https://a.test/page/3') → []
 */
export function versionCandidates(url: string): VersionCandidate[] {
  const schemeEnd = url.indexOf('://');
  if (schemeEnd === -1) return [];
  const hash = url.indexOf('#');
  const end = hash === -1 ? url.length : hash;
  const pathStart = url.indexOf('/', schemeEnd + 3);
  if (pathStart === -1 || pathStart >= end) return [];
  const question = url.indexOf('?', pathStart);
  const pathEnd = question === -1 || question > end ? end : question;
  let candidates: VersionCandidate[] | null = null;
  const escape = (text: string) => (text.includes('%') ? text.replaceAll('%', '%%') : text);
  // Directory segments only: each one ends at a `/` before the path's end.
  let position = 0;
  for (let start = pathStart + 1, slash = url.indexOf('/', start); slash !== -1 && slash < pathEnd; start = slash + 1, slash = url.indexOf('/', start)) {
    position += 1;
    if (slash === start) continue;
    const segment = url.slice(start, slash);
    if (!isVersionSegment(segment)) continue;
    const template = escape(url.slice(0, start)) + '%s' + escape(url.slice(slash, end));
    (candidates ??= []).push({ template, position, version: segment });
  }
  return candidates ?? [];
}

/**
 * The order versions are listed in: release numbers ascending (`2.7` < `3.9` < `3.11` < `3.x`), then
 * channel names alphabetically.
 * @example ['dev', '3.12', '3.9'].sort(compareVersions) → ['3.9', '3.12', 'dev']
 */
export function compareVersions(a: string, b: string): number {
  const aChannel = !RELEASE.test(a);
  const bChannel = !RELEASE.test(b);
  if (aChannel !== bChannel) return aChannel ? 1 : -1;
  if (aChannel) return a.localeCompare(b);
  const aParts = a.replace(/^v/i, '').split('.');
  const bParts = b.replace(/^v/i, '').split('.');
  for (let i = 0; i < Math.max(aParts.length, bParts.length); i++) {
    const x = aParts[i];
    const y = bParts[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const difference = (x === 'x' ? Infinity : Number(x)) - (y === 'x' ? Infinity : Number(y));
    if (difference !== 0 && !Number.isNaN(difference)) return difference;
  }
  return a.localeCompare(b);
}

interface Candidate {
  template: string;
  position: number;
  members: { url: string; version: string }[];
  versions: Set<string>;
}

/**
 * Groups URLs (typically of one site) by version template.
 * @example groupByVersionTemplate(['https://docs.python.org/3.11/library/datetime.html', 'https://docs.python.org/3.12/library/datetime.html']).templates[0] → { template: 'https://docs.python.org/%s/library/datetime.html', versions: ['3.11', '3.12'], … }
 */
export function groupByVersionTemplate(urls: readonly string[]): VersionGrouping {
  const candidates = new Map<string, Candidate>();
  const positions = new Map<string, Candidate[]>();
  const ungrouped: string[] = [];
  for (const url of urls) {
    const parsed = parseWhatwg(url);
    if (parsed === null) {
      ungrouped.push(url);
      continue;
    }
    const prefix = (parsed.protocol + '//' + parsed.host).replaceAll('%', '%%');
    const segments = parsed.pathname.split('/');
    const search = parsed.search.replaceAll('%', '%%');
    const mine: Candidate[] = [];
    for (let position = 1; position < segments.length; position++) {
      const version = segments[position]!;
      if (!isVersionSegment(version)) continue;
      const path = segments.map((segment, index) => (index === position ? '%s' : segment.replaceAll('%', '%%'))).join('/');
      const template = prefix + path + search;
      let candidate = candidates.get(template);
      if (candidate === undefined) {
        candidate = { template, position, members: [], versions: new Set() };
        candidates.set(template, candidate);
      }
      candidate.members.push({ url, version });
      candidate.versions.add(version);
      mine.push(candidate);
    }
    positions.set(url, mine);
  }
  const chosen = new Map<Candidate, { url: string; version: string }[]>();
  for (const [url, mine] of positions) {
    const viable = mine.filter((candidate) => candidate.versions.size >= 2);
    if (viable.length === 0) {
      ungrouped.push(url);
      continue;
    }
    const best = viable.reduce((a, b) => (b.versions.size > a.versions.size || (b.versions.size === a.versions.size && b.position < a.position) ? b : a));
    const member = best.members.find((entry) => entry.url === url)!;
    const list = chosen.get(best) ?? [];
    list.push(member);
    chosen.set(best, list);
  }
  const templates: VersionTemplate[] = [];
  for (const [candidate, members] of chosen) {
    const versions = [...new Set(members.map((member) => member.version))].sort(compareVersions);
    if (versions.length < 2) {
      for (const member of members) ungrouped.push(member.url);
      continue;
    }
    templates.push({ template: candidate.template, versions, urls: members });
  }
  templates.sort((a, b) => b.urls.length - a.urls.length || (a.template < b.template ? -1 : 1));
  return { templates, ungrouped };
}

/**
 * Fills a version template with one version (`%%` becomes `%`).
 * @example fillVersionTemplate('https://docs.python.org/%s/library/datetime.html', '3.12') → 'https://docs.python.org/3.12/library/datetime.html'
 */
export function fillVersionTemplate(template: string, version: string): string {
  return template.replaceAll(/%(%|s)/g, (_, which: string) => (which === '%' ? '%' : version));
}

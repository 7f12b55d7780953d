/**
 * Aligning two URLs of one host that have the same content (DustBuster's rule instances, Bar-Yossef,
 * Keidar, Schonfeld 2007 §4): their paths and queries are split into tokens, aligned by a longest
 * common subsequence, and the differing regions become a candidate substitution rule with a little
 * context: the text back to the last `/` before the first region (so `?id=` ↔ `_` after `/story`
 * becomes `/story?id=` ↔ `/story_`). At most two regions, around one carried-over value: more
 * differences than that are not one rule.
 */
import { MAX_PIECE_CHARS, splitUrl, type SubstitutionRule } from './rule';

/** Tokens per path+query aligned at most (the LCS table is tokens²). */
export const MAX_ALIGN_TOKENS = 64;

const TOKEN = /[A-Za-z]+|[0-9]+|%[0-9A-Fa-f]{2}|[^A-Za-z0-9%]|%/g;

/**
 * Splits a path+query into tokens: runs of letters, runs of digits, percent escapes, and each
 * other character alone (`/`, `?`, `=`, `_`, `.` …).
 * @example urlTokens('/story?id=7') → ['/', 'story', '?', 'id', '=', '7']
 */
export function urlTokens(pathAndQuery: string): string[] {
  return pathAndQuery.match(TOKEN) ?? [];
}

/** A differing region: token ranges [aStart, aEnd) and [bStart, bEnd). */
interface Region {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** Differing regions of two token lists by LCS, matches taken as early as possible (insertions slide right). */
function diffRegions(a: readonly string[], b: readonly string[]): Region[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = LCS length of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const regions: Region[] = [];
  let open: Region | null = null;
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j] && lcs[i * width + j] === lcs[(i + 1) * width + j + 1]! + 1) {
      if (open !== null) {
        open.aEnd = i;
        open.bEnd = j;
        regions.push(open);
        open = null;
      }
      i++;
      j++;
      continue;
    }
    open ??= { aStart: i, aEnd: i, bStart: j, bEnd: j };
    if (j >= m || (i < n && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) i++;
    else j++;
  }
  if (open !== null) {
    open.aEnd = n;
    open.bEnd = m;
    regions.push(open);
  }
  return regions;
}

/**
 * Joins regions separated only by punctuation (`/`, `.`): the LCS happily matches a lone `/`
 * inside `/w/index.php?title=` ↔ `/wiki/`, but a carried-over value is a word or a number.
 */
function mergedRegions(regions: readonly Region[], a: readonly string[]): Region[] {
  const merged: Region[] = [];
  for (const region of regions) {
    const previous = merged[merged.length - 1];
    if (previous !== undefined && a.slice(previous.aEnd, region.aStart).every((token) => !/[A-Za-z0-9]/.test(token))) {
      previous.aEnd = region.aEnd;
      previous.bEnd = region.bEnd;
    } else {
      merged.push({ ...region });
    }
  }
  return merged;
}

const text = (tokens: readonly string[], start: number, end: number): string => tokens.slice(start, end).join('');

/**
 * The substitution rule that turns URL `a` into URL `b` (same host), or null when they are not
 * one rule apart: other origin, too long, more than two differing regions, a carried-over value
 * holding `/ ? & = #`, or a piece longer than MAX_PIECE_CHARS.
 * @example alignmentRule('http://n.test/story?id=7', 'http://n.test/story_7.html') → { kind: 'substitution', host: 'n.test', from: ['/story?id=', ''], to: ['/story_', '.html'], endAnchored: true }
 * @example alignmentRule('http://n.test/print/story_7.html', 'http://n.test/story_7.html') → { kind: 'substitution', host: 'n.test', from: ['/print/'], to: ['/'], endAnchored: false }
 */
export function alignmentRule(a: string, b: string): SubstitutionRule | null {
  const left = splitUrl(a);
  const right = splitUrl(b);
  if (left === null || right === null || left.origin !== right.origin || left.pathAndQuery === right.pathAndQuery) return null;
  const aTokens = urlTokens(left.pathAndQuery);
  const bTokens = urlTokens(right.pathAndQuery);
  if (aTokens.length > MAX_ALIGN_TOKENS || bTokens.length > MAX_ALIGN_TOKENS) return null;
  const regions = mergedRegions(diffRegions(aTokens, bTokens), aTokens);
  if (regions.length === 0 || regions.length > 2) return null;
  const first = regions[0]!;
  // Context: back to the last `/` before the first region (both sides share these tokens).
  let contextStart = first.aStart;
  while (contextStart > 0 && aTokens[contextStart - 1] !== '/') contextStart--;
  if (contextStart > 0) contextStart--;
  const context = text(aTokens, contextStart, first.aStart);
  const last = regions[regions.length - 1]!;
  const endAnchored = last.aEnd === aTokens.length && last.bEnd === bTokens.length;
  const from = [context + text(aTokens, first.aStart, first.aEnd)];
  const to = [context + text(bTokens, first.bStart, first.bEnd)];
  if (regions.length === 2) {
    const second = regions[1]!;
    const value = text(aTokens, first.aEnd, second.aStart);
    if (value === '' || /[/?&#=]/.test(value)) return null;
    let aPiece = text(aTokens, second.aStart, second.aEnd);
    let bPiece = text(bTokens, second.bStart, second.bEnd);
    if (!endAnchored) {
      // A piece must say where the value ends: take the next shared token along.
      const next = aTokens[second.aEnd];
      if (next === undefined) return null;
      aPiece += next;
      bPiece += next;
    }
    from.push(aPiece);
    to.push(bPiece);
  }
  // An empty first piece would match anywhere (validateDustRule refuses it too).
  if (from[0] === '' || to[0] === '') return null;
  if ([...from, ...to].some((piece) => piece.length > MAX_PIECE_CHARS)) return null;
  return { kind: 'substitution', host: left.host, from, to, endAnchored };
}

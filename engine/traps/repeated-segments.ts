/**
 * Repeated path segments (Heritrix PathologicalPathDecideRule, the static floor of IIR 20.2's
 * spider traps): a block of one to MAX_REPEAT_BLOCK segments occurring `repeatedSegments` times in a
 * row (`/a/a/a/`, `/x/y/x/y/x/y/`), the mark of a relative link that re-appends itself.
 */
import type { TrapSuspicion } from './suspicion';
import { MAX_REPEAT_BLOCK, type TrapThresholds } from './thresholds';
import { escapeRegex, hostPrefix, type UrlShape } from './url-shape';

/** Where a path repeats: segments before the repetition, the block, and its occurrences in a row. */
export interface SegmentRepeat {
  prefix: string[];
  block: string[];
  occurrences: number;
}

/**
 * The first block of 1..MAX_REPEAT_BLOCK non-empty segments that occurs at least `minOccurrences`
 * times in a row, or null. O(segments × MAX_REPEAT_BLOCK).
 * @example findSegmentRepeat(['a', 'a', 'a', ''], 3) // { prefix: [], block: ['a'], occurrences: 3 }
 * @example findSegmentRepeat(['3', 'library', 'os.html'], 3) // null
 */
export function findSegmentRepeat(segments: readonly string[], minOccurrences: number): SegmentRepeat | null {
  const n = segments.length;
  for (let length = 1; length <= MAX_REPEAT_BLOCK; length += 1) {
    if (length * minOccurrences > n) break;
    // run: segments equal to the one `length` before, in a row.
    let run = 0;
    for (let i = length; i < n; i += 1) {
      if (segments[i] !== '' && segments[i] === segments[i - length]) {
        run += 1;
        if (run >= length * (minOccurrences - 1)) {
          const start = i - length * minOccurrences + 1;
          let occurrences = minOccurrences;
          for (let j = i + 1; j + length <= n && segments.slice(j, j + length).join('/') === segments.slice(start, start + length).join('/'); j += length) occurrences += 1;
          return { prefix: segments.slice(0, start), block: segments.slice(start, start + length), occurrences };
        }
      } else run = 0;
    }
  }
  return null;
}

/**
 * The repeated-segments test on one URL: fires on a path whose block repeats
 * `thresholds.repeatedSegments` times; the pattern holds every URL of the host with that prefix
 * and the block repeated as often (or more), deeper paths and queries included.
 * @example repeatedSegments(urlShape('http://a.test/a/a/a/')!, 'http://a.test/a/a/a/', DEFAULT_TRAP_THRESHOLDS)?.template // '/(a/){3,}…'
 */
export function repeatedSegments(shape: UrlShape, url: string, thresholds: Pick<TrapThresholds, 'repeatedSegments'>): TrapSuspicion | null {
  const repeat = findSegmentRepeat(shape.segments, thresholds.repeatedSegments);
  if (repeat === null) return null;
  const prefix = repeat.prefix.map((segment) => `${segment}/`).join('');
  const block = repeat.block.join('/');
  const times = thresholds.repeatedSegments;
  return {
    detector: 'repeated-segments',
    host: shape.host,
    pattern: `${hostPrefix(shape.host)}/${escapeRegex(prefix)}(?:${escapeRegex(block)}/){${times - 1}}${escapeRegex(block)}(?:[/?]|$)`,
    template: `/${prefix}(${block}/){${times},}…`,
    evidence: { summary: `The block /${block}/ repeats ${repeat.occurrences} times in a row (from ${times} a path is pathological: Heritrix PathologicalPath)`, observed: repeat.occurrences, threshold: times },
    example: url,
  };
}

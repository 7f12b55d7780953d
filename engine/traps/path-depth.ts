/**
 * Path depth growing along one prefix (Heritrix TooManyPathSegmentsDecideRule as the static
 * floor; IIR 20.2): a URL deeper than `maxPathSegments` is held outright, and links that go one
 * directory deeper under their own page's path, `depthChain` times in a row, make the prefix a trap
 * (a generated directory per page: `/t/x1/x2/x3/…`).
 */
import { FingerprintCache } from '../dedupe/fingerprint-cache';
import type { TrapSuspicion } from './suspicion';
import { CHAIN_CACHE_LIMITS, type TrapThresholds } from './thresholds';
import { escapeRegex, hostPrefix, type UrlShape } from './url-shape';

/** Directories in a path: its slashes (`/3/library/` and `/3/library/os.html`: 3). */
export function pathDepth(path: string): number {
  let depth = 0;
  for (let i = 0; i < path.length; i += 1) if (path.charCodeAt(i) === 47) depth += 1;
  return depth;
}

/**
 * The path-depth detector. Per URL it keeps the length of the chain of deepening links that led to
 * it (bounded: an evicted parent restarts its children's chain at 1, which can only delay a firing).
 */
export class PathDepthDetector {
  private readonly chains = new FingerprintCache(CHAIN_CACHE_LIMITS);

  constructor(private readonly thresholds: Pick<TrapThresholds, 'maxPathSegments' | 'depthChain'>) {}

  /**
   * Looks at a link from `parent` (its URL and shape; null for seeds) to `child`.
   * @returns the suspicion when the child passes the floor or the chain reaches `depthChain`, else null
   */
  observeLink(parent: { url: string; shape: UrlShape } | null, child: { url: string; shape: UrlShape }): TrapSuspicion | null {
    const { shape } = child;
    const depth = pathDepth(shape.path);
    if (depth > this.thresholds.maxPathSegments) {
      const floor = this.thresholds.maxPathSegments;
      return {
        detector: 'path-depth',
        host: shape.host,
        pattern: `${hostPrefix(shape.host)}/(?:[^/?]*/){${floor}}`,
        template: `/…/ (more than ${floor} levels)`,
        evidence: { summary: `The path is ${depth} levels deep (from ${floor + 1} any URL is held: Heritrix TooManyPathSegments)`, observed: depth, threshold: floor + 1 },
        example: child.url,
      };
    }
    if (parent === null || parent.shape.host !== shape.host) return null;
    const parentPath = parent.shape.path;
    const directory = parentPath.slice(0, parentPath.lastIndexOf('/') + 1);
    if (depth <= pathDepth(parentPath) || !shape.path.startsWith(directory)) return null;
    const chain = (this.chains.get(parent.url) ?? 0) + 1;
    if (chain > (this.chains.get(child.url) ?? 0)) this.chains.set(child.url, chain);
    if (chain < this.thresholds.depthChain) return null;
    const first = shape.segments[0] ?? '';
    return {
      detector: 'path-depth',
      host: shape.host,
      pattern: `${hostPrefix(shape.host)}/${escapeRegex(first)}/(?:[^/?]*/){${depth - 2}}`,
      template: `/${first}/…/ (${depth} levels or more)`,
      evidence: { summary: `${chain} links in a row each went a level deeper under /${first}/ (from ${this.thresholds.depthChain} the prefix is a trap)`, observed: chain, threshold: this.thresholds.depthChain },
      example: child.url,
    };
  }
}

/**
 * Query-parameter value explosion on one path (faceted navigation: `?sort=…&page=…&view=…`): the
 * distinct query strings of a path grow as the product of its parameters' values, not as their
 * sum. Fires when a path has `paramQueries` distinct query strings and they outnumber the sum of
 * each parameter's distinct values `paramProductFactor` times; the pattern holds the path's URLs
 * with two parameters or more (the combinations), leaving the path alone and one-parameter lists.
 */
import type { TrapSuspicion } from './suspicion';
import { MAX_QUERIES_PER_PATH, MAX_TRACKED_QUERIES, MAX_WATCHED_TEMPLATES, type TrapThresholds } from './thresholds';
import { escapeRegex, hostPrefix, type UrlShape } from './url-shape';

interface PathQueries {
  queries: Set<string>;
  /** Distinct values per parameter name. */
  values: Map<string, Set<string>>;
  valueCount: number;
}

/** The parameter-explosion detector: per host and path, the distinct query strings and parameter values met. */
export class ParamExplosionDetector {
  private readonly paths = new Map<string, PathQueries>();
  /** Query strings kept over all paths (bounded by MAX_TRACKED_QUERIES). */
  private tracked = 0;

  constructor(private readonly thresholds: Pick<TrapThresholds, 'paramQueries' | 'paramProductFactor'>) {}

  /** Paths watched now (memory: at most MAX_WATCHED_TEMPLATES). */
  get watched(): number {
    return this.paths.size;
  }

  /**
   * Counts one discovered URL. @returns the suspicion when its path's query strings explode, else null
   */
  observe(url: string, shape: UrlShape): TrapSuspicion | null {
    if (shape.query === '' || !shape.query.includes('&')) return null;
    const key = `${shape.host}${shape.path}`;
    let entry = this.paths.get(key);
    if (entry === undefined) {
      if (this.paths.size >= MAX_WATCHED_TEMPLATES) return null;
      entry = { queries: new Set(), values: new Map(), valueCount: 0 };
      this.paths.set(key, entry);
    }
    if (entry.queries.has(shape.query) || entry.queries.size >= MAX_QUERIES_PER_PATH || this.tracked >= MAX_TRACKED_QUERIES) return null;
    entry.queries.add(shape.query);
    this.tracked += 1;
    for (const pair of shape.query.split('&')) {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      const value = eq < 0 ? '' : pair.slice(eq + 1);
      let values = entry.values.get(name);
      if (values === undefined) entry.values.set(name, (values = new Set()));
      if (!values.has(value)) {
        values.add(value);
        entry.valueCount += 1;
      }
    }
    const { paramQueries, paramProductFactor } = this.thresholds;
    if (entry.queries.size < paramQueries || entry.queries.size < paramProductFactor * entry.valueCount) return null;
    this.paths.delete(key);
    this.tracked -= entry.queries.size;
    const names = [...entry.values.keys()].sort();
    return {
      detector: 'param-explosion',
      host: shape.host,
      pattern: `${hostPrefix(shape.host)}${escapeRegex(shape.path)}\\?[^#]*&`,
      template: `${shape.path}?${names.map((name) => `${name}=*`).join('&')}`,
      evidence: {
        summary: `${entry.queries.size} distinct query strings on ${shape.path} from only ${entry.valueCount} values of ${names.length} parameters (${names.join(', ')}): combinations, not a list`,
        observed: entry.queries.size,
        threshold: paramQueries,
      },
      example: url,
    };
  }
}

/**
 * Many near-identical pages under one URL template (empty calendar months, soft 404s, session
 * copies): per host and template (url-shape.ts: numbers as `{n}`), the MinHash sketches of the
 * first pages fetched (IIR 19.6, engine/dedupe/shingles.ts) are kept; a page whose estimated
 * Jaccard similarity with one of them reaches `nearIdenticalSimilarity` counts, and
 * `nearIdenticalPages` such pages make the template a trap. Only templates with a variable part
 * (a number or a query) are watched: a template without one names a single URL.
 */
import { estimatedJaccard } from '../dedupe/shingles';
import type { TrapSuspicion } from './suspicion';
import { MAX_WATCHED_TEMPLATES, NEAR_IDENTICAL_REFERENCES, type TrapThresholds } from './thresholds';
import { templatePattern, type UrlShape } from './url-shape';

interface TemplatePages {
  references: Uint32Array[];
  similar: number;
}

/** The near-identical detector. Memory: NEAR_IDENTICAL_REFERENCES sketches (256 B each) per watched template. */
export class NearIdenticalDetector {
  private readonly templates = new Map<string, TemplatePages>();

  constructor(private readonly thresholds: Pick<TrapThresholds, 'nearIdenticalPages' | 'nearIdenticalSimilarity'>) {}

  /**
   * Counts one fetched page (a 2xx answer with text) of `template`.
   * @returns the suspicion when the template has `nearIdenticalPages` near-identical pages, else null
   */
  observePage(url: string, shape: UrlShape, template: string, minhash: Uint32Array): TrapSuspicion | null {
    if (!template.includes('{n}') && shape.query === '') return null;
    const key = `${shape.host}${template}`;
    let entry = this.templates.get(key);
    if (entry === undefined) {
      if (this.templates.size >= MAX_WATCHED_TEMPLATES) return null;
      entry = { references: [], similar: 0 };
      this.templates.set(key, entry);
    }
    let best = 0;
    for (const reference of entry.references) best = Math.max(best, estimatedJaccard(reference, minhash));
    if (best >= this.thresholds.nearIdenticalSimilarity) entry.similar += 1;
    else if (entry.references.length < NEAR_IDENTICAL_REFERENCES) entry.references.push(minhash);
    if (entry.similar < this.thresholds.nearIdenticalPages) return null;
    this.templates.delete(key);
    // A template with a query but no number holds that exact query shape only.
    return {
      detector: 'near-identical',
      host: shape.host,
      pattern: templatePattern(shape.host, template),
      template,
      evidence: {
        summary: `${entry.similar} pages of ${template} were near-identical to an earlier one (estimated Jaccard ≥ ${this.thresholds.nearIdenticalSimilarity}; from ${this.thresholds.nearIdenticalPages} the template is a trap)`,
        observed: entry.similar,
        threshold: this.thresholds.nearIdenticalPages,
      },
      example: url,
    };
  }
}

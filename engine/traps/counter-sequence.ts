/**
 * Calendar-like and counter-like numeric sequences (IIR 20.2's endless calendars): a link from a URL
 * to another of the same template with other numbers (`/calendar/2031/7` → `/calendar/2031/8`,
 * `?page=41` → `?page=42`) extends a chain; `counterChain` links in a row make the template a
 * counter without end. A paginated list that ends stops short of it.
 */
import { FingerprintCache } from '../dedupe/fingerprint-cache';
import type { TrapSuspicion } from './suspicion';
import { CHAIN_CACHE_LIMITS, type TrapThresholds } from './thresholds';
import { templatePattern, urlNumbers, urlTemplate, type UrlShape } from './url-shape';

/** The counter-sequence detector: per URL, the length of the shortest same-template chain that reached it (bounded). */
export class CounterSequenceDetector {
  private readonly chains = new FingerprintCache(CHAIN_CACHE_LIMITS);

  constructor(private readonly thresholds: Pick<TrapThresholds, 'counterChain'>) {}

  /**
   * Looks at a link from `parent` to `child` (templates computed by the caller, url-shape.ts).
   * @returns the suspicion when the chain reaches `counterChain`, else null
   */
  observeLink(parent: { url: string; shape: UrlShape; template: string } | null, child: { url: string; shape: UrlShape; template: string }): TrapSuspicion | null {
    if (parent === null || parent.template !== child.template || !child.template.includes('{n}') || parent.shape.host !== child.shape.host) return null;
    if (urlNumbers(parent.shape) === urlNumbers(child.shape)) return null;
    // The shortest chain to the child (its first discovery, breadth-first): on a big site whose pages of one
    // template link to each other (products, articles), the longest chain grows with the crawl; the shortest stays
    // near log(pages), while an endless sequence's grows by one a link.
    const chain = (this.chains.get(parent.url) ?? 0) + 1;
    const known = this.chains.get(child.url);
    if (known !== undefined && known <= chain) return null;
    this.chains.set(child.url, chain);
    if (chain < this.thresholds.counterChain) return null;
    return {
      detector: 'counter-sequence',
      host: child.shape.host,
      pattern: templatePattern(child.shape.host, child.template),
      template: child.template,
      evidence: { summary: `${chain} links in a row led from one ${child.template} URL to the next with other numbers (from ${this.thresholds.counterChain} the sequence has no end)`, observed: chain, threshold: this.thresholds.counterChain },
      example: child.url,
    };
  }
}

/** The template and numbers of a URL, for callers that test many links of one page. */
export { urlTemplate };

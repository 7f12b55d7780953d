/**
 * A one-sided membership filter over the LSH band buckets of a crawl's stored sketches (a Bloom
 * filter with one hash). The content-seen test probes one bucket per band for every page (16 SQLite
 * lookups); on the 20,200-page synthetic crawl 219,118 of its 316,800 probes (69%) found nothing,
 * and `mightHold` false says so without the lookup. It never says false for a bucket that was
 * added, so near-duplicate results are those of probing every band; a false positive costs the
 * lookup that would have been made anyway.
 */

/**
 * Bits of the filter: 2^26, 8 MiB, fixed whatever the crawl's size. Its false-positive rate is the
 * share of bits set: about 0.5% at the 20,200-page synthetic crawl's 317,000 band rows, 2.4% at
 * 1.6M (100,000 pages), 21% at 16M (1,000,000 pages).
 */
export const BUCKET_FILTER_BITS = 2 ** 26;

/** A band's bucket as its bit: buckets are already well-mixed 32-bit hashes (shingles.ts bandBuckets); the band moves them apart. */
function bitOf(band: number, bucket: number): number {
  return (bucket ^ Math.imul(band + 1, 0x9e3779b1)) & (BUCKET_FILTER_BITS - 1);
}

/** The buckets (band, bucket) stored for a crawl, as bits; see the module comment. */
export class BucketFilter {
  private readonly words = new Int32Array(BUCKET_FILTER_BITS / 32);

  /** Records that some page has `bucket` in `band` (a signed 32-bit bucket, as bandBuckets gives). */
  add(band: number, bucket: number): void {
    const bit = bitOf(band, bucket);
    this.words[bit >>> 5]! |= 1 << (bit & 31);
  }

  /** False only when no page was added with `bucket` in `band`. */
  mightHold(band: number, bucket: number): boolean {
    const bit = bitOf(band, bucket);
    return (this.words[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }
}

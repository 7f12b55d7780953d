/** Limits of a {@link BoundedCache}. */
export interface BoundedCacheOptions<V, K extends string | number = string> {
  /** Entries kept at most. @default 100_000 */
  maxEntries?: number;
  /**
   * Estimated bytes kept at most (keys and values, as `sizeOf` counts them). An entry larger than
   * half of it is never stored. @default Infinity (entries only)
   */
  maxBytes?: number;
  /**
   * Estimated bytes of one entry. @default {@link estimateStringBytes} of a string key (8 for a
   * number key) plus 64 (a small value and the Map slot); give one whenever values hold strings of their own.
   */
  sizeOf?: (key: K, value: V) => number;
}

/**
 * Estimated heap bytes of a string: 2 bytes a character (V8 keeps ASCII in one, but a single
 * non-Latin-1 character doubles the whole string) plus a header.
 */
export function estimateStringBytes(text: string): number {
  return 2 * text.length + 24;
}

/**
 * A bounded map (string or number keys) with roughly least-recently-used eviction: two generations of at
 * most half the entries and half the bytes each; a hit in the old generation is promoted, and when
 * the young one fills, the old one is dropped whole. That is O(1) per operation (evicting one entry
 * at a time from a Map's head is O(n) in V8 once deletions pile up) and memory stays flat: at most
 * `maxEntries` entries and about `maxBytes` bytes, whatever the keys (a page can make them 60 KB).
 */
export class BoundedCache<V, K extends string | number = string> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private youngBytes = 0;
  private oldBytes = 0;
  private readonly generationSize: number;
  private readonly generationBytes: number;
  private readonly sizeOf: (key: K, value: V) => number;

  /** @param limits entries kept at most (a number, @default 100_000), or {@link BoundedCacheOptions} */
  constructor(limits: number | BoundedCacheOptions<V, K> = 100_000) {
    const options = typeof limits === 'number' ? { maxEntries: limits } : limits;
    this.generationSize = Math.max(1, Math.floor((options.maxEntries ?? 100_000) / 2));
    this.generationBytes = (options.maxBytes ?? Infinity) / 2;
    this.sizeOf = options.sizeOf ?? ((key) => (typeof key === 'string' ? estimateStringBytes(key) : 8) + 64);
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const older = this.old.get(key);
    if (older !== undefined) this.promote(key, older);
    return older;
  }

  /** True when `key` is held (a hit is promoted, as by get). */
  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Stores `value` under `key`; an entry larger than half of `maxBytes` is not stored. */
  set(key: K, value: V): void {
    const counted = this.generationBytes !== Infinity;
    const bytes = counted ? this.sizeOf(key, value) : 0;
    if (bytes > this.generationBytes) return;
    const previous = this.young.get(key);
    if (previous !== undefined) this.youngBytes -= counted ? this.sizeOf(key, previous) : 0;
    else if (this.young.size >= this.generationSize || this.youngBytes + bytes > this.generationBytes) this.rotate();
    this.young.set(key, value);
    this.youngBytes += bytes;
  }

  /**
   * Moves an old generation's hit into the young one: {@link set} without its look-up of a
   * previous young value (a key found only in the old generation has none). On a crawl whose
   * working set is larger than a generation, most hits are promotions (the link-target cache on
   * the 100,000-page synthetic crawl).
   */
  private promote(key: K, value: V): void {
    const bytes = this.generationBytes !== Infinity ? this.sizeOf(key, value) : 0;
    if (this.young.size >= this.generationSize || this.youngBytes + bytes > this.generationBytes) this.rotate();
    this.young.set(key, value);
    this.youngBytes += bytes;
  }

  /** The young generation becomes the old one (the old one is dropped whole); a new young one starts. */
  private rotate(): void {
    this.old = this.young;
    this.oldBytes = this.youngBytes;
    this.young = new Map();
    this.youngBytes = 0;
  }

  /** Entries held now (at most `maxEntries`). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  /** Estimated bytes held now (at most `maxBytes`; 0 when the cache counts entries only). */
  get bytes(): number {
    return this.youngBytes + this.oldBytes;
  }
}

/**
 * The fast path of the URL-seen test: normalized key → URL id (about 130 bytes an entry; keys are
 * UUIDs, so entries are of bounded size). It only ever holds keys already in SQLite, so a hit is
 * exact and a miss falls back to the database (no Bloom-filter false positives). The frontier's
 * rows keep the URL's source bits beside its id in the one number ({@link seenEntry}), so a link to
 * a URL already known as linked costs no write.
 */
export class SeenCache extends BoundedCache<number> {}

/** Source bits a {@link seenEntry} holds beside the id (shared/types/url-sources.ts uses 5). */
const SOURCE_BITS_SPAN = 64;

/**
 * One number holding a URL id and its source bitmask (below 64), exact for ids up to 2^47.
 * @example seenEntry(3, 6) → 198; seenEntryId(198) → 3; seenEntrySources(198) → 6
 */
export function seenEntry(id: number, sources: number): number {
  return id * SOURCE_BITS_SPAN + (sources % SOURCE_BITS_SPAN);
}

/** The URL id of a {@link seenEntry}. */
export function seenEntryId(entry: number): number {
  return Math.floor(entry / SOURCE_BITS_SPAN);
}

/** The source bitmask of a {@link seenEntry}. */
export function seenEntrySources(entry: number): number {
  return entry % SOURCE_BITS_SPAN;
}

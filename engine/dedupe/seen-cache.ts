/**
 * A bounded string-keyed map with roughly least-recently-used eviction: two generations of at
 * most capacity/2 entries each; a hit in the old generation is promoted, and when the young one
 * fills, the old one is dropped whole. That is O(1) per operation (evicting one entry at a time
 * from a Map's head is O(n) in V8 once deletions pile up) and memory stays flat.
 */
export class BoundedCache<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();
  private readonly generationSize: number;

  /** @param capacity entries kept at most. @default 100_000 */
  constructor(capacity = 100_000) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: string): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const older = this.old.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: string, value: V): void {
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  /** Entries held now (at most the capacity). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}

/**
 * The fast path of the URL-seen test: normalized key → URL id (about 130 bytes an entry). It only
 * ever holds keys already in SQLite, so a hit is exact and a miss falls back to the database (no
 * Bloom-filter false positives).
 */
export class SeenCache extends BoundedCache<number> {}

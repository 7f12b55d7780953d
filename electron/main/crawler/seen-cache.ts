/**
 * A bounded map from normalized key to URL id: the fast path of the URL-seen test. It only ever
 * holds keys already in SQLite, so a hit is exact and a miss falls back to the database (no
 * Bloom-filter false positives). Two generations of at most capacity/2 entries each: a hit in the
 * old generation is promoted, and when the young one fills, the old one is dropped whole. That is
 * O(1) per operation (evicting one entry at a time from a Map's head is O(n) in V8 once deletions
 * pile up) and memory stays flat as the frontier grows.
 */
export class SeenCache {
  private young = new Map<string, number>();
  private old = new Map<string, number>();
  private readonly generationSize: number;

  /** @param capacity entries kept at most (about 130 bytes each). @default 100_000 */
  constructor(capacity = 100_000) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: string): number | undefined {
    const id = this.young.get(key);
    if (id !== undefined) return id;
    const older = this.old.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: string, id: number): void {
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, id);
  }

  /** Entries held now (at most the capacity). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}

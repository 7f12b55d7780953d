/**
 * A bounded LRU map from normalized key to URL id: the fast path of the URL-seen test. It only
 * ever holds keys already in SQLite, so a hit is exact and a miss falls back to the database
 * (no Bloom-filter false positives). Size is capped, so memory stays flat as the frontier grows.
 */
export class SeenCache {
  private readonly entries = new Map<string, number>();

  /** @param capacity entries kept (about 130 bytes each). @default 100_000 */
  constructor(private readonly capacity = 100_000) {}

  get(key: string): number | undefined {
    const id = this.entries.get(key);
    if (id !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, id);
    }
    return id;
  }

  set(key: string, id: number): void {
    this.entries.delete(key);
    this.entries.set(key, id);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}

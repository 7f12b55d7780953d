/**
 * Pages of rows fetched by visible range: the renderer never holds a whole table. Keeps at most
 * `maxPages` pages (least recently used dropped), so memory is bounded however large the table.
 * `invalidate()` marks pages stale: they are still shown (no flicker) until their reload lands.
 */
export class PageCache<Row> {
  private readonly pages = new Map<number, { rows: Row[]; stale: boolean }>();
  private readonly loading = new Set<number>();

  constructor(
    readonly pageSize: number,
    private readonly maxPages = 20,
  ) {}

  /** The row at `index`, or undefined when its page is not loaded yet. */
  row(index: number): Row | undefined {
    const page = Math.floor(index / this.pageSize);
    const entry = this.pages.get(page);
    if (!entry) return undefined;
    this.pages.delete(page);
    this.pages.set(page, entry);
    return entry.rows[index % this.pageSize];
  }

  /** Page numbers covering rows [first, last] that are missing or stale and not loading. */
  missing(first: number, last: number): number[] {
    const result: number[] = [];
    for (let page = Math.floor(Math.max(0, first) / this.pageSize); page <= Math.floor(Math.max(0, last) / this.pageSize); page += 1) {
      const entry = this.pages.get(page);
      if ((!entry || entry.stale) && !this.loading.has(page)) result.push(page);
    }
    return result;
  }

  markLoading(page: number): void {
    this.loading.add(page);
  }

  /** A load ended without rows to keep (failed or superseded). */
  cancel(page: number): void {
    this.loading.delete(page);
  }

  store(page: number, rows: Row[]): void {
    this.loading.delete(page);
    this.pages.delete(page);
    this.pages.set(page, { rows, stale: false });
    while (this.pages.size > this.maxPages) {
      const oldest = this.pages.keys().next().value as number;
      this.pages.delete(oldest);
    }
  }

  /** Marks every page stale (the data changed); they stay visible until reloaded. */
  invalidate(): void {
    for (const entry of this.pages.values()) entry.stale = true;
  }

  /** Forgets every page and pending load (another query). */
  clear(): void {
    this.pages.clear();
    this.loading.clear();
  }

  /** Pages held (for tests and the memory bound). */
  get size(): number {
    return this.pages.size;
  }
}

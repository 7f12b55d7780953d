/**
 * Pages of rows fetched by visible range: the renderer never holds a whole table. Keeps at most
 * `maxPages` pages (least recently used dropped), so memory is bounded however large the table.
 */
export class PageCache<Row> {
  private readonly pages = new Map<number, Row[]>();
  private readonly loading = new Set<number>();

  constructor(
    readonly pageSize: number,
    private readonly maxPages = 20,
  ) {}

  /** The row at `index`, or undefined when its page is not loaded yet. */
  row(index: number): Row | undefined {
    const page = Math.floor(index / this.pageSize);
    const rows = this.pages.get(page);
    if (!rows) return undefined;
    this.pages.delete(page);
    this.pages.set(page, rows);
    return rows[index % this.pageSize];
  }

  /** Page numbers covering rows [first, last] that are neither loaded nor loading. */
  missing(first: number, last: number): number[] {
    const result: number[] = [];
    for (let page = Math.floor(first / this.pageSize); page <= Math.floor(last / this.pageSize); page += 1) {
      if (!this.pages.has(page) && !this.loading.has(page)) result.push(page);
    }
    return result;
  }

  markLoading(page: number): void {
    this.loading.add(page);
  }

  store(page: number, rows: Row[]): void {
    this.loading.delete(page);
    this.pages.set(page, rows);
    while (this.pages.size > this.maxPages) {
      const oldest = this.pages.keys().next().value as number;
      this.pages.delete(oldest);
    }
  }

  /** Forgets every page (the data changed); loads in progress are kept. */
  clear(): void {
    this.pages.clear();
  }
}

/**
 * A binary min-heap of hosts keyed by the time each may next be fetched from (IIR 20.2.3: the heap
 * of back-queue "earliest time" entries). Ties go to the host pushed first, so no host starves.
 */
export class HostHeap {
  private readonly items: { host: string; atMs: number; order: number }[] = [];
  private counter = 0;

  get size(): number {
    return this.items.length;
  }

  push(host: string, atMs: number): void {
    this.items.push({ host, atMs, order: this.counter++ });
    this.up(this.items.length - 1);
  }

  /** The earliest entry without removing it. */
  peek(): { host: string; atMs: number } | undefined {
    return this.items[0];
  }

  pop(): { host: string; atMs: number } | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (top && last && this.items.length > 0) {
      this.items[0] = last;
      this.down(0);
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const x = this.items[a]!;
    const y = this.items[b]!;
    return x.atMs < y.atMs || (x.atMs === y.atMs && x.order < y.order);
  }

  private swap(a: number, b: number): void {
    const tmp = this.items[a]!;
    this.items[a] = this.items[b]!;
    this.items[b] = tmp;
  }

  private up(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.less(child, parent)) return;
      this.swap(child, parent);
      child = parent;
    }
  }

  private down(index: number): void {
    let parent = index;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < this.items.length && this.less(left, smallest)) smallest = left;
      if (right < this.items.length && this.less(right, smallest)) smallest = right;
      if (smallest === parent) return;
      this.swap(parent, smallest);
      parent = smallest;
    }
  }
}

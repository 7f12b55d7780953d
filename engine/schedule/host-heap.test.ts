import { describe, expect, it } from 'vitest';
import { HostHeap } from './host-heap';

function drain(heap: HostHeap): { host: string; atMs: number }[] {
  const out: { host: string; atMs: number }[] = [];
  for (let entry = heap.pop(); entry; entry = heap.pop()) out.push({ host: entry.host, atMs: entry.atMs });
  return out;
}

describe('HostHeap', () => {
  it('is empty at first', () => {
    const heap = new HostHeap();
    expect(heap.size).toBe(0);
    expect(heap.peek()).toBeUndefined();
    expect(heap.pop()).toBeUndefined();
  });

  it('pops entries in time order regardless of push order', () => {
    const heap = new HostHeap();
    heap.push('c', 300);
    heap.push('a', 100);
    heap.push('d', 400);
    heap.push('b', 200);
    heap.push('e', 0);
    expect(heap.size).toBe(5);
    expect(heap.peek()).toMatchObject({ host: 'e', atMs: 0 });
    expect(drain(heap).map((e) => e.host)).toEqual(['e', 'a', 'b', 'c', 'd']);
    expect(heap.size).toBe(0);
  });

  it('peek does not remove', () => {
    const heap = new HostHeap();
    heap.push('x', 5);
    heap.push('y', 1);
    expect(heap.peek()?.host).toBe('y');
    expect(heap.peek()?.host).toBe('y');
    expect(heap.size).toBe(2);
  });

  it('breaks ties first-in first-out', () => {
    const heap = new HostHeap();
    for (const host of ['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8', 'h9']) heap.push(host, 50);
    expect(drain(heap).map((e) => e.host)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8', 'h9']);
  });

  it('keeps FIFO among equal times mixed with other times and interleaved pops', () => {
    const heap = new HostHeap();
    heap.push('late', 20);
    heap.push('t10-a', 10);
    heap.push('t10-b', 10);
    expect(heap.pop()?.host).toBe('t10-a');
    heap.push('t10-c', 10);
    heap.push('t20-b', 20);
    heap.push('early', 5);
    expect(drain(heap).map((e) => e.host)).toEqual(['early', 't10-b', 't10-c', 'late', 't20-b']);
  });

  it('orders a large random set by (time, insertion order)', () => {
    const heap = new HostHeap();
    let seed = 12_345;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pushed: { host: string; atMs: number; order: number }[] = [];
    for (let i = 0; i < 2_000; i++) {
      const atMs = Math.floor(random() * 50); // many ties
      pushed.push({ host: `h${i}`, atMs, order: i });
      heap.push(`h${i}`, atMs);
    }
    const expected = [...pushed].sort((a, b) => a.atMs - b.atMs || a.order - b.order).map((e) => e.host);
    expect(drain(heap).map((e) => e.host)).toEqual(expected);
  });
});

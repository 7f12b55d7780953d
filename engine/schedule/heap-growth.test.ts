import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * A child process that keeps about 150 MB live while it churns allocations, and prints its V8
 * heap's largest total size (MB), with or without limitHeapGrowth().
 */
function peakHeapMb(limited: boolean): number {
  const script = `
    import v8 from 'node:v8';
    import { limitHeapGrowth } from ${JSON.stringify(new URL('./heap-growth.ts', import.meta.url).href)};
    if (${limited}) limitHeapGrowth();
    const live = new Map();
    let peak = 0;
    for (let i = 0; i < 3_000_000; i += 1) {
      live.set('k' + (i % 600_000), { a: 'v' + i, b: [i, i + 1] });
      if (i % 50_000 === 0) peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
    }
    console.log(Math.round(peak / 1048576));`;
  return Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim());
}

describe('limitHeapGrowth', () => {
  it('keeps a churning heap much nearer its live set than V8 does by default', () => {
    const unlimited = peakHeapMb(false);
    const limited = peakHeapMb(true);
    expect(limited).toBeLessThan(unlimited * 0.8);
  }, 60_000);
});

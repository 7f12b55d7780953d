import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createThrottledRefresh } from './refresh';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const timers = { now: () => Date.now(), setTimeout: (callback: () => void, delayMs: number) => setTimeout(callback, delayMs), clearTimeout: (handle: unknown) => clearTimeout(handle as number) };

/** A load that stays in flight until `finish()`. */
function controlledLoad() {
  const calls: (() => void)[] = [];
  const load = vi.fn(() => new Promise<void>((resolve) => calls.push(resolve)));
  return {
    load,
    async finish() {
      calls.shift()!();
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe('createThrottledRefresh', () => {
  it('loads at once, merges triggers during a load into one, and waits the gap after it', async () => {
    const { load, finish } = controlledLoad();
    const refresh = createThrottledRefresh(load, () => 1_000, timers);
    refresh.trigger();
    expect(load).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i += 1) refresh.trigger();
    expect(load).toHaveBeenCalledTimes(1);
    await finish();
    await vi.advanceTimersByTimeAsync(999);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await finish();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('reads the gap after each load (a slower query spaces refreshes more)', async () => {
    const { load, finish } = controlledLoad();
    let gapMs = 100;
    const refresh = createThrottledRefresh(load, () => gapMs, timers);
    refresh.trigger();
    gapMs = 3_000;
    await finish();
    refresh.trigger();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('starts nothing after dispose', async () => {
    const { load, finish } = controlledLoad();
    const refresh = createThrottledRefresh(load, () => 500, timers);
    refresh.trigger();
    refresh.trigger();
    refresh.dispose();
    await finish();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(1);
  });
});

/**
 * A refresh that many triggers (progress events, several a second) run at a bounded rate: at most
 * one load at a time, the next one no sooner than `gapMs()` after the last ended, and triggers
 * meanwhile merged into one. The Overview's live charts use it with a gap that grows with the
 * time main took to compute them (CrawlOverview.queryMs).
 */
export interface ThrottledRefresh {
  /** Asks for a refresh: runs now if allowed, else once when the gap has passed. */
  trigger(): void;
  /** Stops: no load starts after this. */
  dispose(): void;
}

/** Timer functions, injectable for tests (fake timers) and the clock, milliseconds. */
export interface RefreshTimers {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

const DEFAULT_TIMERS: RefreshTimers = {
  now: () => performance.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Creates a throttled refresh around `load` (which should not throw; its rejection is ignored).
 * @param gapMs the least milliseconds between the end of one load and the start of the next, read after each load
 */
export function createThrottledRefresh(load: () => Promise<void>, gapMs: () => number, timers: RefreshTimers = DEFAULT_TIMERS): ThrottledRefresh {
  let loading = false;
  let wanted = false;
  let disposed = false;
  let timer: unknown = null;
  let lastEndMs = -Infinity;

  const run = () => {
    timer = null;
    wanted = false;
    loading = true;
    void load()
      .catch(() => undefined)
      .finally(() => {
        loading = false;
        lastEndMs = timers.now();
        if (wanted && !disposed) schedule();
      });
  };

  const schedule = () => {
    if (disposed) return;
    wanted = true;
    if (loading || timer !== null) return;
    const waitMs = lastEndMs + gapMs() - timers.now();
    if (waitMs <= 0) run();
    else timer = timers.setTimeout(run, waitMs);
  };

  return {
    trigger: schedule,
    dispose() {
      disposed = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}

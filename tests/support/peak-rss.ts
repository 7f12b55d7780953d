/**
 * Peak resident set of another process, as the hostile suite and the benchmarks report it: VmHWM
 * from /proc/PID/status (Linux), the kernel's own high-water mark, so a sample taken late still
 * sees an earlier peak.
 */
import fs from 'node:fs';

/** The process's peak RSS so far in kB, or null when it is gone (or /proc is not there). */
export function peakRssKb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Samples `pid`'s peak RSS every `intervalMs` until stop(), which returns the highest value seen,
 * in MB (0 when none was read). Sampling until exit keeps the last value before the process ends.
 */
export function samplePeakRss(pid: number | undefined, intervalMs = 25): { stop(): number } {
  let peakKb = 0;
  const sample = (): void => {
    peakKb = Math.max(peakKb, peakRssKb(pid) ?? 0);
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peakKb / 1024;
    },
  };
}

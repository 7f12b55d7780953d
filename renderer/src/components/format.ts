/** Elapsed time as m:ss (or h:mm:ss). @example formatElapsed(75_000) → '1:15' */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** An epoch-ms time as local date and time. */
export function formatTime(atMs: number): string {
  return new Date(atMs).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

/**
 * A count with its noun in the right number (one helper for every view's totals). Digits are
 * not grouped: counts stay as the counters and exports print them.
 * @param count a whole number (negative counts read as their magnitude's plural)
 * @param singular the noun for one ("URL", "entry")
 * @param plural the noun for any other count @default singular + 's'
 * @example formatCount(1, 'URL') → '1 URL'
 * @example formatCount(2, 'URL') → '2 URLs'
 * @example formatCount(0, 'entry', 'entries') → '0 entries'
 */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/**
 * How long until an epoch-ms time, as a host table's "Next eligible" cell: tenths of a second
 * under a minute, then minutes and seconds, then hours and minutes. A time at or before `nowMs`
 * is "now" (a waiting host never shows a past time); null is ''.
 * @example formatCountdown(11_200, 10_000) → 'in 1.2 s'
 * @example formatCountdown(9_000, 10_000) → 'now'
 * @example formatCountdown(10_000 + 125_000, 10_000) → 'in 2 min 5 s'
 */
export function formatCountdown(atMs: number | null, nowMs: number): string {
  if (atMs === null) return '';
  const leftMs = atMs - nowMs;
  if (leftMs <= 0) return 'now';
  // Rounded up, so "in 0.0 s" never shows while the host still waits.
  const tenths = Math.ceil(leftMs / 100);
  if (tenths < 600) return `in ${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.ceil(leftMs / 1000);
  if (seconds < 3600) return `in ${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

/** Saves text as a file through the browser (a Blob link), in Electron and browser mode alike. */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

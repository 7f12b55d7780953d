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
 * A time of day with milliseconds (a host's next eligible time: politeness delays are often
 * milliseconds long), or '' for null.
 * @example formatClock(Date.UTC(2026, 0, 1, 10, 15, 30, 250)) → '10:15:30.250' (in UTC)
 */
export function formatClock(atMs: number | null): string {
  if (atMs === null) return '';
  const time = new Date(atMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(time.getHours())}:${two(time.getMinutes())}:${two(time.getSeconds())}.${String(time.getMilliseconds()).padStart(3, '0')}`;
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

/**
 * Milliseconds a Retry-After header asks to wait (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
 * @example retryAfterMs('120', 0) // 120000
 * @example retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')) // 60000
 * @returns null when the header is absent or unusable
 */
export function retryAfterMs(header: string | null | undefined, nowMs: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

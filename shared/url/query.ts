/**
 * Query-string helpers for the query rules: the query is handled as `&`-separated `name=value`
 * pairs in their encoded form (no decode/re-encode round trip, so `+` and escapes survive).
 */

/** The name part of an encoded `name=value` pair (the whole pair when it has no `=`). */
export function pairName(pair: string): string {
  const equals = pair.indexOf('=');
  return equals === -1 ? pair : pair.slice(0, equals);
}

/** The value part of an encoded pair ('' when it has no `=`). */
export function pairValue(pair: string): string {
  const equals = pair.indexOf('=');
  return equals === -1 ? '' : pair.slice(equals + 1);
}

/**
 * Orders two encoded pairs by name, then by value, in UTF-16 code unit order. Ordering by value
 * too makes the result independent of the input order when a name repeats.
 */
export function comparePairs(a: string, b: string): number {
  const nameA = pairName(a);
  const nameB = pairName(b);
  if (nameA !== nameB) return nameA < nameB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SQL parameter placeholders for statements whose shape depends on a count. */

/**
 * `rows` parenthesized lists of `columns` anonymous placeholders, comma-separated: the VALUES of a
 * multi-row INSERT, or (one row) the list of an `IN (…)`.
 * @example placeholderRows(2, 3) → '(?, ?, ?), (?, ?, ?)'
 */
export function placeholderRows(rows: number, columns: number): string {
  const row = `(${Array<string>(columns).fill('?').join(', ')})`;
  return Array<string>(rows).fill(row).join(', ');
}

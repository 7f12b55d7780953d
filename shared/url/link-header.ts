/**
 * The HTTP `Link` header (RFC 8288 §3): `<uri-reference>; param=value, <…>; …`, read only as far
 * as canonical-URL detection needs (target and `rel` values).
 */

/** One link of a Link header: its target as written and its relation types (lowercase). */
export interface HeaderLink {
  target: string;
  rels: string[];
}

/**
 * Parses a Link header value into links (quoted parameter values may hold `,` and `;`).
 * @example parseLinkHeader('<https://a.test/p>; rel="canonical", </x>; rel="next prefetch"') → [{ target: 'https://a.test/p', rels: ['canonical'] }, { target: '/x', rels: ['next', 'prefetch'] }]
 */
export function parseLinkHeader(value: string): HeaderLink[] {
  const links: HeaderLink[] = [];
  const n = value.length;
  let i = 0;
  while (i < n) {
    const open = value.indexOf('<', i);
    if (open === -1) break;
    const close = value.indexOf('>', open + 1);
    if (close === -1) break;
    const link: HeaderLink = { target: value.slice(open + 1, close).trim(), rels: [] };
    links.push(link);
    i = close + 1;
    // Parameters: `; name=value` or `; name="quoted"`, until the comma that ends this link.
    while (i < n) {
      while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
      if (i >= n || value[i] !== ';') break;
      const nameStart = ++i;
      while (i < n && value[i] !== '=' && value[i] !== ';' && value[i] !== ',') i++;
      const name = value.slice(nameStart, i).trim().toLowerCase();
      let paramValue = '';
      if (value[i] === '=') {
        i++;
        while (i < n && value[i] === ' ') i++;
        if (value[i] === '"') {
          for (i++; i < n && value[i] !== '"'; i++) {
            if (value[i] === '\\') i++;
            paramValue += value[i] ?? '';
          }
          i++;
        } else {
          const valueStart = i;
          while (i < n && value[i] !== ';' && value[i] !== ',') i++;
          paramValue = value.slice(valueStart, i).trim();
        }
      }
      if (name === 'rel') link.rels.push(...paramValue.toLowerCase().split(/\s+/).filter((rel) => rel !== ''));
    }
    const comma = value.indexOf(',', i);
    if (comma === -1) break;
    i = comma + 1;
  }
  return links;
}

import type { Database } from 'better-sqlite3';

/**
 * 0009: what the results workbench (issue 11) analyses per page and per link. Every column is
 * nullable: pages and links stored before have none. Written by the result committer from what
 * the crawl worker extracts (engine/parse/parse-html.ts, page-processor.ts); each string is capped,
 * so a hostile page cannot store megabytes:
 * - `pages.response_headers_json`: every response header as a JSON object of lower-case names in
 *   the order received, repeats joined with ", "; at most 16 KiB of JSON. A header that does not
 *   fit is cut (ending "…") or left out, and the key `:truncated` says how many
 *   (engine/fetch/response-headers.ts). Also set for redirect hops.
 * - `meta_description` (2,048 characters, whitespace collapsed), `h1` (the first H1's text, 1,024),
 *   `canonical_url` (`<link rel=canonical>` resolved against the base URL, else a
 *   `Link: <…>; rel="canonical"` header; absolute http(s), no fragment, 2,048),
 *   `robots_directives` (meta robots, meta googlebot and X-Robots-Tag, lower case, ", "-separated,
 *   512), `indexability` (shared/types/pages.ts INDEXABILITY, engine/parse/indexability.ts),
 *   `word_count` (words of visible text; 0 for HTML without text, null when not parsed), `lang`
 *   (`<html lang>`, else Content-Language, 64).
 * - `links.anchor_text` (an `<a>`'s text with its images' alt, an `<area>`'s alt; whitespace
 *   collapsed, 200), `element` (a, area, frame, iframe, link for a canonical, redirect for a
 *   Location: worker/protocol.ts linkElement), `rel` (lower case, space-separated, 128).
 */
export const migration0009 = {
  version: 9,
  name: 'page-analysis',
  up(db: Database): void {
    db.exec(`
      ALTER TABLE pages ADD COLUMN response_headers_json TEXT;
      ALTER TABLE pages ADD COLUMN meta_description TEXT;
      ALTER TABLE pages ADD COLUMN h1 TEXT;
      ALTER TABLE pages ADD COLUMN canonical_url TEXT;
      ALTER TABLE pages ADD COLUMN robots_directives TEXT;
      ALTER TABLE pages ADD COLUMN indexability TEXT;
      ALTER TABLE pages ADD COLUMN word_count INTEGER;
      ALTER TABLE pages ADD COLUMN lang TEXT;
      ALTER TABLE links ADD COLUMN anchor_text TEXT;
      ALTER TABLE links ADD COLUMN element TEXT;
      ALTER TABLE links ADD COLUMN rel TEXT;
    `);
  },
};

import type { Database } from 'better-sqlite3';

/**
 * 0009: what the results workbench (issue 11) analyses per page and per link. Pages gain the
 * response headers (JSON object of lower-case names to values, size-capped), meta description,
 * first H1, the `rel=canonical` target (resolved, absolute), the robots directives of the meta
 * robots tags and X-Robots-Tag headers (comma-separated, lower case), the indexability verdict
 * (shared/types/pages.ts INDEXABILITY), the visible text's word count and the document language
 * (`<html lang>` or Content-Language). Links gain their anchor text (trimmed, capped), the element
 * they came from (a, area, link, iframe, img, redirect …) and their `rel` tokens (space-separated,
 * lower case: nofollow, sponsored, ugc …). Every column is nullable: pages stored before have none.
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

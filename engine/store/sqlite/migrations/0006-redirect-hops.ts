import type { Database } from 'better-sqlite3';

/**
 * 0006: redirects are first-class (RFC 9110 §15.4). A 3xx answer is stored as the URL's own
 * result and its target enters the frontier as its own URL, discovered from the 3xx URL through
 * a `redirect` link:
 * - `urls.redirect_hops`: how many consecutive redirects led to the URL when it was first
 *   discovered (0 for seeds and links found in pages); a URL reached through more than the
 *   crawl's `maxRedirects` is refused with REDIRECT_LIMIT before it is fetched.
 * - `pages.location`: the Location of a 3xx answer, resolved against the URL and without its
 *   fragment (the raw header when it does not resolve); null for every other answer.
 * Rows written before 0006 keep the in-worker chain in `pages.redirect_chain_json`.
 */
export const migration0006 = {
  version: 6,
  name: 'redirect-hops',
  up(db: Database): void {
    db.exec(`
      ALTER TABLE urls ADD COLUMN redirect_hops INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE pages ADD COLUMN location TEXT;
    `);
  },
};

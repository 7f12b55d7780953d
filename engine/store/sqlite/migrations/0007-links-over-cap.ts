import type { Database } from 'better-sqlite3';

/**
 * 0007: `pages.links_over_cap`, the links of a page past the per-page cap (MAX_LINKS_PER_PAGE in
 * crawler/parse-html.ts) that were counted but not kept, so a page that lost links says how many
 * (issue 9, defect 11). 0 for every page stored before.
 */
export const migration0007 = {
  version: 7,
  name: 'links-over-cap',
  up(db: Database): void {
    db.exec(`ALTER TABLE pages ADD COLUMN links_over_cap INTEGER NOT NULL DEFAULT 0;`);
  },
};

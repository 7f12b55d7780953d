import type { Database } from 'better-sqlite3';

/**
 * 0024: custom extraction results (issue 14 part 2): one row per page, the values of the crawl's
 * named extractors as one JSON object (`{"price": "12.50", "images": 3, …}`, shared/types/extraction.ts
 * ExtractedValue), so the Pages table reads a column with json_extract and a re-run over stored
 * bodies replaces a page's row in one write.
 */
export const migration0024 = {
  version: 24,
  name: 'page-extractions',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE page_extractions (
        url_id INTEGER PRIMARY KEY REFERENCES urls(id) ON DELETE CASCADE,
        values_json TEXT NOT NULL
      );
    `);
  },
};

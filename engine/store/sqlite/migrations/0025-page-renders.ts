import type { Database } from 'better-sqlite3';

/**
 * 0025: JavaScript rendering (issue 14 part 3): one row per rendered page (engine/render/
 * render-record.ts RenderRecord): why it was rendered, the render's wall time in ms, the requests
 * fetched for it through the crawler, refused (closed mode, robots.txt, per-page cap …) and
 * skipped (images, media, fonts), the links only the rendered DOM had, and its words. A page
 * fetched again without rendering loses its row (it would describe another answer).
 */
export const migration0025 = {
  version: 25,
  name: 'page-renders',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE page_renders (
        url_id INTEGER PRIMARY KEY REFERENCES urls(id) ON DELETE CASCADE,
        reason TEXT NOT NULL,
        render_ms INTEGER NOT NULL,
        requests INTEGER NOT NULL,
        blocked_requests INTEGER NOT NULL,
        skipped_requests INTEGER NOT NULL,
        rendered_links INTEGER NOT NULL,
        rendered_words INTEGER NOT NULL
      );
    `);
  },
};

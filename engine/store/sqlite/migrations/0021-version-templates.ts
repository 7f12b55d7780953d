import type { Database } from 'better-sqlite3';

/**
 * 0021: seed 001's version URL templates, kept as the crawl stores URLs (issue 12 part 7;
 * engine/store/sqlite/version-index.ts writes them).
 * - `version_templates`: one row per template of a crawl (`https://docs.python.org/%s/library/os.html`)
 *   with `versions`, the number of distinct versions (member URLs) seen. A template is shown once
 *   it has two; a row with one is a spilled singleton (the writer's in-memory index overflowed, or
 *   the run ended) that a later version may join.
 * - `url_versions`: each URL's place in a template (the template and its version segment). A URL
 *   with two version-like directories (`/v2/api/3.1/x`) may be in two templates; readers pick the
 *   one with more versions. Keyed by template (a template's members are one range); looked up by
 *   URL through `url_versions_by_url`.
 * Crawls made before it get their templates when they are resumed (the writer indexes the URLs it
 * finds, version-index.ts `catchUp`).
 */
export const migration0021 = {
  version: 21,
  name: 'version-templates',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE version_templates (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        template TEXT NOT NULL,
        versions INTEGER NOT NULL CHECK (versions >= 0),
        UNIQUE (crawl_id, template)
      );
      CREATE INDEX version_templates_by_versions ON version_templates (crawl_id, versions, id);
      CREATE TABLE url_versions (
        template_id INTEGER NOT NULL REFERENCES version_templates(id) ON DELETE CASCADE,
        url_id INTEGER NOT NULL REFERENCES urls(id) ON DELETE CASCADE,
        version TEXT NOT NULL,
        PRIMARY KEY (template_id, url_id)
      ) WITHOUT ROWID;
      CREATE INDEX url_versions_by_url ON url_versions (url_id);
    `);
  },
};

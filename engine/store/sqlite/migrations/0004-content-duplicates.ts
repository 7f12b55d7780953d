import type { Database } from 'better-sqlite3';

/**
 * 0004: content-seen test (seed 003; IIR 19.6 and 20.2). Each HTML page gets an exact content
 * fingerprint (SHA-256 of its normalized visible text) and a MinHash sketch of its word shingles;
 * LSH band buckets find near-duplicate candidates; groups of duplicate pages are stored with
 * their members and each member's estimated Jaccard similarity to the group's first page.
 */
export const migration0004 = {
  version: 4,
  name: 'content-duplicates',
  up(db: Database): void {
    db.exec(`
      ALTER TABLE pages ADD COLUMN fingerprint TEXT;
      ALTER TABLE pages ADD COLUMN minhash BLOB;
      ALTER TABLE pages ADD COLUMN text_chars INTEGER;
      ALTER TABLE pages ADD COLUMN noindex INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX pages_by_fingerprint ON pages (crawl_id, fingerprint);

      CREATE TABLE minhash_bands (
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        band INTEGER NOT NULL,
        bucket INTEGER NOT NULL,
        url_id INTEGER NOT NULL REFERENCES urls(id) ON DELETE CASCADE
      );
      CREATE INDEX minhash_bands_by_bucket ON minhash_bands (crawl_id, band, bucket);

      CREATE TABLE content_groups (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('exact', 'near')),
        fingerprint TEXT,
        first_url_id INTEGER NOT NULL REFERENCES urls(id) ON DELETE CASCADE,
        created_at_ms INTEGER NOT NULL
      );
      CREATE INDEX content_groups_by_crawl ON content_groups (crawl_id, kind);
      CREATE UNIQUE INDEX content_groups_exact ON content_groups (crawl_id, fingerprint) WHERE kind = 'exact';

      CREATE TABLE content_group_members (
        group_id INTEGER NOT NULL REFERENCES content_groups(id) ON DELETE CASCADE,
        url_id INTEGER NOT NULL REFERENCES urls(id) ON DELETE CASCADE,
        similarity REAL NOT NULL,
        PRIMARY KEY (group_id, url_id)
      ) WITHOUT ROWID;
      CREATE INDEX content_group_members_by_url ON content_group_members (url_id);
    `);
  },
};

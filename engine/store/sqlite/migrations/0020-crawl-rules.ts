import type { Database } from 'better-sqlite3';

/**
 * 0020: rules promoted into a crawl's normalization (issue 12 part 6): a DUST rule
 * (shared/url/dust) accepted by the user, with what accepting it did to the frontier, and the undo
 * log that takes it back.
 * - `crawl_rules`: one row per accepted rule, in acceptance order (`id`). `rule_json` is the rule
 *   (validateDustRule's shape); `source` says where it came from (`dust`: mining over the whole
 *   crawl; `content-group`: the difference between one content group's duplicates);
 *   `undone_at_ms` is set by an undo (the row stays, as history). The counts are what the re-key
 *   did: URLs given a new key, pending URLs merged into another URL (each one a fetch
 *   saved), and fetched URLs found to duplicate another fetched URL (left as they are). Epoch ms.
 * - `crawl_rule_changes`: the undo log of one acceptance, in order (`seq`): `rekey` (a URL's old
 *   key, normalized string, depth and priority) and `merge` (a pending URL row removed, with its
 *   aliases, the links repointed to the URL kept, and the inlinks moved), as JSON in `data_json`.
 */
export const migration0020 = {
  version: 20,
  name: 'crawl-rules',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE crawl_rules (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        source TEXT NOT NULL CHECK (source IN ('dust', 'content-group')),
        rule_json TEXT NOT NULL,
        description TEXT NOT NULL,
        accepted_at_ms INTEGER NOT NULL,
        undone_at_ms INTEGER,
        rekeyed INTEGER NOT NULL DEFAULT 0,
        merged INTEGER NOT NULL DEFAULT 0,
        fetched_duplicates INTEGER NOT NULL DEFAULT 0,
        CHECK (undone_at_ms IS NULL OR undone_at_ms >= accepted_at_ms)
      );
      CREATE INDEX crawl_rules_by_crawl ON crawl_rules (crawl_id, id);
      CREATE TABLE crawl_rule_changes (
        rule_id INTEGER NOT NULL REFERENCES crawl_rules(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('rekey', 'merge')),
        url_id INTEGER NOT NULL,
        data_json TEXT NOT NULL,
        PRIMARY KEY (rule_id, seq)
      ) WITHOUT ROWID;
    `);
  },
};

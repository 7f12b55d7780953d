/**
 * PostgreSQL schema step 2: stored bodies (issue 14 part 1), as SQLite's migration 0023: one row
 * per fetched page, the body compressed (engine/bodies/stored-body.ts) in a bytea that PostgreSQL
 * keeps out of line (TOAST), apart from the frontier's tables.
 */
export const POSTGRES_SCHEMA_2 = `
CREATE TABLE page_bodies (
  url_id bigint PRIMARY KEY REFERENCES urls(id) ON DELETE CASCADE,
  crawl_id bigint NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
  encoding text NOT NULL,
  raw_bytes bigint NOT NULL,
  truncated smallint NOT NULL,
  payload_digest text NOT NULL,
  body bytea NOT NULL
);
-- Bodies are compressed already: PostgreSQL's own TOAST compression would only cost CPU.
ALTER TABLE page_bodies ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE INDEX page_bodies_by_crawl ON page_bodies (crawl_id, url_id);
`;

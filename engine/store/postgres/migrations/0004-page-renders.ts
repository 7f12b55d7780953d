/** PostgreSQL schema step 4: JavaScript rendering records (issue 14 part 3), as SQLite's migration 0025. */
export const POSTGRES_SCHEMA_4 = `
CREATE TABLE page_renders (
  url_id bigint PRIMARY KEY REFERENCES urls(id) ON DELETE CASCADE,
  crawl_id bigint NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
  reason text NOT NULL,
  render_ms integer NOT NULL,
  requests integer NOT NULL,
  blocked_requests integer NOT NULL,
  skipped_requests integer NOT NULL,
  rendered_links integer NOT NULL,
  rendered_words integer NOT NULL
);
CREATE INDEX page_renders_by_crawl ON page_renders (crawl_id, url_id);
`;

/** PostgreSQL schema step 3: custom extraction results (issue 14 part 2), as SQLite's migration 0024. */
export const POSTGRES_SCHEMA_3 = `
CREATE TABLE page_extractions (
  url_id bigint PRIMARY KEY REFERENCES urls(id) ON DELETE CASCADE,
  crawl_id bigint NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
  values_json text NOT NULL
);
CREATE INDEX page_extractions_by_crawl ON page_extractions (crawl_id, url_id);
`;

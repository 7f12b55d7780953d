import type { Database } from 'better-sqlite3';

/**
 * 0026: page text excerpts in blocks (page-text-codec.ts): a commit batch's texts are one row of
 * `page_text_blocks`, and a page row names its text by `text_block_id` and `text_slot`, instead of
 * a `page_texts` row a page keyed by URL id. Those rows sat at scattered places of their B-tree
 * (pages fetched together were found far apart), so each commit rewrote a leaf page a text: on
 * the 20,200-page synthetic crawl 71 of the about 400 WAL frames of a 32-page commit. Blocks are
 * appended in id order. `page_texts` stays for the texts older runs wrote (readers look there when
 * a page names no block); a page fetched again drops its row there. No foreign key names a block
 * from `pages` (deleting a block would scan every page for it): a block goes with its crawl.
 */
export const migration0026 = {
  version: 26,
  name: 'page-text-blocks',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE page_text_blocks (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        texts BLOB NOT NULL
      );
      ALTER TABLE pages ADD COLUMN text_block_id INTEGER;
      ALTER TABLE pages ADD COLUMN text_slot INTEGER;
    `);
  },
};

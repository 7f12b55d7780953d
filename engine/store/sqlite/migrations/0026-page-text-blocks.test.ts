import BetterSqlite3 from 'better-sqlite3';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ReadableDB } from '../database';
import { packTextBlocks } from '../page-text-codec';
import { DuplicateQueries } from '../queries/duplicate-queries';
import { migrate, MIGRATIONS } from './index';

describe('migration 0026 page-text-blocks', () => {
  it('adds text blocks beside the page_texts rows of older runs, and the duplicate diff reads both', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 26));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    const url = db.prepare(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (?, 1, ?, ?, ?, 'a.test', 'done', 0, 0, 0)`);
    const page = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms) VALUES (?, 1, 'x', 200, 1, 1, 1)`);
    for (const id of [1, 2, 3]) {
      url.run(id, `k${id}`, `http://a.test/${id}`, `http://a.test/${id}`);
      page.run(id);
    }
    db.prepare(`INSERT INTO page_texts (url_id, text) VALUES (1, ?), (2, 'plain older text')`).run(zlib.deflateRawSync(Buffer.from('packed older text')));
    expect(migrate(db)).toContain(26);

    const { blocks } = packTextBlocks(['block text']);
    const blockId = Number(db.prepare(`INSERT INTO page_text_blocks (crawl_id, texts) VALUES (1, ?)`).run(blocks[0]).lastInsertRowid);
    db.prepare(`UPDATE pages SET text_block_id = ?, text_slot = 0 WHERE url_id = 3`).run(blockId);
    const texts = new DuplicateQueries(db as ReadableDB);
    expect([1, 2, 3].map((id) => texts.pageText(id))).toEqual(['packed older text', 'plain older text', 'block text']);
    // A block goes with its crawl.
    db.exec(`DELETE FROM crawls WHERE id = 1`);
    expect(db.prepare(`SELECT COUNT(*) FROM page_text_blocks`).pluck().get()).toBe(0);
    db.close();
  });
});

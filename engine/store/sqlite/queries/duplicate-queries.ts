/** Read queries of the Duplicates view: URL groups (one normalized key, many raw URLs) and content groups. */
import type { ReadableDB } from '../database';
import type { ContentGroupKind, ContentGroupMember, ContentGroupRow, UrlGroupRow } from '../../../../shared/types/rows';
import type { RowPage } from '../../../../shared/types/crawl';
import { CanonicalFacts, type StoredCanonicalFacts } from './canonical-facts';
import { StatementCache } from './statement-cache';
import { unpackPageText, unpackTextBlockEntry } from '../page-text-codec';

/** One raw spelling of a URL as stored in url_aliases. */
export interface AliasRow {
  rawUrl: string;
  firstSeenFrom: string | null;
  /** Spellings met that are this one plus a `#fragment` (counted, not stored apart: migration 0016). */
  fragmentSpellings: number;
}

/** The URL row a duplicate-URL group maps to. */
export interface GroupUrlRow {
  id: number;
  url: string;
  normalized: string;
  normalizedKey: string;
  httpStatus: number | null;
}

const CONTENT_GROUP_COLUMNS = `g.id, g.kind, g.fingerprint, f.url AS firstUrl,
  (SELECT COUNT(*) FROM content_group_members m WHERE m.group_id = g.id)
    + NOT EXISTS (SELECT 1 FROM content_group_members m WHERE m.group_id = g.id AND m.url_id = g.first_url_id) AS members,
  COALESCE((SELECT MIN(m.similarity) FROM content_group_members m WHERE m.group_id = g.id AND m.url_id != g.first_url_id), 1) AS minSimilarity`;

/**
 * Read-only queries of the Duplicates view: duplicate-URL groups (one normalized key, two or
 * more raw spellings in url_aliases, seed 001) and content groups (content_groups and their
 * members, filled by the crawler's content-seen test).
 */
export class DuplicateQueries {
  private readonly statements: StatementCache;
  private readonly facts: CanonicalFacts;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
    this.facts = new CanonicalFacts(db);
  }

  /** The redirect target and rel=canonical of a group's URL, for its canonical layers (canonical-facts.ts). */
  canonicalFacts(crawlId: number, urlId: number): StoredCanonicalFacts {
    return this.facts.of(crawlId, urlId);
  }

  /** Duplicate-URL groups of a crawl in discovery order; `text` filters on the normalized URL. */
  urlGroups(crawlId: number, query: { offset: number; limit: number; text?: string }): RowPage<UrlGroupRow> {
    const filter = query.text ? ' AND instr(u.normalized, ?) > 0' : '';
    const params: (string | number)[] = query.text ? [crawlId, query.text] : [crawlId];
    const grouped = `SELECT u.id AS urlId, u.normalized_key AS normalizedKey, u.normalized, COUNT(*) AS members
                     FROM urls u JOIN url_aliases a ON a.url_id = u.id
                     WHERE u.crawl_id = ?${filter} GROUP BY u.id HAVING COUNT(*) > 1`;
    const total = this.statements.get(`SELECT COUNT(*) FROM (${grouped})`).pluck().get(...params) as number;
    const rows = this.statements.get(`${grouped} ORDER BY u.id LIMIT ? OFFSET ?`).all(...params, query.limit, query.offset) as UrlGroupRow[];
    return { rows, total, offset: query.offset };
  }

  /** The URL row of a group, or undefined when the crawl has no such URL. */
  groupUrl(crawlId: number, urlId: number): GroupUrlRow | undefined {
    return this.statements
      .get(`SELECT id, url, normalized, normalized_key AS normalizedKey, http_status AS httpStatus FROM urls WHERE crawl_id = ? AND id = ?`)
      .get(crawlId, urlId) as GroupUrlRow | undefined;
  }

  /** Every raw spelling of one URL (url_aliases has no insertion order: sorted by text). */
  aliases(urlId: number): AliasRow[] {
    return this.statements
      .get(`SELECT a.raw_url AS rawUrl, f.url AS firstSeenFrom, a.fragment_spellings AS fragmentSpellings FROM url_aliases a LEFT JOIN urls f ON f.id = a.first_seen_from WHERE a.url_id = ? ORDER BY a.raw_url`)
      .all(urlId) as AliasRow[];
  }

  /** Content-duplicate groups of a crawl, optionally of one kind. */
  contentGroups(crawlId: number, query: { offset: number; limit: number; kind?: ContentGroupKind }): RowPage<ContentGroupRow> {
    const filter = query.kind ? ' AND g.kind = ?' : '';
    const params: (string | number)[] = query.kind ? [crawlId, query.kind] : [crawlId];
    const total = this.statements.get(`SELECT COUNT(*) FROM content_groups g WHERE g.crawl_id = ?${filter}`).pluck().get(...params) as number;
    const rows = this.statements
      .get(`SELECT ${CONTENT_GROUP_COLUMNS} FROM content_groups g JOIN urls f ON f.id = g.first_url_id WHERE g.crawl_id = ?${filter} ORDER BY g.id LIMIT ? OFFSET ?`)
      .all(...params, query.limit, query.offset) as ContentGroupRow[];
    return { rows, total, offset: query.offset };
  }

  /** One content group, or undefined. */
  contentGroup(crawlId: number, groupId: number): ContentGroupRow | undefined {
    return this.statements
      .get(`SELECT ${CONTENT_GROUP_COLUMNS} FROM content_groups g JOIN urls f ON f.id = g.first_url_id WHERE g.crawl_id = ? AND g.id = ?`)
      .get(crawlId, groupId) as ContentGroupRow | undefined;
  }

  /** Pages of a content group, the first page first (similarity 1), then by similarity. */
  contentMembers(groupId: number): ContentGroupMember[] {
    return this.statements
      .get(
        `SELECT u.id AS urlId, u.url, p.title, p.text_chars AS textChars,
                CASE WHEN u.id = g.first_url_id THEN 1.0 ELSE COALESCE(m.similarity, 1.0) END AS similarity
         FROM content_groups g
         JOIN urls u ON u.id = g.first_url_id OR u.id IN (SELECT url_id FROM content_group_members WHERE group_id = g.id)
         LEFT JOIN content_group_members m ON m.group_id = g.id AND m.url_id = u.id
         LEFT JOIN pages p ON p.url_id = u.id
         WHERE g.id = ?
         ORDER BY u.id = g.first_url_id DESC, similarity DESC, u.id`,
      )
      .all(groupId) as ContentGroupMember[];
  }

  /**
   * Visible text of a page (its excerpt, page-text-codec.ts): from the block its page row names
   * (migration 0026), else from its `page_texts` row (older runs); null when it has neither.
   * @throws CodedError DB_CORRUPT when its block cannot be read (the database was changed by another program)
   */
  pageText(urlId: number): string | null {
    if (this.statements.hasTable('page_text_blocks')) {
      const block = this.statements
        .get(`SELECT p.text_slot AS slot, b.texts AS texts FROM pages p JOIN page_text_blocks b ON b.id = p.text_block_id WHERE p.url_id = ?`)
        .get(urlId) as { slot: number; texts: Uint8Array } | undefined;
      if (block !== undefined) return unpackTextBlockEntry(block.texts, block.slot);
    }
    if (!this.statements.hasTable('page_texts')) return null;
    const stored = this.statements.get(`SELECT text FROM page_texts WHERE url_id = ?`).pluck().get(urlId) as string | Uint8Array | undefined;
    return stored === undefined ? null : unpackPageText(stored);
  }
}

/** Read queries of seed 001's version URL templates (migration 0021): the Duplicates view's Versions grouping, the inspector and the versions export. */
import type { RowPage } from '../../../../shared/types/crawl';
import type { UrlVersionTemplate, VersionExportRow, VersionMemberRow, VersionTemplateRow } from '../../../../shared/types/versions';
import { compareVersions } from '../../../../shared/url/version-template';
import type { ReadableDB } from '../database';
import type { KeyedPage } from './export-queries';
import { StatementCache } from './statement-cache';

/** A template has two or more versions before it is shown (a row with one is a stored singleton: version-index.ts). */
const SHOWN = 'versions >= 2';

const MEMBER_COLUMNS = `m.url_id AS urlId, u.url, m.version, u.state, u.http_status AS httpStatus`;

function versionList(joined: string | null): string[] {
  return joined === null ? [] : [...new Set(joined.split('\n'))].sort(compareVersions);
}

function byVersion<Row extends { version: string }>(rows: Row[]): Row[] {
  return rows.sort((a, b) => compareVersions(a.version, b.version));
}

/**
 * Version templates of a crawl: each an indexed read (templates by crawl and version count,
 * members by template, a URL's templates by URL). Versions are listed in compareVersions order.
 */
export class VersionQueries {
  private readonly statements: StatementCache;

  constructor(db: ReadableDB) {
    this.statements = new StatementCache(db);
  }

  /**
   * Templates with two or more versions, most versions first (then newest first); `text` keeps
   * those whose template contains it.
   */
  templates(crawlId: number, query: { offset: number; limit: number; text?: string }): RowPage<VersionTemplateRow> {
    const filter = query.text ? ' AND instr(t.template, ?) > 0' : '';
    const params: (string | number)[] = query.text ? [crawlId, query.text] : [crawlId];
    const total = this.statements.get(`SELECT COUNT(*) FROM version_templates t WHERE t.crawl_id = ? AND t.${SHOWN}${filter}`).pluck().get(...params) as number;
    const rows = this.statements
      .get(
        `SELECT t.id AS templateId, t.template, (SELECT group_concat(m.version, char(10)) FROM url_versions m WHERE m.template_id = t.id) AS versions
         FROM version_templates t WHERE t.crawl_id = ? AND t.${SHOWN}${filter} ORDER BY t.versions DESC, t.id DESC LIMIT ? OFFSET ?`,
      )
      .all(...params, query.limit, query.offset) as (Omit<VersionTemplateRow, 'versions'> & { versions: string | null })[];
    return { rows: rows.map((row) => ({ ...row, versions: versionList(row.versions) })), total, offset: query.offset };
  }

  /** One shown template of the crawl with its versions, or undefined. */
  template(crawlId: number, templateId: number): VersionTemplateRow | undefined {
    const row = this.statements
      .get(`SELECT t.id AS templateId, t.template, (SELECT group_concat(m.version, char(10)) FROM url_versions m WHERE m.template_id = t.id) AS versions FROM version_templates t WHERE t.id = ? AND t.crawl_id = ? AND t.${SHOWN}`)
      .get(templateId, crawlId) as (Omit<VersionTemplateRow, 'versions'> & { versions: string | null }) | undefined;
    return row ? { ...row, versions: versionList(row.versions) } : undefined;
  }

  /** The URLs of one template of the crawl, by version; empty when the crawl has no such template. */
  members(crawlId: number, templateId: number): VersionMemberRow[] {
    const rows = this.statements
      .get(`SELECT ${MEMBER_COLUMNS} FROM version_templates t JOIN url_versions m ON m.template_id = t.id JOIN urls u ON u.id = m.url_id WHERE t.id = ? AND t.crawl_id = ?`)
      .all(templateId, crawlId) as VersionMemberRow[];
    return byVersion(rows);
  }

  /** The shown template URL `urlId` belongs to (the one with most versions when it fits two), or null. */
  templateOfUrl(crawlId: number, urlId: number): UrlVersionTemplate | null {
    const row = this.statements
      .get(
        `SELECT t.id AS templateId, t.template, m.version FROM url_versions m JOIN version_templates t ON t.id = m.template_id
         WHERE m.url_id = ? AND t.crawl_id = ? AND t.${SHOWN} ORDER BY t.versions DESC, t.id LIMIT 1`,
      )
      .get(urlId, crawlId) as Omit<UrlVersionTemplate, 'versions'> | undefined;
    if (!row) return null;
    const versions = this.statements.get(`SELECT group_concat(version, char(10)) FROM url_versions WHERE template_id = ?`).pluck().get(row.templateId) as string | null;
    return { ...row, versions: versionList(versions) };
  }

  /** Rows of the versions export: member URLs of shown templates (each template's members by version). */
  countExportRows(crawlId: number): number {
    return this.statements
      .get(`SELECT COUNT(*) FROM version_templates t JOIN url_versions m ON m.template_id = t.id WHERE t.crawl_id = ? AND t.${SHOWN}`)
      .pluck()
      .get(crawlId) as number;
  }

  /**
   * One keyset page of the versions export: up to `limit` templates after template id `afterKey`
   * (the key is the template id), each with all its members. The templates are read through the
   * rowid (`+t.crawl_id`): a page reads forward from the key, not the crawl's index from its start.
   */
  exportTemplates(crawlId: number, afterKey: number, limit: number): KeyedPage<VersionExportRow> {
    const templates = this.statements
      .get(`SELECT t.id AS templateId, t.template FROM version_templates t WHERE t.id > ? AND +t.crawl_id = ? AND t.${SHOWN} ORDER BY t.id LIMIT ?`)
      .all(afterKey, crawlId, limit) as { templateId: number; template: string }[];
    const members = this.statements.get(`SELECT ${MEMBER_COLUMNS} FROM url_versions m JOIN urls u ON u.id = m.url_id WHERE m.template_id = ?`);
    const rows: VersionExportRow[] = [];
    for (const template of templates) {
      const ordered = byVersion(members.all(template.templateId) as VersionMemberRow[]);
      const versions = [...new Set(ordered.map((member) => member.version))];
      for (const member of ordered) rows.push({ ...member, templateId: template.templateId, template: template.template, versions });
    }
    return { rows, lastKey: templates.at(-1)?.templateId ?? afterKey };
  }
}

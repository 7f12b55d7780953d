/**
 * Version URL templates kept as the crawl stores URLs (seed 001; issue 12 part 7): each new URL's
 * normalized form is scanned for version-like directories (shared/url/version-template.ts
 * versionCandidates), and a template reaches SQLite (migration 0021) only once a second version
 * of it shows up. Until then it waits in memory as a singleton: on a site with one version (most
 * sites, and a docs mirror of one release) the commit path pays a string scan and a Map lookup per
 * URL, no write. Memory is bounded in bytes: two generations, and when the young one fills, the old
 * one's singletons are spilled to SQLite (rows with `versions` 1) in the same transaction. A
 * 32-bit hash of each template memory drops is kept (a Set, about 16 bytes each, outside the
 * budget), so only a miss whose hash matches is checked against SQLite (one indexed read): the
 * index stays exact without a read per URL. A new run starts empty and replays the crawl's stored
 * URLs ({@link VersionIndex.catchUp}); the writes are idempotent.
 */
import type { Statement } from 'better-sqlite3';
import { versionCandidates } from '../../../shared/url/version-template';
import type { WritableDB } from './database';

/** A template seen with one version (in memory only), or the id of its stored row. */
type Entry = { urlId: number; version: string } | number;

/** One URL as the index reads it. */
export interface IndexedUrl {
  id: number;
  /** The URL's normalized form (urls.normalized): spellings that differ by tracking parameters share it. */
  normalized: string;
}

/** Limits of a {@link VersionIndex}. */
export interface VersionIndexOptions {
  /** Estimated heap bytes of the in-memory templates at most. @default 32 MiB (about 230,000 singletons of docs-like URLs) */
  maxBytes?: number;
}

/** What the index holds and has done (for tests and the benchmark). */
export interface VersionIndexStats {
  /** Templates held in memory. */
  entries: number;
  /** Their estimated heap bytes (at most `maxBytes`). */
  bytes: number;
  /** Singleton templates written to SQLite because memory was full (this run, and stored by earlier runs). */
  spilled: number;
  /** SQLite reads made for templates memory had dropped. */
  probes: number;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** URLs read per page (and written per transaction) by catchUp. */
const CATCH_UP_PAGE = 10_000;

/**
 * Estimated heap bytes of one entry: the template string (normalized URLs are ASCII, so V8 keeps
 * one byte a character, plus a header), the Map slot, and a singleton's object and version string.
 */
function entryBytes(template: string, entry: Entry): number {
  return template.length + 24 + 40 + (typeof entry === 'number' ? 0 : entry.version.length + 24 + 32);
}

/** 32-bit FNV-1a of a string's UTF-16 code units (the spilled-template filter's key). */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The writer's version-template index for one crawl. Call {@link add} inside the commit
 * transaction that inserts the URLs; call {@link catchUp} once when the writer opens (a resumed
 * crawl, or one made before migration 0021).
 */
export class VersionIndex {
  private young = new Map<string, Entry>();
  private old = new Map<string, Entry>();
  private youngBytes = 0;
  private oldBytes = 0;
  /** Hashes of templates memory dropped that are in SQLite (spilled singletons, stored pairs): a miss with one of them is checked there. */
  private readonly droppedHashes = new Set<number>();
  private spilledCount = 0;
  private probeCount = 0;
  private readonly generationBytes: number;
  private readonly upsertTemplate: Statement;
  private readonly insertMember: Statement;
  private readonly bumpVersions: Statement;
  private readonly templateId: Statement;

  constructor(
    private readonly db: WritableDB,
    private readonly crawlId: number,
    options: VersionIndexOptions = {},
  ) {
    this.generationBytes = (options.maxBytes ?? DEFAULT_MAX_BYTES) / 2;
    this.upsertTemplate = db
      .prepare(`INSERT INTO version_templates (crawl_id, template, versions) VALUES (?, ?, 0) ON CONFLICT (crawl_id, template) DO UPDATE SET versions = versions RETURNING id`)
      .pluck();
    this.insertMember = db.prepare(`INSERT OR IGNORE INTO url_versions (template_id, url_id, version) VALUES (?, ?, ?)`);
    this.bumpVersions = db.prepare(`UPDATE version_templates SET versions = versions + ? WHERE id = ?`);
    this.templateId = db.prepare(`SELECT id FROM version_templates WHERE crawl_id = ? AND template = ?`).pluck();
  }

  /**
   * Indexes URLs just stored (inside the caller's transaction). Idempotent: a URL already in a
   * stored template is not counted twice.
   */
  add(url: IndexedUrl): void {
    const candidates = versionCandidates(url.normalized);
    for (const { template, version } of candidates) this.addCandidate(template, url.id, version);
  }

  /**
   * Indexes every URL of the crawl already stored, in id order (the in-memory singletons of an
   * earlier run are gone; pairs already stored are not counted again). One pass over the crawl's
   * URLs when the writer opens, before its first write: measured 0.66-0.72 s for 100,000 URLs (half
   * of them versioned) on the development machine, so a resumed million-URL crawl starts some
   * seconds later.
   * @returns URLs read
   */
  catchUp(): number {
    const page = this.db.prepare(`SELECT id, normalized FROM urls WHERE crawl_id = ? AND id > ? ORDER BY id LIMIT ?`);
    let read = 0;
    for (let after = 0; ; ) {
      const rows = page.all(this.crawlId, after, CATCH_UP_PAGE) as IndexedUrl[];
      if (rows.length === 0) return read;
      this.db.transaction(() => {
        for (const row of rows) this.add(row);
      })();
      read += rows.length;
      after = rows.at(-1)!.id;
    }
  }

  /** What the index holds now. */
  stats(): VersionIndexStats {
    return { entries: this.young.size + this.old.size, bytes: this.youngBytes + this.oldBytes, spilled: this.spilledCount, probes: this.probeCount };
  }

  private lookup(template: string): Entry | undefined {
    const young = this.young.get(template);
    if (young !== undefined) return young;
    const old = this.old.get(template);
    if (old !== undefined) return old;
    if (!this.droppedHashes.has(hash32(template))) return undefined;
    this.probeCount += 1;
    return this.templateId.get(this.crawlId, template) as number | undefined;
  }

  private addCandidate(template: string, urlId: number, version: string): void {
    const entry = this.lookup(template);
    if (entry === undefined) {
      this.remember(template, { urlId, version });
      return;
    }
    if (typeof entry === 'number') {
      this.addMember(entry, urlId, version);
      this.remember(template, entry);
      return;
    }
    if (entry.urlId === urlId) return;
    // The second version: the template and both members reach SQLite (one count update).
    const id = this.upsertTemplate.get(this.crawlId, template) as number;
    const added = this.insertMember.run(id, entry.urlId, entry.version).changes + this.insertMember.run(id, urlId, version).changes;
    if (added > 0) this.bumpVersions.run(added, id);
    this.remember(template, id);
  }

  private addMember(templateId: number, urlId: number, version: string): void {
    if (this.insertMember.run(templateId, urlId, version).changes > 0) this.bumpVersions.run(1, templateId);
  }

  /** Keeps `entry` in the young generation; a full one turns the old one out (its singletons to SQLite). */
  private remember(template: string, entry: Entry): void {
    const bytes = entryBytes(template, entry);
    const previous = this.young.get(template);
    if (previous !== undefined) this.youngBytes -= entryBytes(template, previous);
    else {
      const older = this.old.get(template);
      if (older !== undefined) {
        this.old.delete(template);
        this.oldBytes -= entryBytes(template, older);
      }
      if (this.youngBytes + bytes > this.generationBytes) this.turnOver();
    }
    this.young.set(template, entry);
    this.youngBytes += bytes;
  }

  private turnOver(): void {
    for (const [template, entry] of this.old) {
      this.droppedHashes.add(hash32(template));
      if (typeof entry === 'number') continue;
      const id = this.upsertTemplate.get(this.crawlId, template) as number;
      this.addMember(id, entry.urlId, entry.version);
      this.spilledCount += 1;
    }
    this.old = this.young;
    this.oldBytes = this.youngBytes;
    this.young = new Map();
    this.youngBytes = 0;
  }
}

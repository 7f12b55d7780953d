/**
 * The crawl writer over PostgreSQL (issue 13; store/ports.ts CrawlWriter): one CommitBatch, one
 * transaction, in CommitBatch's order, mirroring sqlite/batch-writer.ts and frontier-rows.ts, with
 * set statements instead of per-URL ones (unnest arrays: one round trip per step of the batch).
 * Several processes commit to one crawl at once, so every multi-row statement writes its rows in
 * a fixed order (normalized key, id, host) and a transaction PostgreSQL rolls back for a deadlock
 * or a serialization failure is run again whole (retry.ts).
 */
import type pg from 'pg';
import type { CrawlStatus } from '../../../shared/types/crawl';
import { URL_SOURCE_BITS } from '../../../shared/types/url-sources';
import type { AliasWrite, CommitBatch, CommitResult, FrontierCandidate, HeldUrl, LinkWrite, PageWrite, PolitenessPolicy, UrlOutcome } from '../ports';
import { linkKindCode, linkRuleCode } from '../sqlite/link-codes';
import type { PostgresBodyRows } from './body-rows';
import type { PostgresContentIndex } from './content-dedupe';
import { hostRelease, writeHostReleases, type HostRelease } from './host-releases';
import { closedLoops } from './redirect-chains';
import type { PostgresSitemapRows } from './sitemap-rows';
import type { PostgresTrapRows } from './trap-rows';
import type { PostgresStore } from './pool';
import { inRetriedTransaction } from './retry';

/** The parts of the store the writer writes through inside its transaction (the satellite files of engine/store/postgres). */
export interface PostgresWriterParts {
  /** The content-seen test (content-dedupe.ts). */
  contentIndex: Pick<PostgresContentIndex, 'lockFingerprints' | 'recordBatch'>;
  /** Crawler traps (trap-rows.ts). */
  traps: Pick<PostgresTrapRows, 'load' | 'record' | 'holdingIdOf' | 'addExamples' | 'holdPending'>;
  /** Sitemap rows and listings (sitemap-rows.ts). */
  sitemaps: Pick<PostgresSitemapRows, 'write'>;
  /** Stored bodies under the crawl's cap (body-rows.ts). */
  bodies: Pick<PostgresBodyRows, 'write'>;
}

/** The process's side of the writer: its releases to write first, its lease, what it did. */
export interface PostgresWriterProcess {
  /** This process's id (`processes.id`). */
  processId: string;
  /** Lease length, ms: a process whose last beat is older is not counted live by setStatus. */
  leaseMs: number;
  policy: PolitenessPolicy;
  /** Queued host releases to write at the start of the transaction (a failed one queues them again). */
  takeReleases(): HostRelease[];
  putBackReleases(releases: readonly HostRelease[]): void;
  /** A batch was committed: its outcomes' URLs are settled. */
  committed(batch: CommitBatch, result: CommitResult): void;
  /** The crawl's status was set or left to others: the status this process ended with. */
  ended(status: CrawlStatus): void;
}

/** A unique candidate of a batch (first spelling of its key), with the ORed source bits of every occurrence. */
interface UniqueCandidate {
  candidate: FrontierCandidate;
  bits: number;
  /** Index of its first occurrence in the batch's candidates. */
  first: number;
  trapId: number | undefined;
}

/** The URL-seen test: new candidates inserted in key order, ids pre-allocated in candidate order (discovery order is claim order). */
const INSERT_URLS_SQL = `
WITH input AS (
  SELECT t.*, nextval(pg_get_serial_sequence('urls', 'id')) AS new_id
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::bigint[], $9::int[], $10::int[], $11::bigint[])
    WITH ORDINALITY AS t(normalized_key, normalized, url, host, registrable_domain, depth, discovered_from, redirect_hops, sources, trap_id, ord)
  ORDER BY t.ord
)
INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, discovered_from, enqueued_at_ms, redirect_hops, sources, trap_id)
SELECT new_id, $1, normalized_key, normalized, url, host, registrable_domain, CASE WHEN trap_id IS NULL THEN 'pending' ELSE 'held' END,
       depth, depth, discovered_from, $12, redirect_hops, sources, trap_id
FROM input ORDER BY normalized_key
ON CONFLICT (crawl_id, normalized_key) DO NOTHING
RETURNING id, normalized_key`;

/** Outcomes as URL state changes: one UPDATE for the batch (id order). */
const OUTCOMES_SQL = `
UPDATE urls u SET
  state = o.state,
  fetched_at_ms = CASE WHEN o.state IN ('done', 'error') THEN o.fetched_at_ms ELSE u.fetched_at_ms END,
  http_status = CASE o.state WHEN 'pending' THEN u.http_status WHEN 'blocked' THEN NULL ELSE o.http_status END,
  error_code = CASE o.state WHEN 'pending' THEN u.error_code WHEN 'done' THEN NULL ELSE o.error_code END,
  error_reason = CASE o.state WHEN 'pending' THEN u.error_reason WHEN 'done' THEN NULL ELSE o.error_reason END,
  robots_line = CASE o.state WHEN 'blocked' THEN o.robots_line ELSE u.robots_line END,
  retry_reason = CASE o.state WHEN 'pending' THEN coalesce(o.retry_reason, u.retry_reason) ELSE u.retry_reason END,
  committed_at_ms = $2, owner = NULL
FROM (
  SELECT * FROM unnest($3::bigint[], $4::text[], $5::bigint[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[])
    AS t(id, state, fetched_at_ms, http_status, error_code, error_reason, robots_line, retry_reason)
  ORDER BY id
) o
WHERE u.id = o.id AND u.crawl_id = $1`;

const PAGES_SQL = `
INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, truncated, fetch_ms, title, redirect_chain_json, fetched_at_ms,
                   fingerprint, minhash, text_chars, noindex, location, links_over_cap,
                   response_headers_json, meta_description, h1, canonical_url, robots_directives, indexability, word_count, lang)
SELECT url_id, $1, final_url, http_status, content_type, body_bytes, truncated, fetch_ms, title, NULL, fetched_at_ms,
       fingerprint, minhash, text_chars, noindex, location, links_over_cap,
       response_headers_json, meta_description, h1, canonical_url, robots_directives, indexability, word_count, lang
FROM unnest($2::bigint[], $3::text[], $4::int[], $5::text[], $6::bigint[], $7::int[], $8::bigint[], $9::text[], $10::bigint[], $11::text[], $12::bytea[], $13::int[],
            $14::int[], $15::text[], $16::int[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::int[], $24::text[])
  AS t(url_id, final_url, http_status, content_type, body_bytes, truncated, fetch_ms, title, fetched_at_ms, fingerprint, minhash, text_chars,
       noindex, location, links_over_cap, response_headers_json, meta_description, h1, canonical_url, robots_directives, indexability, word_count, lang)
ORDER BY url_id
ON CONFLICT (url_id) DO UPDATE SET final_url = EXCLUDED.final_url, http_status = EXCLUDED.http_status, content_type = EXCLUDED.content_type,
  body_bytes = EXCLUDED.body_bytes, truncated = EXCLUDED.truncated, fetch_ms = EXCLUDED.fetch_ms, title = EXCLUDED.title, redirect_chain_json = NULL,
  fetched_at_ms = EXCLUDED.fetched_at_ms, fingerprint = EXCLUDED.fingerprint, minhash = EXCLUDED.minhash, text_chars = EXCLUDED.text_chars,
  noindex = EXCLUDED.noindex, location = EXCLUDED.location, links_over_cap = EXCLUDED.links_over_cap, response_headers_json = EXCLUDED.response_headers_json,
  meta_description = EXCLUDED.meta_description, h1 = EXCLUDED.h1, canonical_url = EXCLUDED.canonical_url, robots_directives = EXCLUDED.robots_directives,
  indexability = EXCLUDED.indexability, word_count = EXCLUDED.word_count, lang = EXCLUDED.lang
RETURNING url_id, (xmax <> 0) AS replaced`;

const LINKS_SQL = `
INSERT INTO links (crawl_id, from_url_id, raw_url, to_url_id, kind, refused_by, anchor_text, rel)
SELECT $1, from_url_id, raw_url, to_url_id, kind, refused_by, anchor_text, rel
FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::int[], $6::int[], $7::text[], $8::text[]) WITH ORDINALITY
  AS t(from_url_id, raw_url, to_url_id, kind, refused_by, anchor_text, rel, ord)
ORDER BY ord`;

/** Raw spellings: a repeat keeps the first row and adds its fragment spellings (sqlite insertAlias). */
const ALIASES_SQL = `
INSERT INTO url_aliases (url_id, crawl_id, raw_url, first_seen_from, fragment_spellings)
SELECT url_id, $1, raw_url, first_seen_from, fragment_spellings
FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::int[]) AS t(url_id, raw_url, first_seen_from, fragment_spellings)
ORDER BY url_id, raw_url
ON CONFLICT (url_id, raw_url) DO UPDATE SET fragment_spellings = url_aliases.fragment_spellings + EXCLUDED.fragment_spellings WHERE EXCLUDED.fragment_spellings > 0`;

/** Where an outcome leaves its URL. */
type OutcomeRow = { id: number; state: 'done' | 'error' | 'blocked' | 'pending'; fetchedAtMs: number | null; httpStatus: number | null; errorCode: string | null; errorReason: string | null; robotsLine: string | null; retryReason: string | null };

/** A process's end reason for a final crawl status. */
function endReasonOf(status: CrawlStatus): 'finished' | 'stopped' {
  return status === 'finished' ? 'finished' : 'stopped';
}

/** The batch writer of crawl `crawlId` in a PostgreSQL store (see the file's header). */
export class PostgresCrawlWriter {
  constructor(
    private readonly store: PostgresStore,
    readonly crawlId: number,
    private readonly parts: PostgresWriterParts,
    private readonly process: PostgresWriterProcess,
  ) {}

  /**
   * Writes `batch` whole in one transaction (store/ports.ts CrawlWriter.commit), after this
   * process's queued host releases.
   * @throws Error when a link, alias, redirect or sitemap listing names a key that is neither a
   *   candidate of the batch nor a known URL; a storage error (DISK_FULL, DB_BUSY after 3 tries …)
   */
  async commit(input: CommitBatch): Promise<CommitResult> {
    const batch = wholeMs(input);
    const releases = this.process.takeReleases();
    // Each outcome also frees its host (when its claim was not released yet: urls.slot_held) and
    // applies its disposition's delay. The host rows are written LAST, after every URL row: a
    // transaction that holds a host row never waits on a URL row, so a commit cannot deadlock with
    // another process's commit or release flush (whose URL rows a candidate insert may wait on)
    // nor with a claim (which takes host rows with SKIP LOCKED, never waiting).
    const outcomeReleases = (batch.outcomes ?? []).map((o) => hostRelease(this.process.policy, o.url.host, o.disposition, { urlId: o.url.id, slotId: null }));
    let result: CommitResult;
    try {
      result = await inRetriedTransaction(this.store, async (client) => {
        // The content-seen test's fingerprint locks come before any row lock (content-dedupe.ts: no deadlock through them).
        if (batch.pages && batch.pages.length > 0) await this.parts.contentIndex.lockFingerprints(client, batch.pages);
        const written = await this.write(client, batch);
        await writeHostReleases(client, this.crawlId, [...releases, ...outcomeReleases]);
        return written;
      });
    } catch (error) {
      this.process.putBackReleases(releases);
      throw error;
    }
    this.process.committed(input, result);
    return result;
  }

  /**
   * Sets the crawl row's status, unless this process ends ('finished', 'stopped', 'paused',
   * 'interrupted') while other live processes still work on the crawl: then it ends only its own
   * process row, and the last process to end sets the crawl's status.
   */
  async setStatus(status: CrawlStatus, finishedAtMs: number | null): Promise<void> {
    await inRetriedTransaction(this.store, (client) => this.writeStatus(client, status, finishedAtMs === null ? null : Math.round(finishedAtMs)));
    this.process.ended(status);
  }

  /** The batch in CommitBatch's order, inside the transaction on `client`. */
  private async write(client: pg.PoolClient, batch: CommitBatch): Promise<CommitResult> {
    const { traps } = this.parts;
    const newTraps = batch.traps && batch.traps.length > 0 ? await traps.record(client, batch.traps, batch.nowMs) : [];
    const ids = new Map<string, number>();
    /** urls.url of the ids met (a link's raw text is stored only when it differs). */
    const urlOf = new Map<number, string>();
    const inserted = await this.insertCandidates(client, batch, ids, urlOf);
    const heldFromPending: HeldUrl[] = newTraps.length > 0 ? await traps.holdPending(client, newTraps) : [];
    await this.resolveKeys(client, batch, ids, urlOf);
    const idOf = (key: string): number => {
      const id = ids.get(key);
      if (id === undefined) throw new Error(`Commit batch names the unknown normalized key ${key}: offer it as a candidate of the batch`);
      return id;
    };
    const duplicates = await this.writePages(client, batch.pages ?? [], batch.nowMs);
    const redirectLoops = await this.writeOutcomes(client, batch.outcomes ?? [], idOf, urlOf, batch.nowMs);
    await this.writeLinks(client, batch.links ?? [], idOf, urlOf);
    await this.writeAliases(client, batch.aliases ?? [], idOf);
    for (const sitemap of batch.sitemaps ?? []) await this.parts.sitemaps.write(client, sitemap, idOf);
    if (batch.status) await this.writeStatus(client, batch.status.status, batch.status.finishedAtMs);
    const held = inserted.held;
    return {
      added: inserted.addedHosts.length,
      addedHosts: inserted.addedHosts,
      duplicates,
      redirectLoops,
      ...(held > 0 ? { held } : {}),
      ...(heldFromPending.length > 0 ? { heldFromPending } : {}),
    };
  }

  /**
   * The URL-seen test for the batch's candidates (IIR 20.2.2): a key met twice is added once (its
   * first spelling, every occurrence's source bit), a known key not again (its missing source bits
   * ORed in); a new candidate naming a trap that holds is stored held. Each new URL's host gets its
   * `hosts` row. Fills `ids` and `urlOf` for the new URLs.
   */
  private async insertCandidates(client: pg.PoolClient, batch: CommitBatch, ids: Map<string, number>, urlOf: Map<number, string>): Promise<{ addedHosts: string[]; held: number }> {
    const candidates = batch.candidates ?? [];
    if (candidates.length === 0) return { addedHosts: [], held: 0 };
    const unique = new Map<string, UniqueCandidate>();
    candidates.forEach((candidate, index) => {
      const bit = URL_SOURCE_BITS[candidate.source ?? (candidate.discoveredFrom === null ? 'seed' : 'link')];
      const known = unique.get(candidate.normalizedKey);
      if (known) known.bits |= bit;
      else unique.set(candidate.normalizedKey, { candidate, bits: bit, first: index, trapId: undefined });
    });
    const entries = [...unique.values()];
    // The traps the candidates name, read and locked against a concurrent release (trap-rows.ts load): one statement.
    await this.parts.traps.load(client, [...new Set(entries.flatMap((entry) => (entry.candidate.heldBy === undefined ? [] : [entry.candidate.heldBy])))]);
    for (const entry of entries) entry.trapId = entry.candidate.heldBy === undefined ? undefined : this.parts.traps.holdingIdOf(entry.candidate.heldBy);
    // Every candidate host gets its back-queue row first (host order: no deadlock with another commit).
    const hosts = [...new Set(entries.map((entry) => entry.candidate.host))].sort();
    await client.query(`INSERT INTO hosts (crawl_id, host) SELECT $1, h FROM unnest($2::text[]) AS h ORDER BY h ON CONFLICT (crawl_id, host) DO NOTHING`, [this.crawlId, hosts]);
    const c = entries.map((entry) => entry.candidate);
    const { rows } = await client.query<{ id: number; normalized_key: string }>(INSERT_URLS_SQL, [
      this.crawlId,
      c.map((x) => x.normalizedKey),
      c.map((x) => x.normalized),
      c.map((x) => x.url),
      c.map((x) => x.host),
      c.map((x) => x.registrableDomain),
      c.map((x) => x.depth),
      c.map((x) => x.discoveredFrom),
      c.map((x) => x.redirectHops ?? 0),
      entries.map((entry) => entry.bits),
      entries.map((entry) => entry.trapId ?? null),
      batch.nowMs,
    ]);
    const isNew = new Set<string>();
    for (const row of rows) {
      ids.set(row.normalized_key, row.id);
      isNew.add(row.normalized_key);
    }
    const addedHosts: string[] = [];
    const heldUrls: { trapId: number; url: string }[] = [];
    for (const entry of entries) {
      const key = entry.candidate.normalizedKey;
      if (!isNew.has(key)) continue;
      urlOf.set(ids.get(key)!, entry.candidate.url);
      if (entry.trapId === undefined) addedHosts.push(entry.candidate.host);
      else heldUrls.push({ trapId: entry.trapId, url: entry.candidate.url });
    }
    // Known candidates: their ids (with the other keys of the batch) and missing source bits.
    const known = entries.filter((entry) => !isNew.has(entry.candidate.normalizedKey));
    if (known.length > 0) {
      const { rows: knownRows } = await client.query<{ id: number; normalized_key: string; url: string }>(
        `WITH input AS (SELECT * FROM unnest($2::text[], $3::int[]) AS t(normalized_key, bits) ORDER BY normalized_key),
              found AS (SELECT u.id, u.normalized_key, u.url, u.sources, input.bits FROM urls u JOIN input ON u.crawl_id = $1 AND u.normalized_key = input.normalized_key),
              widened AS (UPDATE urls u SET sources = u.sources | found.bits FROM found WHERE u.id = found.id AND (found.sources & found.bits) <> found.bits RETURNING u.id)
         SELECT id, normalized_key, url FROM found`,
        [this.crawlId, known.map((entry) => entry.candidate.normalizedKey), known.map((entry) => entry.bits)],
      );
      for (const row of knownRows) {
        ids.set(row.normalized_key, row.id);
        urlOf.set(row.id, row.url);
      }
    }
    await this.parts.traps.addExamples(client, heldUrls);
    return { addedHosts, held: heldUrls.length };
  }

  /** Resolves every other key the batch names (links, aliases, redirect targets, sitemap listings) in one read. */
  private async resolveKeys(client: pg.PoolClient, batch: CommitBatch, ids: Map<string, number>, urlOf: Map<number, string>): Promise<void> {
    const wanted = new Set<string>();
    const want = (key: string | null): void => {
      if (key !== null && !ids.has(key)) wanted.add(key);
    };
    for (const link of batch.links ?? []) if (link.toUrlId === undefined) want(link.toKey);
    for (const alias of batch.aliases ?? []) want(alias.toKey);
    for (const outcome of batch.outcomes ?? []) if (outcome.kind === 'redirected') want(outcome.target.key);
    for (const sitemap of batch.sitemaps ?? []) for (const listed of sitemap.listed) want(listed.key);
    if (wanted.size === 0) return;
    const { rows } = await client.query<{ id: number; normalized_key: string; url: string }>(`SELECT id, normalized_key, url FROM urls WHERE crawl_id = $1 AND normalized_key = ANY($2::text[])`, [
      this.crawlId,
      [...wanted],
    ]);
    for (const row of rows) {
      ids.set(row.normalized_key, row.id);
      urlOf.set(row.id, row.url);
    }
  }

  /**
   * Pages (one upsert: a re-fetch replaces the row), their texts, the link rows of their earlier
   * fetches dropped, then the content-seen test of the batch's pages in order (content-dedupe.ts
   * recordBatch: each page sees the earlier ones only, as in SQLite).
   * @returns pages the content-seen test found duplicates
   */
  private async writePages(client: pg.PoolClient, pages: readonly PageWrite[], nowMs: number): Promise<number> {
    if (pages.length === 0) return 0;
    // One row per URL (a page written twice in a batch: the last stands, as SQLite's INSERT OR REPLACE leaves it).
    const last = new Map(pages.map((page) => [page.row.urlId, page]));
    const rows = [...last.values()].map((page) => page.row);
    const written = await client.query<{ url_id: number; replaced: boolean }>(PAGES_SQL, [
      this.crawlId,
      rows.map((r) => r.urlId),
      rows.map((r) => r.finalUrl),
      rows.map((r) => r.httpStatus),
      rows.map((r) => r.contentType),
      rows.map((r) => r.bodyBytes),
      rows.map((r) => (r.truncated ? 1 : 0)),
      rows.map((r) => Math.round(r.fetchMs)),
      rows.map((r) => r.title),
      rows.map((r) => r.fetchedAtMs),
      rows.map((r) => r.fingerprint),
      rows.map((r) => (r.minhash ? Buffer.from(r.minhash.buffer, r.minhash.byteOffset, r.minhash.byteLength) : null)),
      rows.map((r) => r.textChars),
      rows.map((r) => (r.noindex ? 1 : 0)),
      rows.map((r) => r.location),
      rows.map((r) => r.linksOverCap),
      rows.map((r) => r.responseHeadersJson ?? null),
      rows.map((r) => r.metaDescription ?? null),
      rows.map((r) => r.h1 ?? null),
      rows.map((r) => r.canonicalUrl ?? null),
      rows.map((r) => r.robotsDirectives ?? null),
      rows.map((r) => r.indexability ?? null),
      rows.map((r) => r.wordCount ?? null),
      rows.map((r) => r.lang ?? null),
    ]);
    const texts = [...last.values()].filter((page) => page.text !== null && page.text !== '');
    if (texts.length > 0) {
      await client.query(
        `INSERT INTO page_texts (url_id, crawl_id, text) SELECT url_id, $1, text FROM unnest($2::bigint[], $3::text[]) AS t(url_id, text) ORDER BY url_id
         ON CONFLICT (url_id) DO UPDATE SET text = EXCLUDED.text`,
        [this.crawlId, texts.map((page) => page.row.urlId), texts.map((page) => page.text)],
      );
    }
    await this.parts.bodies.write(client, [...last.values()]);
    // A page fetched again (its row replaced: xmax set by the upsert's update) replaces its links,
    // written later in this batch; a first fetch has none to drop, and costs no index probe.
    const again = written.rows.filter((row) => row.replaced).map((row) => row.url_id);
    if (again.length > 0) await client.query(`DELETE FROM links WHERE crawl_id = $1 AND from_url_id = ANY($2::bigint[])`, [this.crawlId, again]);
    // ... and an answer without text drops the excerpt the earlier one kept.
    const textless = again.filter((urlId) => {
      const text = last.get(Number(urlId))?.text ?? null;
      return text === null || text === '';
    });
    if (textless.length > 0) await client.query(`DELETE FROM page_texts WHERE url_id = ANY($1::bigint[])`, [textless]);
    // Pages in batch order, each seeing the earlier ones only (the batch's fingerprints were locked first).
    const verdicts = await this.parts.contentIndex.recordBatch(client, pages, nowMs, { fingerprintsLocked: true });
    return verdicts.filter((verdict) => verdict !== null && verdict.kind !== 'unique').length;
  }

  /**
   * Outcomes (their host releases were written first, in {@link commit}): the redirects' loop
   * checks in one read (a redirect sees the hops of earlier ones) and their `redirect` links in one
   * insert; then every URL's new state in one statement.
   * @returns ids of redirects failed as REDIRECT_LOOP
   */
  private async writeOutcomes(client: pg.PoolClient, outcomes: readonly UrlOutcome[], idOf: (key: string) => number, urlOf: Map<number, string>, nowMs: number): Promise<number[]> {
    if (outcomes.length === 0) return [];
    // Every redirect's loop check in one round trip (closedLoops: a redirect sees the hops of earlier ones).
    const redirects = outcomes.flatMap((outcome) => (outcome.kind === 'redirected' ? [{ outcome, toUrlId: idOf(outcome.target.key) }] : []));
    const closed = await closedLoops(
      client,
      this.crawlId,
      redirects.map(({ outcome, toUrlId }) => ({ urlId: outcome.url.id, targetId: toUrlId, maxSteps: outcome.maxHops })),
    );
    const loopOf = new Map(redirects.map(({ outcome }, index) => [outcome, closed[index]!]));
    const loops: number[] = [];
    const rows: OutcomeRow[] = [];
    for (const outcome of outcomes) {
      const { url, disposition } = outcome;
      const base = { id: url.id, fetchedAtMs: Math.round(disposition.nowMs), httpStatus: disposition.httpStatus ?? null, errorCode: null, errorReason: null, robotsLine: null, retryReason: null };
      switch (outcome.kind) {
        case 'done':
          rows.push({ ...base, state: 'done' });
          break;
        case 'failed':
          rows.push({ ...base, state: 'error', errorCode: outcome.error.code, errorReason: outcome.error.message });
          break;
        case 'blocked':
          rows.push({ ...base, state: 'blocked', fetchedAtMs: null, httpStatus: null, errorCode: outcome.reason.code, errorReason: outcome.reason.message, robotsLine: outcome.robotsLine });
          break;
        case 'requeued':
          rows.push({ ...base, state: 'pending', retryReason: outcome.reason ? `${outcome.reason.code}: ${outcome.reason.message}` : null });
          break;
        case 'redirected':
          if (loopOf.get(outcome)) {
            loops.push(url.id);
            rows.push({ ...base, state: 'error', errorCode: 'REDIRECT_LOOP', errorReason: `Redirect loop: ${url.url} redirects to ${outcome.target.url}, earlier in its own redirect chain` });
          } else rows.push({ ...base, state: 'done' });
          break;
        default: {
          const exhaustive: never = outcome;
          throw new Error(`Unknown outcome ${JSON.stringify(exhaustive)}`);
        }
      }
    }
    // Each redirect's `redirect` link, stored either way, in outcome order: one statement.
    if (redirects.length > 0) {
      await this.insertLinks(
        client,
        redirects.map(({ outcome, toUrlId }) => ({ fromUrlId: outcome.url.id, rawUrl: storedRaw(outcome.rawUrl, toUrlId, urlOf), toUrlId, kind: linkKindCode('redirect'), refusedBy: null, anchorText: null, rel: null })),
      );
    }
    await client.query(OUTCOMES_SQL, [
      this.crawlId,
      nowMs,
      rows.map((r) => r.id),
      rows.map((r) => r.state),
      rows.map((r) => r.fetchedAtMs),
      rows.map((r) => r.httpStatus),
      rows.map((r) => r.errorCode),
      rows.map((r) => r.errorReason),
      rows.map((r) => r.robotsLine),
      rows.map((r) => r.retryReason),
    ]);
    return loops;
  }

  private async writeLinks(client: pg.PoolClient, links: readonly LinkWrite[], idOf: (key: string) => number, urlOf: Map<number, string>): Promise<void> {
    if (links.length === 0) return;
    await this.insertLinks(
      client,
      links.map((link) => {
        const toUrlId = link.toUrlId ?? (link.toKey === null ? null : idOf(link.toKey));
        return { fromUrlId: link.fromUrlId, rawUrl: storedRaw(link.rawUrl, toUrlId, urlOf), toUrlId, kind: linkKindCode(link.kind), refusedBy: linkRuleCode(link.refusedBy), anchorText: link.anchorText ?? null, rel: link.rel ?? null };
      }),
    );
  }

  private async insertLinks(client: pg.PoolClient, rows: readonly { fromUrlId: number; rawUrl: string | null; toUrlId: number | null; kind: number; refusedBy: number | null; anchorText: string | null; rel: string | null }[]): Promise<void> {
    await client.query(LINKS_SQL, [
      this.crawlId,
      rows.map((r) => r.fromUrlId),
      rows.map((r) => r.rawUrl),
      rows.map((r) => r.toUrlId),
      rows.map((r) => r.kind),
      rows.map((r) => r.refusedBy),
      rows.map((r) => r.anchorText),
      rows.map((r) => r.rel),
    ]);
  }

  /** Aliases, one upsert; repeats of one (URL, spelling) in the batch merged first as sequential inserts would (first row kept, fragment spellings added). */
  private async writeAliases(client: pg.PoolClient, aliases: readonly AliasWrite[], idOf: (key: string) => number): Promise<void> {
    if (aliases.length === 0) return;
    const merged = new Map<string, { urlId: number; rawUrl: string; fromUrlId: number | null; fragments: number }>();
    for (const alias of aliases) {
      const urlId = idOf(alias.toKey);
      const key = `${urlId}\u0000${alias.rawUrl}`;
      const entry = merged.get(key);
      if (entry) entry.fragments += alias.fragmentSpellings ?? 0;
      else merged.set(key, { urlId, rawUrl: alias.rawUrl, fromUrlId: alias.fromUrlId, fragments: alias.fragmentSpellings ?? 0 });
    }
    const rows = [...merged.values()];
    await client.query(ALIASES_SQL, [this.crawlId, rows.map((r) => r.urlId), rows.map((r) => r.rawUrl), rows.map((r) => r.fromUrlId), rows.map((r) => r.fragments)]);
  }

  /** The crawl's status, or only this process's end when other live processes still work (the crawl row locked: enders take turns). */
  private async writeStatus(client: pg.PoolClient, status: CrawlStatus, finishedAtMs: number | null): Promise<void> {
    const { processId, leaseMs } = this.process;
    if (status !== 'running') {
      await client.query(`SELECT id FROM crawls WHERE id = $1 FOR UPDATE`, [this.crawlId]);
      const { rows } = await client.query<{ others: number }>(
        `SELECT count(*)::bigint AS others FROM processes WHERE crawl_id = $1 AND ended_at_ms IS NULL AND id <> $2 AND last_beat_ms >= $3`,
        [this.crawlId, processId, Date.now() - leaseMs],
      );
      await client.query(`UPDATE processes SET ended_at_ms = coalesce(ended_at_ms, $2), end_reason = coalesce(end_reason, $3) WHERE id = $1`, [processId, Date.now(), endReasonOf(status)]);
      if (rows[0]!.others > 0) return;
    }
    await client.query(`UPDATE crawls SET status = $1, finished_at_ms = $2 WHERE id = $3`, [status, finishedAtMs, this.crawlId]);
  }
}

/**
 * The batch with its epoch-ms and duration fields in whole ms, as the bigint columns take them
 * (a clock or a duration from performance.now() has a fraction): rounded to the nearest ms.
 */
function wholeMs(batch: CommitBatch): CommitBatch {
  const round = (ms: number) => Math.round(ms);
  return {
    ...batch,
    nowMs: round(batch.nowMs),
    ...(batch.pages ? { pages: batch.pages.map((page) => ({ ...page, row: { ...page.row, fetchedAtMs: round(page.row.fetchedAtMs) } })) } : {}),
    ...(batch.sitemaps ? { sitemaps: batch.sitemaps.map((sitemap) => ({ ...sitemap, fetchMs: round(sitemap.fetchMs), fetchedAtMs: round(sitemap.fetchedAtMs) })) } : {}),
    ...(batch.status ? { status: { ...batch.status, finishedAtMs: batch.status.finishedAtMs === null ? null : round(batch.status.finishedAtMs) } } : {}),
  };
}

/** A link's text as stored: null when it is its target's URL exactly (migration 0016's rule; a spelling with a #fragment always differs). */
function storedRaw(rawUrl: string, toUrlId: number | null, urlOf: Map<number, string>): string | null {
  if (toUrlId === null || rawUrl.includes('#')) return rawUrl;
  return urlOf.get(toUrlId) === rawUrl ? null : rawUrl;
}

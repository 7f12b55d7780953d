/**
 * The engine's public API: the headless crawler (Node only, no Electron). app/ and the hosts
 * (electron/, cli/, server/) import the engine through this file only; a deep import is a lint
 * error (eslint.config.js, zone "app" and "hosts").
 */

/**
 * SQLite handles (better-sqlite3's `Database`), so callers need not import the driver: a
 * `ReadableDB` (openDatabase(file, { readonly: true })) for view and export queries, a
 * `WritableDB` (a read-write open) for writers; a read handle passed to a writer does not compile.
 */
export type { Database, ReadableDB, WritableDB } from './store/sqlite/database';

/** Opening a crawl database: WAL, numbered migrations; the Electron ABI build's path for the app. */
export { createParentFolder, ELECTRON_NATIVE_BINDING, openDatabase, type OpenDatabaseOptions } from './store/sqlite/connection';

/**
 * The crawl lease: one crawling process per database file (a row taken with BEGIN IMMEDIATE,
 * taken over from a dead owner), and who else holds it.
 */
export { CrawlLease, otherLiveHolder, busyMessage } from './store/sqlite/crawl-lease';

/** SQLite errors as the app reports them: DISK_FULL, DB_IO_ERROR, DB_BUSY … in plain words. */
export { isStorageError, storageError, storageErrorInfo } from './store/sqlite/storage-errors';

/** Crawl rows: summaries and counts through a read handle (CrawlReader); create, settings, status, pages and links through a write handle (CrawlRepository). */
export { CrawlReader, CrawlRepository } from './store/sqlite/crawl-repository';

/** Checkpoints: snapshot a crawl database, list, restore, delete, and record them after a restore. */
export { createCheckpoint, deleteCheckpoint, listCheckpoints, recordCheckpoints, restoreCheckpoint, type CheckpointInfo } from './store/sqlite/checkpoints';

/** Read queries that page the workbench views (Frontier, Pages, Duplicates, the URL inspector) and stream exports from SQLite. */
export { DuplicateQueries } from './store/sqlite/queries/duplicate-queries';
export { DustQueries, MAX_DUST_PAGES } from './store/sqlite/queries/dust-queries';
export { CrawlRuleStore, readAcceptedRules, readActiveRules, type AcceptedRule, type RekeyOutcome, type RuleSource } from './store/sqlite/crawl-rules';

export { VersionQueries } from './store/sqlite/queries/version-queries';
export { ExportQueries, type KeyedPage } from './store/sqlite/queries/export-queries';
export { FrontierQueries } from './store/sqlite/queries/frontier-queries';
export { LinkCounts } from './store/sqlite/queries/link-counts';
export { PagesQueries, type PagesQuery } from './store/sqlite/queries/page-queries';
export { SitemapQueries, type ListedUrlRow, type SitemapErrorRow } from './store/sqlite/queries/sitemap-queries';
export {
  InspectorQueries,
  type DiscoveryLink,
  type InlinkRecord,
  type InspectedAlias,
  type InspectedPageRecord,
  type InspectedUrlRecord,
  type LinkPage,
  type OutlinkRecord,
  type StoredBodyRecord,
} from './store/sqlite/queries/inspector-queries';
export { bodyBytes, payloadDigest, storedBody, type StoredBody } from './bodies/stored-body';
export { decodeHtml } from './parse/charset';
export type { RedirectChainHop } from './store/sqlite/queries/redirect-queries';

/** Read queries of the Overview tab (aggregates in SQL) and of the site tree and crawl tree (children by URL range, ancestry by discovered_from). */
export { OverviewQueries } from './store/sqlite/queries/overview-queries';
export { SiteTreeQueries, type SiteTreeQuery } from './store/sqlite/queries/site-tree-queries';

/** Running a crawl: the scheduler over the frontier and the worker pool, its listener and housekeeping counters. */
export { limitHeapGrowth, CRAWL_HEAP_GROWING_PERCENT } from './schedule/heap-growth';
export { CrawlRunner, validateSeeds, type CrawlListener, type CrawlRunnerOptions, type HousekeepingStats } from './schedule/crawl-runner';

/** The storage ports a crawl runs on (store/ports.ts), and their SQLite implementation for one crawl. */
export type { CrawlStores, RefetchOutcome } from './store/ports';
/** A PostgreSQL store several crawler processes share (issue 13): the pool and its plain-words errors. */
export { isPostgresUrl, openPostgresStore, postgresError, redactStoreUrl, type PostgresStore } from './store/postgres/pool';
export { createSqliteCrawlStores } from './store/sqlite/crawl-stores';

/**
 * The PostgreSQL store's crawl (issue 13): read and create crawls (PostgresCrawlRepository), open
 * one process's stores on a crawl (createPostgresCrawlStores), list the processes working on it.
 */
export { PostgresCrawlRepository } from './store/postgres/crawl-repository';
export { createPostgresCrawlStores, type PostgresCrawlStores, type PostgresStoreOptions, type PostgresStoreSettings } from './store/postgres/crawl-stores';
export { liveProcesses, DEFAULT_LEASE_MS, type ProcessInfo, type ProcessRole } from './store/postgres/processes';

/** Host overrides (`--resolve host=ip:port`) as the crawler's resolver takes them. */
export { parseHostOverride } from './fetch/dns';

/** Link rules' settings parsing (seed 004's ignored-extension list). */
export { parseExtensionList } from './links/link-rules';
export { compileUrlPatterns } from './links/url-patterns';

/** URL identity (normalized URL, key, host, registrable domain) from a normalizer and a domain function. */
export { createUrlIdentifier, type UrlIdentity } from './links/url-identity';

/** Crawler traps (issue 12, migration 0019): the stored traps and held URLs of a crawl, and a trap's state changed outside a run. */
export { getTrap, listHeldUrls, listTraps, type HeldUrlRow } from './store/sqlite/queries/trap-queries';
export { changeTrapState } from './store/sqlite/trap-rows';
export type { TrapStateChange } from './store/ports';

/** A PostgreSQL store (issue 13): its pool, and a crawl of it copied into a SQLite crawl database for the read-side views, exports and checkpoints. */
export { copyCrawlToSqlite, copyCrawlsToSqlite, newestPostgresCrawl, postgresCrawlIds, type SnapshotOptions, type SnapshotResult } from './store/postgres/snapshot';
export { createPostgresCheckpoint, listPostgresCheckpoints } from './store/postgres/checkpoints';
export { WarcFileWriter, indexWarc, verifyWarc, type VerifiedRecord } from './warc/warc-file';
export { fetchRecords, revisitRecords, type WarcFetch } from './warc/warc-records';
export { WarcSink } from './warc/warc-sink';
export { RevisitIndex } from './warc/revisit-index';
export { BodyQueries, type StoredFetch } from './store/sqlite/queries/body-queries';
export { requestHeaders } from './fetch/fetcher';
export { CompiledExtractors } from './extract/extractors';
export { findChromium } from './render/browser-pool';
export { isHtml } from './parse/page-processor';
export { estimatedJaccard, MINHASH_SIZE } from './dedupe/shingles';
export { sketchFromBlob } from './dedupe/content-verdict';

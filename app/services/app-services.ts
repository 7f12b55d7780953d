import path from 'node:path';
import { type WritableDB, listCheckpoints, recordCheckpoints, restoreCheckpoint, openDatabase, CrawlLease, otherLiveHolder, DuplicateQueries, ExportQueries, FrontierQueries, InspectorQueries, VersionQueries } from '../../engine';
import type { AppMode } from '../../shared/ipc/contract';
import type { IpcEvent } from '../../shared/ipc/channels';
import type { HostOverride } from '../../shared/types/crawl';
import { CodedError } from '../../shared/types/result';
import { createDispatcher, type Dispatcher } from '../ipc/dispatch';
import { createHandlers } from '../ipc/handlers';
import { CrawlService } from './crawl-service';
import { groupCanonicalContext } from './canonical-context';
import { CompareService } from './compare-service';
import { crawlProfile } from './duplicates-service';
import { DustService } from './dust-service';
import { ExportService } from './export-service';
import { ExtractionService } from './extraction-service';
import { OverviewService } from './overview-service';
import { PagesService } from './pages-service';
import { RecoveryService } from './recovery-service';
import { SettingsService } from './settings-service';

/** What the composition root needs: the database file, the mode and the command line's resolver options. */
export interface AppServicesOptions {
  dbPath: string;
  mode: AppMode;
  version: string;
  hostOverrides?: HostOverride[];
  closedResolver?: boolean;
  /** The Chromium that renders JavaScript (`serve --chromium PATH`) when a crawl names none. */
  chromiumPath?: string;
  /** Shows a file in the system file manager (Electron: shell.showItemInFolder); browser mode has none. */
  showItemInFolder?: (file: string) => void;
  /** better-sqlite3 binding built for Electron's ABI (see db/connection.ts). */
  nativeBinding?: string;
  /** Opens an http(s) URL in the system browser (Electron: shell.openExternal); browser mode has none. */
  openExternal?: (url: string) => Promise<void>;
}

/** A push-event listener of a transport. */
export type EventSink = (event: IpcEvent, payload: unknown) => void;

/** Everything bound to one open database connection; replaced whole when a checkpoint is restored. */
export interface DataStore {
  db: WritableDB;
  crawls: CrawlService;
  settings: SettingsService;
  frontier: FrontierQueries;
  pages: PagesService;
  duplicates: DuplicateQueries;
  exports: ExportQueries;
  overview: OverviewService;
  inspector: InspectorQueries;
  /** DUST rules: mined, accepted into a crawl (re-keying its frontier), undone. */
  dust: DustService;

  /** Seed 001's version URL templates (Duplicates view, inspector, export). */
  versions: VersionQueries;
  /** The Compare view's comparisons of two crawls, kept for paging (issue 14 part 7). */
  compare: CompareService;
  /** Re-runs of a crawl's extractors over its stored bodies, with progress (issue 14 part 2). */
  extraction: ExtractionService;
}

/** The headless application: database, services and the IPC dispatcher over them. */
export interface AppServices {
  /** The current connection (a checkpoint rollback replaces it). */
  readonly db: WritableDB;
  readonly crawls: CrawlService;
  readonly settings: SettingsService;
  dispatch: Dispatcher;
  /** Adds a push-event listener. @returns the function that removes it */
  subscribe(sink: EventSink): () => void;
  close(): Promise<void>;
}

/**
 * Composition root shared by the Electron main process and the browser-mode server. Crawls left
 * `running` by a process that died are marked `interrupted`, and offered in "Resume crawl?"; while
 * another live process holds the database's crawl lease, its crawls are left alone and not offered.
 * "Resume from checkpoint" stops every crawl, takes the crawl lease (DB_BUSY when another process
 * crawls this database), rolls the database back through SQLite's backup (checkpoint rows and app
 * settings carried over), then resumes the crawl; requests that arrive meanwhile get BUSY.
 * @throws CodedError DB_OPEN_FAILED, NOT_A_CRAWL_DB, SCHEMA_TOO_NEW
 */
export function createAppServices(options: AppServicesOptions): AppServices {
  const sinks = new Set<EventSink>();
  const emit: EventSink = (event, payload) => {
    for (const sink of sinks) sink(event, payload);
  };
  const hostOverrides = options.hostOverrides ?? [];
  const closedResolver = options.closedResolver ?? false;

  /** Opens the database and binds the services to it. @returns the store and the crawls marked interrupted */
  const open = (): { store: DataStore; interrupted: number[] } => {
    const db = openDatabase(options.dbPath, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    // Crawls marked running belong to the live lease holder, if there is one; else their process died.
    const interrupted = db
      .transaction(() => {
        if (otherLiveHolder(db)) return [];
        const ids = db.prepare(`SELECT id FROM crawls WHERE status = 'running' ORDER BY id DESC`).pluck().all() as number[];
        db.prepare(`UPDATE crawls SET status = 'interrupted' WHERE status = 'running'`).run();
        return ids;
      })
      .immediate();
    const settings = new SettingsService(db);
    const crawls = new CrawlService(db, { hostOverrides, closedResolver, ...(options.chromiumPath ? { chromiumPath: options.chromiumPath } : {}), defaults: () => settings.crawlDefaults(), ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) }, {
      onProgress: (progress) => emit('crawl.onDidProgress', progress),
      onFinish: (summary) => emit('crawl.onDidFinish', summary),
    }, (crawlId, error) => emit('crawl.onDidFail', { crawlId, error }));
    const compare = new CompareService(db, path.resolve(options.dbPath), options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    const extraction = new ExtractionService(db, crawls, (progress) => emit('extract.onDidProgress', progress));
    return {
      store: { db, crawls, settings, frontier: new FrontierQueries(db, { indexWriter: db }), duplicates: new DuplicateQueries(db), pages: new PagesService(db), exports: new ExportQueries(db), overview: new OverviewService(db, undefined, db), inspector: new InspectorQueries(db), dust: new DustService(db, crawls), versions: new VersionQueries(db), compare, extraction },
      interrupted,
    };

  };

  const first = open();
  const store = first.store;
  let busy: string | null = null;
  const recovery = new RecoveryService(first.interrupted);
  const exportService = new ExportService(
    {
      queries: () => store.exports,
      versions: () => store.versions,
      profileOf: (crawlId) => crawlProfile(store.crawls.repositoryForQueries.getCrawl(crawlId).settings),
      canonicalContextOf: (crawlId) => {
        const settings = store.crawls.repositoryForQueries.getCrawl(crawlId).settings;
        return groupCanonicalContext(settings, crawlProfile(settings));
      },
    },
    (progress) => emit('export.onDidProgress', progress),
  );

  const rollBack = async (crawlId: number, name: string): Promise<void> => {
    const all = listCheckpoints(store.db);
    const checkpoint = all.find((c) => c.crawlId === crawlId && c.name === name);
    if (!checkpoint) throw new CodedError('CHECKPOINT_NOT_FOUND', `Crawl ${crawlId} has no checkpoint named "${name}"`);
    const rerun = store.extraction.running;
    if (rerun) throw new CodedError('EXTRACTION_RUNNING', `Extractors are being re-run over crawl ${rerun.crawlId}'s stored pages: roll back when the re-run is done`);
    const settingsRows = store.settings.snapshot();
    busy = `Rolling back crawl ${crawlId} to checkpoint ${name}`;
    try {
      await store.crawls.close();
      const lease = CrawlLease.acquire(store.db, crawlId);
      try {
        await restoreCheckpoint(store.db, checkpoint);
        recordCheckpoints(store.db, all);
        store.settings.restore(settingsRows);
      } finally {
        lease.release();
      }
    } finally {
      busy = null;
    }
  };

  const handlerDispatch = createDispatcher(
    createHandlers({
      mode: options.mode,
      version: options.version,
      hostOverrides,
      closedResolver,
      exportFolder: path.dirname(path.resolve(options.dbPath)),
      store: () => store,
      recovery,
      exports: exportService,
      ...(options.showItemInFolder ? { showItemInFolder: options.showItemInFolder } : {}),
      rollBack,
      ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    }),
  );
  const dispatch: Dispatcher = async (channel, payload) => {
    if (busy !== null) return { ok: false, error: { code: 'BUSY', message: `${busy}; try again in a moment` } };
    return handlerDispatch(channel, payload);
  };

  return {
    get db() {
      return store.db;
    },
    get crawls() {
      return store.crawls;
    },
    get settings() {
      return store.settings;
    },
    dispatch,
    subscribe(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
    async close() {
      await store.crawls.close();
      sinks.clear();
      store.db.close();
    },
  };
}

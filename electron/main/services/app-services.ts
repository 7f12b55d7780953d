import type { Database } from 'better-sqlite3';
import type { AppMode } from '../../../shared/ipc/contract';
import type { IpcEvent } from '../../../shared/ipc/channels';
import type { HostOverride } from '../../../shared/types/crawl';
import { openDatabase } from '../db/connection';
import { createDispatcher, type Dispatcher } from '../ipc/dispatch';
import { createHandlers } from '../ipc/handlers';
import { CrawlService } from './crawl-service';

export interface AppServicesOptions {
  dbPath: string;
  mode: AppMode;
  version: string;
  hostOverrides?: HostOverride[];
  closedResolver?: boolean;
  /** better-sqlite3 binding built for Electron's ABI (see db/connection.ts). */
  nativeBinding?: string;
}

/** A push-event listener of a transport. */
export type EventSink = (event: IpcEvent, payload: unknown) => void;

/** The headless application: database, crawl service and the IPC dispatcher over them. */
export interface AppServices {
  db: Database;
  crawls: CrawlService;
  dispatch: Dispatcher;
  /** Adds a push-event listener. @returns the function that removes it */
  subscribe(sink: EventSink): () => void;
  close(): Promise<void>;
}

/**
 * Composition root shared by the Electron main process and the browser-mode server. Crawls left
 * `running` by a process that died are marked `interrupted` so the GUI can offer to resume them.
 * @throws CodedError DB_OPEN_FAILED
 */
export function createAppServices(options: AppServicesOptions): AppServices {
  const db = openDatabase(options.dbPath, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  db.prepare(`UPDATE crawls SET status = 'interrupted' WHERE status = 'running'`).run();
  const sinks = new Set<EventSink>();
  const emit: EventSink = (event, payload) => {
    for (const sink of sinks) sink(event, payload);
  };
  const hostOverrides = options.hostOverrides ?? [];
  const closedResolver = options.closedResolver ?? false;
  const crawls = new CrawlService(db, { hostOverrides, closedResolver }, {
    onProgress: (progress) => emit('crawl.onDidProgress', progress),
    onFinish: (summary) => emit('crawl.onDidFinish', summary),
  });
  const dispatch = createDispatcher(createHandlers({ mode: options.mode, version: options.version, crawls, hostOverrides, closedResolver }));
  return {
    db,
    crawls,
    dispatch,
    subscribe(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
    async close() {
      await crawls.close();
      sinks.clear();
      db.close();
    },
  };
}

import type { AppInfo, AppMode, IpcHandlers } from '../../shared/ipc/contract';
import { DEFAULT_CRAWL_SETTINGS } from '../../shared/types/crawl';
import type { DataStore } from '../services/app-services';
import type { ExportService } from '../services/export-service';
import type { RecoveryService } from '../services/recovery-service';
import { checkpointHandlers } from './checkpoint-handlers';
import { compareHandlers } from './compare-handlers';
import { crawlHandlers } from './crawl-handlers';
import { duplicateHandlers } from './duplicate-handlers';
import { dustHandlers } from './dust-handlers';
import { exportHandlers } from './export-handlers';
import { extractionHandlers } from './extraction-handlers';
import { frontierHandlers } from './frontier-handlers';
import { overviewHandlers } from './overview-handlers';
import { inspectorHandlers } from './inspector-handlers';
import { pagesHandlers } from './pages-handlers';
import { settingsHandlers } from './settings-handlers';
import { trapHandlers } from './trap-handlers';

/** What the handlers reach: app facts and the services, the data ones through `store()` (a rollback replaces them). */
export interface HandlerContext {
  mode: AppMode;
  version: string;
  hostOverrides: AppInfo['hostOverrides'];
  closedResolver: boolean;
  /** Folder suggested for exports. */
  exportFolder: string;
  store(): DataStore;
  recovery: RecoveryService;
  exports: ExportService;
  /** Shows a file in the system file manager (Electron's shell.showItemInFolder); absent in browser mode. */
  showItemInFolder?: (file: string) => void;
  /**
   * Rolls the database back to a crawl's checkpoint (stops every crawl, restores, reopens).
   * @throws CodedError CHECKPOINT_NOT_FOUND
   */
  rollBack(crawlId: number, name: string): Promise<void>;
  /** Opens an http(s) URL in the system browser (Electron's shell.openExternal); absent in browser mode. */
  openExternal?: (url: string) => Promise<void>;
}

/**
 * The contract's handlers: thin adapters from validated requests to the services, one file per
 * namespace. `IpcHandlers` is a mapped type over the channel list, so a missing handler fails to compile.
 */
export function createHandlers(context: HandlerContext): IpcHandlers {
  return {
    'app.getInfo': async () => {
      const { settings } = context.store();
      return {
        mode: context.mode,
        version: context.version,
        hostOverrides: context.hostOverrides,
        closedResolver: context.closedResolver,
        defaultSettings: { ...DEFAULT_CRAWL_SETTINGS, ...settings.crawlDefaults(), hostOverrides: [...context.hostOverrides], closedResolver: context.closedResolver },
        lastOpenCrawlId: settings.lastOpenCrawl(),
        exportFolder: context.exportFolder,
      };
    },
    ...crawlHandlers(context),
    ...frontierHandlers(context),
    ...trapHandlers(context),
    ...pagesHandlers(context),
    ...duplicateHandlers(context),
    ...dustHandlers(context),
    ...settingsHandlers(context),
    ...checkpointHandlers(context),
    ...exportHandlers(context),
    ...overviewHandlers(context),
    ...inspectorHandlers(context),
    ...compareHandlers(context),
    ...extractionHandlers(context),
  };
}

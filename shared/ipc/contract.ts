import type { z } from 'zod';
import type { CrawlProgress, CrawlSettings, CrawlSummary, HostOverride, RowPage, UrlState, CrawlScope } from '../types/crawl';
import type { CrawlOverview, SiteTreeChildren, UrlAncestry } from '../types/overview';
import type { PageListRow } from '../types/pages';
import type { ErrorInfo, Result } from '../types/result';
import type { RequestRuleSecrets } from '../types/request-rules';
import type { DustReport, ListedProposal, RekeyOutcome, RuleUndoOutcome } from '../types/dust-rules';
import type { TrapRow, TrapState } from '../types/traps';
import type { ChangeRow, ComparisonSummary } from '../types/comparison';
import type { IpcChannel, IpcEvent } from './channels';
import type { requestSchemas } from './schemas';
import type {
  CheckpointRow,
  ContentGroupDetail,
  ContentGroupKind,
  ContentGroupRow,
  DomainTestResult,
  ExportProgress,
  ExtractionProgress,
  HostRow,
  NormalizationPreview,
  OpenedCrawl,
  PublicSuffixImport,
  RecoveryOffer,
  SavedSettings,
  UrlGroupDetail,
  UrlGroupRow,
  UrlTableRow,
  VersionTemplateDetail,
  VersionTemplateRow,
} from './views';
import type { ExcludeAnswer, InlinkRow, LinkPage, OutlinkRow, PageSource, RefetchAnswer, UrlInspection } from './inspector-view';

/** Where the workbench runs: the Electron shell, or a browser talking to the local server. */
export type AppMode = 'electron' | 'browser';

/** Answer of `app.getInfo`. */
export interface AppInfo {
  mode: AppMode;
  version: string;
  /** Resolver overrides given on the command line (`--resolve`), applied to every crawl. */
  hostOverrides: HostOverride[];
  /** `--closed` on the command line: hosts outside the overrides are refused. */
  closedResolver: boolean;
  /** Effective defaults for the crawl settings form (saved Settings included). */
  defaultSettings: CrawlSettings;
  /** The crawl open when the app last closed (persisted in the settings table), if it still exists. */
  lastOpenCrawlId: number | null;
  /** Folder suggested for exports (beside the database). */
  exportFolder: string;
}

/** Request payload of each channel, inferred from its schema (one source of truth). */
type SchemaRequests = { [C in IpcChannel]: z.infer<(typeof requestSchemas)[C]> };

/** Narrows the string enums zod infers back to the project's unions. */
interface NarrowedRequests extends Omit<SchemaRequests, 'crawl.start' | 'frontier.queryUrls' | 'duplicates.queryContentGroups'> {
  'crawl.start': { seeds: string[]; settings?: Partial<Omit<CrawlSettings, 'scope'>> & { scope?: CrawlScope }; requestRules?: RequestRuleSecrets[] };
  'frontier.queryUrls': Omit<SchemaRequests['frontier.queryUrls'], 'state'> & { state?: UrlState };
  'duplicates.queryContentGroups': Omit<SchemaRequests['duplicates.queryContentGroups'], 'kind'> & { kind?: ContentGroupKind };
}

/** Response value of each channel. */
export interface IpcResponses {
  'app.getInfo': AppInfo;
  'crawl.start': { crawlId: number };
  'crawl.stop': { stopped: boolean };
  'crawl.list': CrawlSummary[];
  'crawl.getProgress': CrawlProgress;
  /** `total` is -1 when the request set `withTotal: false`. */
  'frontier.queryUrls': RowPage<UrlTableRow>;
  'crawl.pause': { paused: boolean };
  'crawl.resume': { crawlId: number };
  'crawl.open': OpenedCrawl;
  'crawl.applySettings': { crawlId: number };
  'crawl.getRecovery': RecoveryOffer | null;
  'crawl.discardRecovery': { discarded: boolean };
  'frontier.queryHosts': RowPage<HostRow>;
  'duplicates.queryUrlGroups': RowPage<UrlGroupRow>;
  'duplicates.getUrlGroup': UrlGroupDetail;
  'duplicates.queryContentGroups': RowPage<ContentGroupRow>;
  'duplicates.getContentGroup': ContentGroupDetail;
  /** Seed 001's version URL templates of a crawl (two or more versions each), most versions first. */
  'duplicates.queryVersionTemplates': RowPage<VersionTemplateRow>;
  'duplicates.getVersionTemplate': VersionTemplateDetail;
  'settings.get': SavedSettings;
  'settings.update': SavedSettings;
  'settings.testDomain': DomainTestResult;
  'settings.getPublicSuffixList': PublicSuffixImport;
  'settings.previewNormalization': NormalizationPreview;
  'checkpoints.list': CheckpointRow[];
  'checkpoints.create': CheckpointRow;
  'checkpoints.resume': { crawlId: number };
  /** Electron only: the finished export's file shown in the system file manager. */
  'export.showInFolder': { shown: true };
  'export.start': ExportProgress;
  /** The Overview tab's aggregates of one crawl. */
  'overview.get': CrawlOverview;
  /** One page of a site-tree node's children (hosts at the top level). */
  'siteTree.children': SiteTreeChildren;
  /** A URL's crawl tree: its ancestry by discovered_from, seed first. */
  'urls.ancestry': UrlAncestry;
  'urls.inspect': UrlInspection;
  /** The URL's stored body, decoded for the inspector's source view. */
  'urls.source': PageSource;
  /** Inlinks (`direction: 'in'`) or outlinks (`'out'`) of one URL, a window at a time. */
  'urls.queryLinks': LinkPage<InlinkRow> | LinkPage<OutlinkRow>;
  'urls.refetch': RefetchAnswer;
  'urls.exclude': ExcludeAnswer;
  /** Electron only: the URL opened in the system browser. */
  'urls.openExternal': { opened: true };
  /** One page of the Pages table; `total` counts every row the filter matches (-1 when the request set `withTotal: false`). */
  'pages.query': RowPage<PageListRow>;
  /** DUST rules mined from the crawl's fetched pages, and the rules accepted into it. */
  'dust.mine': DustReport;
  /** A rule accepted into the crawl: what the re-key of its frontier did. */
  'dust.accept': RekeyOutcome;
  /** The newest accepted rule taken back. */
  'dust.undo': RuleUndoOutcome;
  /** Proposals whose rule takes a member of the content group to another member. */
  'dust.groupRules': ListedProposal[];
  /** The crawler traps the trap guard suspected in a crawl, with evidence and held counts (issue 12). */
  'frontier.queryTraps': TrapRow[];
  /** A trap released (its held URLs back to pending) or excluded for good; `message` says what happened, in words. */
  'frontier.setTrapState': { trapId: number; state: TrapState; released: number; message: string };
  /** Two crawls compared (issue 14 part 7): the counts per kind; the changes are read through `compare.changes`. */
  'compare.run': ComparisonSummary;
  /** One page of a comparison's changes, filtered; `total` counts every change the filter matches. */
  'compare.changes': RowPage<ChangeRow>;
  /** A re-run of extractors started (its first progress report); the rest arrive as `extract.onDidProgress`. */
  'extract.rerun': ExtractionProgress;
}

/** Payload of each push event. */
export interface IpcEventPayloads {
  'crawl.onDidProgress': CrawlProgress;
  'crawl.onDidFinish': CrawlSummary;
  /** A run ended in failure; the crawl is left `interrupted` and can be resumed. */
  'crawl.onDidFail': { crawlId: number; error: ErrorInfo };
  'export.onDidProgress': ExportProgress;
  /** A re-run of extractors went on (at most every 100 ms), ended or failed. */
  'extract.onDidProgress': ExtractionProgress;
}

/** The request payload of a channel. */
export type IpcRequest<C extends IpcChannel> = NarrowedRequests[C];
/** The response value of a channel. */
export type IpcResponse<C extends IpcChannel> = IpcResponses[C];
/** The payload of a push event. */
export type IpcEventPayload<E extends IpcEvent> = IpcEventPayloads[E];

/**
 * Main's implementation of the contract. A mapped type over the closed channel list, so a
 * missing or mistyped handler is a compile error. Handlers receive validated payloads and may
 * throw a CodedError; the dispatcher turns it into `{ ok: false, error }`.
 */
export type IpcHandlers = { [C in IpcChannel]: (request: IpcRequest<C>) => Promise<IpcResponse<C>> };

/**
 * What the renderer sees: one function per channel (never a generic invoke) plus `on`.
 * Implemented by the Electron preload and by the browser-mode WebSocket client alike.
 */
export type CrawlbenchApi = { [C in IpcChannel]: (request: IpcRequest<C>) => Promise<Result<IpcResponse<C>>> } & {
  /** Subscribes to a push event; returns the unsubscribe function. */
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
};

/** Frames of the browser-mode WebSocket transport (the same contract as Electron IPC). */
export type SocketFrame =
  | { kind: 'request'; seq: number; channel: IpcChannel; payload: unknown }
  | { kind: 'response'; seq: number; result: Result<unknown> }
  | { kind: 'event'; event: IpcEvent; payload: unknown };

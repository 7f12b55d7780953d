import type { z } from 'zod';
import type { CrawlProgress, CrawlSettings, CrawlSummary, FrontierRow, HostOverride, RowPage, UrlState, CrawlScope } from '../types/crawl';
import type { Result } from '../types/result';
import type { IpcChannel, IpcEvent } from './channels';
import type { requestSchemas } from './schemas';

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
  /** Effective defaults for the crawl settings form. */
  defaultSettings: CrawlSettings;
}

/** Request payload of each channel, inferred from its schema (one source of truth). */
type SchemaRequests = { [C in IpcChannel]: z.infer<(typeof requestSchemas)[C]> };

/** Narrows the string enums zod infers back to the project's unions. */
interface NarrowedRequests extends Omit<SchemaRequests, 'crawl.start' | 'frontier.queryUrls'> {
  'crawl.start': { seeds: string[]; settings?: Partial<Omit<CrawlSettings, 'scope'>> & { scope?: CrawlScope } };
  'frontier.queryUrls': Omit<SchemaRequests['frontier.queryUrls'], 'state'> & { state?: UrlState };
}

/** Response value of each channel. */
export interface IpcResponses {
  'app.getInfo': AppInfo;
  'crawl.start': { crawlId: number };
  'crawl.stop': { stopped: boolean };
  'crawl.list': CrawlSummary[];
  'crawl.getProgress': CrawlProgress;
  'frontier.queryUrls': RowPage<FrontierRow>;
}

/** Payload of each push event. */
export interface IpcEventPayloads {
  'crawl.onDidProgress': CrawlProgress;
  'crawl.onDidFinish': CrawlSummary;
}

export type IpcRequest<C extends IpcChannel> = NarrowedRequests[C];
export type IpcResponse<C extends IpcChannel> = IpcResponses[C];
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

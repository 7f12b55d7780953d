import type { CrawlbenchApi } from '../../../shared/ipc/contract';
import { createSocketClient, type ConnectionState } from './socket-client';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    crawlbench?: CrawlbenchApi;
  }
}

/** Browser mode's socket client (the page is `/t/TOKEN/`, see socket-client.ts); null in Electron. */
const socketClient = window.crawlbench ? null : createSocketClient(window.location);

/** The contract client: the preload's in Electron, the WebSocket's in browser mode. */
export const api: CrawlbenchApi = window.crawlbench ?? socketClient!.api;

/**
 * Watches the connection to main: browser mode's socket state changes; in Electron, main is the
 * same application, so the connection never drops and `listener` is never called.
 * @returns the function that stops watching
 */
export function onDidChangeConnection(listener: (state: ConnectionState) => void): () => void {
  return socketClient ? socketClient.onDidChangeConnection(listener) : () => undefined;
}

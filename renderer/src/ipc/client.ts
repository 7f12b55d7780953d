import type { CrawlbenchApi } from '../../../shared/ipc/contract';
import { createSocketApi } from './socket-client';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    crawlbench?: CrawlbenchApi;
  }
}

/** The contract client: the preload's in Electron, the WebSocket's in browser mode (the page is `/t/TOKEN/`, see socket-client.ts). */
export const api: CrawlbenchApi = window.crawlbench ?? createSocketApi(window.location);

/**
 * Test support for the app's services over IPC (app/services/app-services.ts): an IPC answer's
 * value, and waiting for a crawl to end in this process.
 */
import type { AppServices } from '../../app/services/app-services';
import type { Result } from '../../shared/types/result';

/** The value of an IPC answer. @throws Error `CODE: message` when the answer is an error */
export function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

/** Polls (every 20 ms) until crawl `crawlId` is no longer running in `services`' process. @throws Error after 30 s */
export async function settled(services: AppServices, crawlId: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (services.crawls.isRunning(crawlId)) {
    if (Date.now() > deadline) throw new Error(`crawl ${crawlId} still running`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

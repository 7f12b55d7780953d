import { EXIT_SIGNAL, type CommandIo } from './io';

/** What {@link trapStopSignals} returns. */
export interface StopSignals {
  /** The first stop signal received, or null. */
  readonly received: 'SIGINT' | 'SIGTERM' | null;
  /** Removes the handlers. */
  dispose(): void;
}

/**
 * SIGINT and SIGTERM stop a crawl the same way: the first calls `stop` (in-flight fetches finish
 * and are recorded, the crawl ends `stopped`, resumable) and says so on stderr; a second one exits
 * at once with 130/143 (what is committed stays; URLs in flight go back to pending on resume).
 */
export function trapStopSignals(io: CommandIo, stop: () => void): StopSignals {
  let received: 'SIGINT' | 'SIGTERM' | null = null;
  const handler = (signal: 'SIGINT' | 'SIGTERM') => {
    if (received !== null) process.exit(EXIT_SIGNAL[signal]);
    received = signal;
    io.stderr.write(`crawlbench: ${signal}: stopping the crawl (fetches in flight are finished and recorded; send it again to quit at once)\n`);
    stop();
  };
  const onInt = () => handler('SIGINT');
  const onTerm = () => handler('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    get received() {
      return received;
    },
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

import { useShallow } from 'zustand/react/shallow';
import { formatElapsed } from '../components/format';
import { useStore } from '../store';

/**
 * The crawls running (or paused) in the app, shown in the header on every view: counters and a
 * way back to each. Hidden for the crawl the Crawl view shows right now.
 */
export function RunningCrawlIndicator() {
  const { liveCrawls, crawlId, tab } = useStore(useShallow((s) => ({ liveCrawls: s.liveCrawls, crawlId: s.crawlId, tab: s.tab })));
  const openCrawl = useStore((s) => s.openCrawl);
  const setTab = useStore((s) => s.setTab);
  const shown = Object.values(liveCrawls).filter((progress) => !(tab === 'Crawl' && progress.crawlId === crawlId));
  if (shown.length === 0) return null;
  return (
    <ul className="running-crawls" aria-label="Running crawls">
      {shown.map((progress) => (
        <li key={progress.crawlId} data-testid={`running-crawl-${progress.crawlId}`}>
          <span className={`running-dot status-${progress.status}`} aria-hidden="true" />
          Crawl #{progress.crawlId} {progress.status}: {progress.fetched} fetched, {progress.queued} queued, {progress.errors} failed, {formatElapsed(progress.elapsedMs)}
          <button
            type="button"
            onClick={() => {
              void openCrawl(progress.crawlId).then((opened) => opened && setTab('Crawl'));
            }}
          >
            Show
          </button>
        </li>
      ))}
    </ul>
  );
}

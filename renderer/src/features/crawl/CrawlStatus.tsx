import { useShallow } from 'zustand/react/shallow';
import type { SeedFailure } from '../../../../shared/ipc/views';
import type { CrawlStatus as CrawlStatusName } from '../../../../shared/types/crawl';
import { formatElapsed } from '../../components/format';
import { useStore } from '../../store';
import { frontierGrowth, type FrontierGrowth } from './frontier-growth';
import { RateChart } from './RateChart';
import { linkRuleLabel } from '../../../../shared/types/link-rules';

/** A counter; with `onOpen`, a link-like button to the table behind it (`opens` names that table). */
function Counter({ label, value, onOpen, opens }: { label: string; value: number | string; onOpen?: () => void; opens?: string }) {
  const valueSpan = (
    <span className="counter-value" data-testid={`counter-${label.replace(/\s+/g, '-').toLowerCase()}`}>
      {value}
    </span>
  );
  return (
    <div className="counter" role="group" aria-label={label}>
      {onOpen ? (
        <button type="button" className="counter-link" onClick={onOpen} title={`Open ${opens}`} aria-label={`${label}: ${value}, open ${opens}`}>
          {valueSpan}
        </button>
      ) : (
        valueSpan
      )}
      <span className="counter-label">{label}</span>
    </div>
  );
}

/** What can be done with an open crawl in each status, after its number and seeds. */
const STATUS_CAPTION: Record<CrawlStatusName, string> = {
  running: '',
  paused: ' — paused: Resume continues it, Stop ends it',
  stopped: ' — stopped: Resume continues it from where it stopped',
  interrupted: ' — interrupted: Resume continues it from where it stopped',
  finished: ' — finished: nothing was left to fetch; browse or export its results',
};

/** "seed http://… failed: DNS_FAILURE: …" for each failed seed. */
function seedFailureText(failures: readonly SeedFailure[]): string {
  return failures.map((failure) => `seed ${failure.url} failed: ${[failure.errorCode, failure.errorReason].filter(Boolean).join(': ') || 'no reason recorded'}`).join('; ');
}

const TREND_WORDS = (growth: FrontierGrowth): string => {
  // Early in a run the window is shorter than GROWTH_WINDOW_MS: tenths, so it never reads "last 0 s".
  const seconds = (growth.windowMs / 1000).toFixed(growth.windowMs < 10_000 ? 1 : 0);
  const window = `last ${seconds} s: +${growth.discoveredInWindow} discovered, +${growth.doneInWindow} done`;
  switch (growth.trend) {
    case 'growing':
      return `Frontier growing faster than it is crawled (${window}): the end is not in sight`;
    case 'converging':
      return `Frontier shrinking (${window}): converging`;
    case 'steady':
      return `Frontier not shrinking (${window}): each URL done adds another, the end is not in sight`;
    case 'idle':
      return 'No URLs done or discovered lately';
    default: {
      const never: never = growth.trend;
      return never;
    }
  }
};

/**
 * Live counters, frontier growth (done vs discovered, with its trend: no percentage, as the end of
 * a crawl is unknown until its frontier is empty), pages/s chart, elapsed time over all runs and
 * links refused per rule. Counters open the tables behind them. The region is focusable
 * (`#crawl-status`) so Start can move focus to it.
 */
export function CrawlStatus() {
  const { progress, rateHistory, opened, growthSamples, connection } = useStore(
    useShallow((s) => ({ progress: s.progress, rateHistory: s.rateHistory, opened: s.opened, growthSamples: s.growth, connection: s.connection })),
  );
  const showPages = useStore((s) => s.showPages);
  const setTab = useStore((s) => s.setTab);
  const fetched = progress?.fetched ?? 0;
  const errors = progress?.errors ?? 0;
  const blocked = progress?.blocked ?? 0;
  const refusals = Object.entries(progress?.refusedByRule ?? {}).sort((a, b) => b[1] - a[1]);
  const growth = frontierGrowth(growthSamples);
  const status = progress?.status ?? opened?.summary.status ?? null;
  const live = status === 'running';
  const done = fetched + errors + blocked;
  const discovered = done + (progress?.queued ?? 0) + (progress?.inFlight ?? 0);
  const seedFailures = opened?.seedFailures ?? [];
  // A crawl that ended with nothing fetched failed, whatever its status says.
  const failedOutright = !live && status !== null && fetched === 0 && errors + blocked > 0;
  const disconnected = connection === 'lost' || connection === 'unauthorized';

  return (
    <div className="crawl-status" id="crawl-status" tabIndex={-1} aria-label="Crawl status">
      {opened ? (
        <p className="crawl-caption" data-testid="open-crawl">
          Crawl #{opened.summary.id} of {opened.summary.seeds.join(', ')}
          {status ? STATUS_CAPTION[status] : ''}
        </p>
      ) : null}
      {failedOutright ? (
        <p className="crawl-failure" role="alert" data-testid="crawl-failure">
          {status === 'finished' ? 'Finished' : 'Ended'}: {fetched} pages fetched, {errors} failed{blocked > 0 ? `, ${blocked} blocked by robots.txt` : ''}
          {seedFailures.length > 0 ? ` — ${seedFailureText(seedFailures)}` : ''}
        </p>
      ) : null}
      <div className="counters">
        <Counter label="Fetched" value={fetched} />
        <Counter label="Queued" value={progress?.queued ?? 0} />
        <Counter label="In flight" value={progress?.inFlight ?? 0} />
        <Counter label="Errors" value={errors} onOpen={errors > 0 ? () => showPages({ status: 'failed' }) : undefined} opens="the failed pages in Pages" />
        <Counter label="Blocked" value={blocked} onOpen={blocked > 0 ? () => showPages({ status: 'blocked' }) : undefined} opens="the URLs robots.txt blocked in Pages" />
        <Counter
          label="Duplicates"
          value={progress?.duplicates ?? 0}
          onOpen={(progress?.duplicates ?? 0) > 0 ? () => setTab('Duplicates') : undefined}
          opens="the Duplicates view"
        />
        <Counter label="Pages per second" value={progress?.pagesPerSecond ?? 0} />
        <Counter label="Elapsed" value={formatElapsed(progress?.elapsedMs ?? 0)} />
        <Counter label="Status" value={disconnected ? 'disconnected' : (progress?.status ?? 'idle')} />
      </div>
      <div className={`growth-row${failedOutright ? ' growth-failed' : ''}`} data-testid="frontier-growth">
        <div className="growth-bar" aria-hidden="true">
          <div className="growth-done" style={{ width: discovered === 0 ? 0 : `${(done / discovered) * 100}%` }} />
        </div>
        <span className="growth-text">
          <span data-testid="frontier-done">{done}</span> done of <span data-testid="frontier-discovered">{discovered}</span> discovered so far
          {live && growth ? ` · ${TREND_WORDS(growth)}` : ''}
          {!live && discovered > 0 && done === discovered ? ' · frontier empty' : ''}
        </span>
      </div>
      <div className="status-columns">
        <RateChart samples={rateHistory} />
        <table className="refusals" aria-label="Links refused by rule">
          <caption>Links refused by rule</caption>
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col" className="num">
                Links
              </th>
            </tr>
          </thead>
          <tbody>
            {refusals.length === 0 ? (
              <tr>
                <td colSpan={2} className="muted">
                  none yet
                </td>
              </tr>
            ) : (
              refusals.map(([rule, count]) => (
                <tr key={rule}>
                  <th scope="row" title={rule}>
                    <button type="button" className="link-button" onClick={() => setTab('Frontier')} aria-label={`${linkRuleLabel(rule)}: open the Frontier view`}>
                      {linkRuleLabel(rule)}
                    </button>
                  </th>
                  <td className="num" data-testid={`refused-${rule}`}>
                    {count}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

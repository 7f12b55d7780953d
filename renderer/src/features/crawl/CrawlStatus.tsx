import { useShallow } from 'zustand/react/shallow';
import { formatElapsed } from '../../components/format';
import { useStore } from '../../store';
import { RateChart } from './RateChart';

function Counter({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="counter" role="group" aria-label={label}>
      <span className="counter-value" data-testid={`counter-${label.replace(/\s+/g, '-').toLowerCase()}`}>
        {value}
      </span>
      <span className="counter-label">{label}</span>
    </div>
  );
}

/** Link rules in the order the crawler checks them (seed 004 and IIR 20.2), with words for each. */
const RULE_WORDS: Record<string, string> = {
  'invalid-url': 'not a URL',
  protocol: 'scheme not followed',
  'url-length': 'URL too long',
  'query-string': 'has a query string',
  'ignored-extension': 'ignored extension',
  nofollow: 'nofollow',
  scope: 'outside the scope',
  'include-domains': 'not in the included domains',
  'exclude-domains': 'in the excluded domains',
  'max-depth': 'deeper than max depth',
  'max-links-per-page': 'past the links kept per page',
  robots: 'disallowed by robots.txt',
};

/** Live counters, progress bar, pages/s chart, elapsed time and links refused per rule. */
export function CrawlStatus() {
  const { progress, rateHistory, opened } = useStore(useShallow((s) => ({ progress: s.progress, rateHistory: s.rateHistory, opened: s.opened })));
  const fetched = progress?.fetched ?? 0;
  const errors = progress?.errors ?? 0;
  const total = fetched + (progress?.queued ?? 0) + (progress?.inFlight ?? 0) + errors;
  const percent = total === 0 ? 0 : Math.floor(((fetched + errors) / total) * 100);
  const refusals = Object.entries(progress?.refusedByRule ?? {}).sort((a, b) => b[1] - a[1]);

  return (
    <div className="crawl-status" id="crawl-status" tabIndex={-1} aria-label="Crawl status">
      {opened ? (
        <p className="crawl-caption" data-testid="open-crawl">
          Crawl #{opened.summary.id} of {opened.summary.seeds.join(', ')}
          {progress?.status === 'running' ? '' : ' — read-only until resumed'}
        </p>
      ) : null}
      <div className="counters">
        <Counter label="Fetched" value={fetched} />
        <Counter label="Queued" value={progress?.queued ?? 0} />
        <Counter label="In flight" value={progress?.inFlight ?? 0} />
        <Counter label="Errors" value={errors} />
        <Counter label="Duplicates" value={progress?.duplicates ?? 0} />
        <Counter label="Pages per second" value={progress?.pagesPerSecond ?? 0} />
        <Counter label="Elapsed" value={formatElapsed(progress?.elapsedMs ?? 0)} />
        <Counter label="Status" value={progress?.status ?? 'idle'} />
      </div>
      <div className="progress-row">
        <div role="progressbar" aria-label="Crawl progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="progressbar">
          <div className="progressbar-fill" style={{ width: `${percent}%` }} />
        </div>
        <span className="progress-text">{percent}%</span>
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
                  <th scope="row" title={RULE_WORDS[rule] ?? rule}>
                    {rule}
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
